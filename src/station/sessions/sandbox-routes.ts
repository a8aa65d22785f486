import type { FastifyPluginAsync } from 'fastify';
import type { WithParams } from '../http/route-types.js';
import type { StationMode } from '../../core/schemas/station-mode.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import type { SandboxOutbox } from './sandbox-outbox.js';
import type { RedirectSigningSimulator } from './redirect-signing-simulator.js';
import { readDecision, sendProviderPage } from '../http/sandbox-provider-page.js';

const OUTBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
const html = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * `/sandbox/test-ca.pem` (the simulators' test CA, to trust in a validator), `/sandbox/outbox` (the one-time
 * passwords "sent", as a page and as JSON) and `/sandbox/provider/sign/<id>` (the redirect providers' page).
 * Sandbox mode only. Pages of other origins get no CORS here, so only the
 * user (or a local script) reads the outbox.
 */
export function sandboxRoutes(deps: { ca: SandboxTestCa; outbox: SandboxOutbox; redirect: RedirectSigningSimulator; mode: () => StationMode }): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async () => {
      if (deps.mode() !== 'sandbox') throw new NotFoundError('ERR_SANDBOX_ONLY', 'The sandbox pages exist in sandbox mode only.');
    });
    app.get('/test-ca.pem', async (_request, reply) => reply.type('application/x-pem-file').send(await deps.ca.rootPem()));
    app.get('/outbox.json', async (_request, reply) => reply.header('cache-control', 'no-store').send({ messages: deps.outbox.messages() }));
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
    app.get<WithParams<'id'>>('/provider/sign/:id', async (request, reply) => {
      const { id } = request.params;
      const visit = deps.redirect.visit(id);
      return sendProviderPage(reply, {
        title: `Sandbox provider: ${visit.method}`,
        detail: `${visit.clientId} asks you to sign document ${visit.docId} with ${visit.method}. Approve to sign as the sandbox person REDIRECT TESTPERSON (test CA).`,
        action: `/sandbox/provider/sign/${encodeURIComponent(id)}`,
        returnOrigin: new URL(visit.returnTo).origin,
      });
    });
    app.post<WithParams<'id'>>('/provider/sign/:id', async (request, reply) => {
      const { id } = request.params;
      return reply.redirect(await deps.redirect.decide(id, readDecision(request.body) === 'approve'), 303);
    });
    app.get('/outbox', async (_request, reply) => {
      const rows = deps.outbox.messages().map((message) => `<tr><td>${html(message.at)}</td><td>${message.channel}</td><td>${html(message.to)}</td><td>${html(message.text)}</td></tr>`);
      const page = `<!doctype html><meta charset="utf-8"><title>Sandbox outbox</title><h1>Sandbox outbox</h1><p>One-time passwords the sandbox would have sent by SMS or e-mail.</p><table><tr><th>When</th><th>Channel</th><th>To</th><th>Message</th></tr>${rows.join('')}</table>`;
      return reply.header('cache-control', 'no-store').header('content-security-policy', OUTBOX_CSP).type('text/html; charset=utf-8').send(page);
    });
  };
}
