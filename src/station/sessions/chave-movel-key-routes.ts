import type { FastifyPluginAsync } from 'fastify';
import type { StationMode } from '../../core/schemas/station-mode.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { allowRegisteredOrigin } from '../http/allow-registered-origin.js';
import type { SandboxRsaKey } from './sandbox-rsa-key.js';
import { assertSandboxSigning } from './sandbox-signing-mode.js';

/**
 * `GET /api/chave-movel-public-key`: the key the browser clients' chaveMovelSignature module encrypts the phone,
 * PIN and confirmation code with, as `{publicKey: base64 of the PEM}`; readable by any registered client's page.
 * The simulated provider's key, so refused in production.
 */
export function chaveMovelKeyRoutes(deps: { key: SandboxRsaKey; mode: () => StationMode; clients: Pick<ClientRegistry, 'allOrigins'> }): FastifyPluginAsync {
  return async (app) => {
    app.get('/api/chave-movel-public-key', async (request, reply) => {
      assertSandboxSigning(deps.mode, 'chave-movel-qes-signature');
      await allowRegisteredOrigin(request, reply, deps.clients);
      return { status: 'OK', publicKey: Buffer.from(await deps.key.publicKeyPem()).toString('base64') };
    });
  };
}
