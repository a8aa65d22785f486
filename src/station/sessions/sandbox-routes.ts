import type { FastifyPluginAsync } from 'fastify';
import type { StationMode } from '../../core/schemas/station-mode.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import type { SandboxOutbox } from './sandbox-outbox.js';

const OUTBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
const html = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * `/sandbox/test-ca.pem` (the simulators' test CA, to trust in a validator) and `/sandbox/outbox` (the one-time
 * passwords "sent", as a page and as JSON). Sandbox mode only. Pages of other origins get no CORS here, so only the
 * user (or a local script) reads the outbox.
 */
export function sandboxRoutes(deps: { ca: SandboxTestCa; outbox: SandboxOutbox; mode: () => StationMode }): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async () => {
      if (deps.mode() !== 'sandbox') throw new NotFoundError('ERR_SANDBOX_ONLY', 'The sandbox pages exist in sandbox mode only.');
    });
    app.get('/test-ca.pem', async (_request, reply) => reply.type('application/x-pem-file').send(await deps.ca.rootPem()));
    app.get('/outbox.json', async (_request, reply) => reply.header('cache-control', 'no-store').send({ messages: deps.outbox.messages() }));
    app.get('/outbox', async (_request, reply) => {
      const rows = deps.outbox.messages().map((message) => `<tr><td>${html(message.at)}</td><td>${message.channel}</td><td>${html(message.to)}</td><td>${html(message.text)}</td></tr>`);
      const page = `<!doctype html><meta charset="utf-8"><title>Sandbox outbox</title><h1>Sandbox outbox</h1><p>One-time passwords the sandbox would have sent by SMS or e-mail.</p><table><tr><th>When</th><th>Channel</th><th>To</th><th>Message</th></tr>${rows.join('')}</table>`;
      return reply.header('cache-control', 'no-store').header('content-security-policy', OUTBOX_CSP).type('text/html; charset=utf-8').send(page);
    });
  };
}
