import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

const HOME_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * GET /: what a person who types the station's address sees. A page, not a JSON 404: the station UI opens only
 * through a one-time link, and this says how to get one without restarting anything.
 */
export function stationHomeRoutes(): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.get('/', async (_request, reply) =>
      reply.header('content-security-policy', HOME_CSP).type('text/html; charset=utf-8').send(HOME_PAGE),
    );
  };
}

const HOME_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Signing Station</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2430}code{background:#eef1f5;padding:.1rem .3rem;border-radius:4px}</style></head>
<body>
<h1>Signing Station is running</h1>
<p>Its window opens through a one-time link, so that no other page or program on this computer can use it.</p>
<ul>
<li>Desktop app: choose <strong>Open Signing Station</strong> in the tray menu.</li>
<li>Without the desktop app: run <code>signing-station ui</code> in a terminal and open the link it prints.</li>
</ul>
</body>
</html>
`;
