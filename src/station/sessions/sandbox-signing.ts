import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { StationMode } from '../../core/schemas/station-mode.js';
import type { Clock } from '../ports/clock.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { RedirectSigningSimulator } from './redirect-signing-simulator.js';
import type { SandboxTimings } from '../identity/sandbox-timings.js';
import { appSigningSimulator } from './app-signing-simulator.js';
import type { HashSigningService } from './hash-signing-service.js';
import { otpSigningSimulator } from './otp-signing-simulator.js';
import { OneTimeCodes } from './one-time-codes.js';
import { confirmationCodeSigningSimulator } from './confirmation-code-signing-simulator.js';
import { chaveMovelProvider, uanatacaProvider } from './confirmation-providers.js';
import { chaveMovelKeyRoutes } from './chave-movel-key-routes.js';
import { SandboxRsaKey } from './sandbox-rsa-key.js';
import { SandboxOutbox } from './sandbox-outbox.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { zealIdSigningRoutes } from './zealid-signing-routes.js';
import { SANDBOX_SIGNING_PROVIDERS } from './sandbox-signing-providers.js';
import { SandboxTestCa } from './sandbox-test-ca.js';
import { SimulatedSignings } from './simulated-signings.js';
import type { SigningMethod } from './signing-method.js';

export interface SandboxSigningOptions {
  service: HashSigningService;
  clock: Clock;
  timings: SandboxTimings;
  mode: () => StationMode;
  logger: Logger;
  clients: Pick<ClientRegistry, 'find' | 'allOrigins'>;
  baseUrl: () => string;
}

/**
 * The sandbox simulators of remote signing (Smart-ID, Mobile-ID, OTP, confirmation codes, redirect providers) as signing-method rows, with their test CA
 * and outbox, the routes that show those (test CA certificate, outbox page, provider page, under /sandbox) and the
 * providers' own entry points (ZealiD's signature start, Chave Móvel's public key, at the root). Refused in production mode.
 */
export function sandboxSigning(options: SandboxSigningOptions): { methods: SigningMethod[]; routes: FastifyPluginAsync; entryRoutes: FastifyPluginAsync } {
  const ca = new SandboxTestCa(options.clock);
  const outbox = new SandboxOutbox(options.logger);
  const deps = { service: options.service, ca, signings: new SimulatedSignings(), timings: options.timings, mode: options.mode };
  const redirect = new RedirectSigningSimulator({ ...deps, clients: options.clients, baseUrl: options.baseUrl });
  const codes = new OneTimeCodes(outbox);
  const chaveMovelKey = new SandboxRsaKey();
  return {
    methods: [
      ...SANDBOX_SIGNING_PROVIDERS.map((provider) => appSigningSimulator(provider, deps)),
      otpSigningSimulator({ ...deps, codes }),
      ...[uanatacaProvider, chaveMovelProvider(chaveMovelKey)].map((provider) => confirmationCodeSigningSimulator(provider, { ...deps, codes })),
      redirect.method(),
    ],
    routes: sandboxRoutes({ ca, outbox, redirect, mode: options.mode }),
    entryRoutes: async (app) => {
      await app.register(zealIdSigningRoutes(redirect));
      await app.register(chaveMovelKeyRoutes({ key: chaveMovelKey, mode: options.mode, clients: options.clients }));
    },
  };
}
