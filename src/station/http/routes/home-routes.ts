import type { FastifyPluginAsync } from 'fastify';
import { createHash } from 'node:crypto';
import type { StationMode } from '../../../core/schemas/station-mode.js';
import { escapeHtml } from '../../oidc/views/html.js';

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
code{background:#f1f3f6;padding:0 .25rem;border-radius:3px}dt{font-weight:600;margin-top:.6rem}dd{margin-left:1.2rem}
.mode{display:inline-block;padding:0 .5rem;border-radius:3px;background:#e8eefc}`;

/** No script, and only this page's own inline style (by hash): nothing else may load or run. */
const HOME_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

export interface HomePageInfo {
  name: string;
  version: string;
  mode: StationMode;
  /** Guides served under /docs/ (names without `.md`). */
  docs: readonly string[];
}

function address(path: string, what: string): string {
  return `<dt><code>${escapeHtml(path)}</code></dt><dd>${what}</dd>`;
}

function homePage(info: HomePageInfo): string {
  const docs = info.docs.map((name) => `<li><a href="/docs/${escapeHtml(name)}">${escapeHtml(name)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(info.name)}</title><style>${STYLE}</style></head>
<body>
<main>
<h1>${escapeHtml(info.name)}</h1>
<p>A local signing station: it signs documents with a plugged-in ID card or USB token, and serves web applications
a certificate helper and an offline twin of an identification, signing and timestamping service, on this computer only.</p>
<p>Version <strong>${escapeHtml(info.version)}</strong>, mode <span class="mode">${escapeHtml(info.mode)}</span>.</p>
<h2>Addresses for web pages</h2>
<dl>
${address('/client/service-browser-client.js', 'the browser client library')}
${address('/web-element/os-broker/<client_id>/<method>?doc_id=', 'the iframe certificate helper page, framed by the client’s registered origins')}
${address('/.well-known/openid-configuration', 'OpenID Connect discovery')}
${address('/api/timestamp/<client_id>', 'RFC 3161 time-stamping, for the client’s allowed IP addresses')}
${address('/api/health', 'liveness as JSON, for scripts and monitors')}
</dl>
<h2>Reference</h2>
<ul><li><a href="/openapi.json">OpenAPI description</a> of every route</li>${docs}</ul>
<h2>Opening the station UI</h2>
<p>In the desktop app: the tray icon, <em>Open Signing Station</em>. Headless: the one-time <code>ui</code> link that
<code>signing-station serve</code> (or <code>npm start</code>) printed when it started, or a new one from
<code>signing-station ui</code> in a terminal, with no restart.
The UI is never opened from this page: its link carries a credential meant for the person at this computer only.</p>
</main>
</body>
</html>
`;
}

/** GET /: what a person opening the station's address in a browser should see. */
export function homeRoutes(info: HomePageInfo): FastifyPluginAsync {
  const html = homePage(info);
  return async (app) => {
    app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', HOME_CSP).header('x-frame-options', 'DENY').send(html));
  };
}
