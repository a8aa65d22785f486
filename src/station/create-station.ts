import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VerifyRequest } from '../core/schemas/admin-api.js';
import type { DocumentVerification } from '../core/schemas/verification-report.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { StationError } from '../core/errors/station-error.js';
import { STATION_NAME } from '../core/constants.js';
import type { Overview } from '../core/schemas/admin-api.js';
import { stationConfigSchema, type StationConfig, type StationConfigInput } from './config/station-config.js';
import { parseZod } from './validation/parse-zod.js';
import { createLogger } from './log/create-logger.js';
import type { KeyStore } from './ports/key-store.js';
import type { UserPrompt } from './ports/user-prompt.js';
import { systemClock, type Clock } from './ports/clock.js';
import { openStationData, type StationData } from './open-station-data.js';
import { TokenRegistry } from './tokens/token-registry.js';
import { keySchemesOf } from './tokens/key-schemes-of.js';
import { tokenHolding } from './tokens/token-holding.js';
import { whileTokenConnected } from './tokens/while-token-connected.js';
import type { TokenSource } from './tokens/token.js';
import { UiPromptBroker } from './prompts/ui-prompt-broker.js';
import { UiSessions } from './http/ui-sessions.js';
import { readBearerCredential } from './http/read-bearer-credential.js';
import { uiSessionRoutes } from './http/routes/ui-session-routes.js';
import { createHttpServer } from './http/create-http-server.js';
import { uiRoutes } from './http/routes/ui-routes.js';
import { clientRoutes } from './http/routes/client-routes.js';
import { adminRoutes } from './http/routes/admin-routes.js';
import { trustRoutes } from './http/routes/trust-routes.js';
import { healthRoutes } from './http/routes/health-routes.js';
import { homeRoutes } from './http/routes/home-routes.js';
import { openApiRoutes } from './http/routes/openapi-routes.js';
import { docsRoutes, listDocs } from './http/routes/docs-routes.js';
import type { RegisteredRoute } from './http/openapi/openapi-document.js';
import { signingSessionRoutes } from './sessions/signing-session-routes.js';
import { HashSigningService } from './sessions/hash-signing-service.js';
import { ConsentBatches } from './sessions/consent-batches.js';
import { hashSigningMethod } from './sessions/hash-signing-method.js';
import { SigningMethodTable } from './sessions/signing-method-table.js';
import { sandboxSigning } from './sessions/sandbox-signing.js';
import { signingMethodRoutes } from './sessions/signing-method-routes.js';
import { PendingSignatures } from './sessions/pending-signatures.js';
import { FrameTickets } from './iframe-helper/frame-tickets.js';
import { IframeHelperService } from './iframe-helper/iframe-helper-service.js';
import { iframeHelperRoutes } from './iframe-helper/iframe-helper-routes.js';
import { EmbeddedTimestampClient } from './tsa/embedded-timestamp-client.js';
import { packageRoot } from './files/package-root.js';
import { OidcService } from './oidc/oidc-service.js';
import { oidcRoutes } from './oidc/oidc-routes.js';
import type { OidcLifetimes } from './oidc/oidc-lifetimes.js';
import { IdentityService } from './identity/identity-service.js';
import { identityRoutes } from './identity/identity-routes.js';
import { localTokenLogin } from './identity/local-token-login.js';
import { cardLogin, ID_CARD_LOGIN_METHODS } from './identity/card-login.js';
import { readCardRoutes } from './identity/read-card-routes.js';
import { APP_LOGIN_METHODS, appLoginSimulator } from './identity/app-login-simulator.js';
import { webEidLogin } from './identity/web-eid-login.js';
import { TrustedIssuers } from './pki/trusted-issuers.js';
import { smartIdSimulator } from './identity/smart-id-simulator.js';
import { mobileIdSimulator } from './identity/mobile-id-simulator.js';
import { eudiWalletSimulator } from './identity/eudi-wallet-simulator.js';
import { ProviderDecisions, redirectProviderSimulator } from './identity/redirect-provider-simulator.js';
import { REDIRECT_IDENTIFICATION_METHODS } from './identity/redirect-identification-methods.js';
import { redirectProviderRoutes } from './identity/redirect-provider-routes.js';
import { IFRAME_IDENTIFICATION_METHODS, iframeUrlRoutes } from './identity/iframe-url-routes.js';
import { DEFAULT_SANDBOX_TIMINGS, type SandboxTimings } from './identity/sandbox-timings.js';
import { integratorRoutes } from './integrator/integrator-routes.js';
import { IdentityForwarder } from './integrator/identity-forwarder.js';
import { grantRoutes } from './integrator/grant-routes.js';
import { SigningGrantVerifier } from './integrator/signing-grant-verifier.js';
import { GrantedDownloads } from './integrator/granted-downloads.js';
import { OneTimeUseLedger } from './oidc/one-time-use-ledger.js';
import { TimestampAuthority } from './tsa/timestamp-authority.js';
import { timestampRoutes } from './tsa/timestamp-routes.js';
import type { TsaSigner } from './tsa/tsa-signer.js';
import { createStationTokenSources } from './tokens/create-station-token-sources.js';
import { openConfiguredTsaSigner } from './tsa/open-configured-tsa-signer.js';
import { configuredPkcs11Modules } from './config/configured-pkcs11-modules.js';
import { pkcs11ModuleRoutes } from './tokens/pkcs11/pkcs11-module-routes.js';
import { writeLaunchPage } from './ui-state/write-launch-page.js';
import { installStationWindow, type StationWindow } from './ui-state/install-station-window.js';

const SWEEP_INTERVAL_MS = 15 * 60_000;

/** What the host (CLI, Electron main, tests) plugs in. Anything left out gets the headless default. */
export interface StationPorts {
  keyStore: KeyStore;
  /** Consent, PIN and certificate prompts; default: the station UI page (UiPromptBroker). */
  userPrompt?: UserPrompt;
  clock?: Clock;
  logger?: Logger;
  /** Replaces the built-in sources (PKCS#11 modules, the station's certificate store): tests pin one token. */
  tokenSources?: TokenSource[];
  /** Shorter waits for tests: simulated users' reaction times, OIDC artefact lifetimes. */
  tuning?: { sandboxTimings?: Partial<SandboxTimings>; oidcLifetimes?: Partial<OidcLifetimes> };
  /** The TSA key when it is held elsewhere (a PKCS#11 token through TokenTsaSigner); default: the station's own. */
  tsaSigner?: TsaSigner;
}

export interface Station {
  readonly config: StationConfig;
  readonly baseUrl: string;
  readonly data: StationData;
  /** Started on first use: `tokens.start()` (or `readyTokens()`) before reading `tokens.tokens()`. */
  readonly tokens: TokenRegistry;
  readonly tsa: TimestampAuthority;
  readonly prompts: UiPromptBroker;
  readonly userPrompt: UserPrompt;
  readonly clock: Clock;
  readonly http: FastifyInstance;
  readonly logger: Logger;
  readonly oidc: OidcService;
  /** The station window's pushed state, desk and launch links. */
  readonly window: StationWindow;
  /** A fresh one-time URL that opens the station UI (printed headless); the token is in the fragment. */
  uiUrl(): string;
  /** A fresh one-time URL in a page only this user can read (writeLaunchPage), for a browser opener: its path. */
  uiLaunchPage(): Promise<string>;
  /** A UI credential handed to the Electron window through its preload (no link to leak). */
  issueUiCredential(): string;
  close(): Promise<void>;
}

/** What the composition steps below share once the store, tokens and TSA are open. */
interface StationCore {
  config: StationConfig;
  ports: StationPorts;
  logger: Logger;
  clock: Clock;
  trustedIssuers: TrustedIssuers;
  data: StationData;
  tokens: TokenRegistry;
  builtInSources: ReturnType<typeof createStationTokenSources> | undefined;
  /** Logs what keeps PC/SC from working, each problem once. */
  logPcscProblems: () => void;
  tsa: TimestampAuthority;
  prompts: UiPromptBroker;
  userPrompt: UserPrompt;
  sessions: UiSessions;
  version: string;
  timings: SandboxTimings;
  /** The listening address: the port is known only after listen() when the config asks for 0. */
  address: { port(): number; hostPort(): string; baseUrl(): string; setPort(port: number): void };
}

/** The composition root: validates the config, opens the store and vault, starts token sources, serves HTTP. */
export async function createStation(input: StationConfigInput, ports: StationPorts): Promise<Station> {
  const core = await openStationCore(parseZod(stationConfigSchema, input, 'Invalid station configuration'), ports);
  const { identity, providerDecisions } = createIdentity(core);
  const oidc = createOidc(core);
  const http = createStationHttp(core);
  await registerPublicRoutes(http, core);
  const signing = await registerSigningRoutes(http, core);
  const stationWindow = await registerWindowRoutes(http, core, signing, identity);
  await registerIdentityRoutes(http, core, { oidc, identity, providerDecisions });
  await listenOrUndo(http, core, stationWindow);
  await stationWindow.listening(core.address.baseUrl());
  // Whether the PC/SC module loads (cheap: docs/performance.md#start-up), once the host has said the station listens:
  // an unusable one is in the log from the start, not from the first use of a token.
  setImmediate(core.logPcscProblems);
  return stationHandle(core, { http, oidc, stationWindow, pending: signing.pendingSignatures });
}

/** Config, log, clock, trust list, store and vault, tokens and the TSA: everything that must open before HTTP. */
async function openStationCore(config: StationConfig, ports: StationPorts): Promise<StationCore> {
  const logger = ports.logger ?? createLogger(config.logLevel);
  const clock = ports.clock ?? systemClock;
  // Read before anything opens: a bad trust list file stops the start with its own error, nothing to undo.
  const trustedIssuers = await TrustedIssuers.load(config.identity.trustedIssuers);
  const data = await openStationData(config, ports.keyStore, clock, 'station');
  const builtInSources = ports.tokenSources
    ? undefined
    : createStationTokenSources({
        database: data.database,
        vault: data.vault,
        modulePaths: configuredPkcs11Modules(config),
        allowedModuleDirs: config.pkcs11AllowedModuleDirs,
        pcsc: { enabled: config.pcsc.enabled, atrMappings: config.pcsc.atrMap },
        clock,
      });
  const logPcscProblems = pcscProblemLog(builtInSources, logger);
  const tokens = new TokenRegistry(ports.tokenSources ?? builtInSources?.all ?? [], logPcscProblems);
  const tsa = await openTsa({ config, ports, clock, data, tokens, builtInSources });
  const prompts = new UiPromptBroker(clock);
  let port = config.port;
  return {
    config,
    ports,
    logger,
    clock,
    trustedIssuers,
    data,
    tokens,
    builtInSources,
    logPcscProblems,
    tsa,
    prompts,
    userPrompt: ports.userPrompt ?? prompts,
    sessions: new UiSessions(),
    version: (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version,
    timings: { ...DEFAULT_SANDBOX_TIMINGS, ...ports.tuning?.sandboxTimings },
    address: {
      port: () => port,
      hostPort: () => `${config.host}:${port}`,
      baseUrl: () => `http://${config.host}:${port}`,
      setPort: (listening) => (port = listening),
    },
  };
}

/**
 * The TSA. When its key lives on a configured token, the tokens start first; otherwise they start on first use
 * (TokenRegistry). A failure closes what opened.
 */
async function openTsa(
  parts: Pick<StationCore, 'config' | 'ports' | 'clock' | 'data' | 'tokens' | 'builtInSources'>,
): Promise<TimestampAuthority> {
  const { config, ports, clock, data, tokens, builtInSources } = parts;
  let configuredSigner: TsaSigner | undefined;
  try {
    if (config.tsa && !ports.tsaSigner) {
      await tokens.start();
      configuredSigner = await openConfiguredTsaSigner({ config: config.tsa.token, source: builtInSources?.pkcs11 ?? tokens });
    }
    const signer = ports.tsaSigner ?? configuredSigner;
    return await TimestampAuthority.open({ database: data.database, vault: data.vault, clock, ...(signer ? { signer } : {}) });
  } catch (error) {
    await configuredSigner?.close?.().catch(() => undefined);
    await tokens.stop();
    await data.close();
    throw error;
  }
}

/**
 * PC/SC missing (module unloadable, service down) is worth one line in the log, once: the UI and CLI show it too.
 * Called once the station listens (whether the module loads) and when the token sources start (whether the
 * service answers).
 */
function pcscProblemLog(builtInSources: StationCore['builtInSources'], logger: Logger): () => void {
  const logged = new Set<string>();
  return () => {
    for (const problem of builtInSources?.pcsc?.problems() ?? []) {
      if (logged.has(problem.message)) continue;
      logged.add(problem.message);
      logger.warn({ code: problem.code }, `${problem.source}: ${problem.message}`);
    }
  };
}

/** Every identification method: the local card or token, ID cards, Web eID and the sandbox simulators. */
function createIdentity(core: StationCore): { identity: IdentityService; providerDecisions: ProviderDecisions } {
  const { config, data, tokens, userPrompt, clock, trustedIssuers, timings } = core;
  const providerDecisions = new ProviderDecisions();
  const cardLoginDeps = { tokens: () => tokens.readyTokens(), userPrompt, clock, mode: () => config.mode, trustedIssuers };
  const identity = new IdentityService({
    mode: () => config.mode,
    methods: [
      localTokenLogin(cardLoginDeps),
      ...ID_CARD_LOGIN_METHODS.map((code) => cardLogin(code, cardLoginDeps)),
      smartIdSimulator(timings),
      mobileIdSimulator(timings),
      eudiWalletSimulator(timings, STATION_NAME, clock),
      webEidLogin({ clients: data.clients, clock, mode: () => config.mode, trustedIssuers }),
      ...[...REDIRECT_IDENTIFICATION_METHODS, ...IFRAME_IDENTIFICATION_METHODS].map((code) => redirectProviderSimulator(code, providerDecisions)),
      ...APP_LOGIN_METHODS.map((code) => appLoginSimulator(code, timings)),
    ],
  });
  return { identity, providerDecisions };
}

function createOidc({ address, data, clock, logger, ports }: StationCore): OidcService {
  return new OidcService({
    issuer: address.baseUrl,
    database: data.database,
    vault: data.vault,
    clients: data.clients,
    clock,
    logger,
    ...(ports.tuning?.oidcLifetimes ? { lifetimes: ports.tuning.oidcLifetimes } : {}),
  });
}

/**
 * The Host values the station answers: its own address and `localhost` with its port. Every request asks, so the
 * set is made once per port (the port is known only after listening).
 */
function ownHosts(address: StationCore['address']): () => ReadonlySet<string> {
  let made: { port: number; hosts: ReadonlySet<string> } | undefined;
  return () => {
    const port = address.port();
    if (made?.port !== port) made = { port, hosts: new Set([address.hostPort(), `localhost:${port}`]) };
    return made.hosts;
  };
}

/** The HTTP server with its guards (Host, Origin, UI session), before any route. */
function createStationHttp({ logger, address, config, sessions, data }: StationCore): FastifyInstance {
  const isUiSession = (request: FastifyRequest): boolean => sessions.isValid(readBearerCredential(request.headers.authorization));
  return createHttpServer({
    logger,
    allowedHosts: ownHosts(address),
    isUiSession,
    clients: data.clients,
  });
}

/** The home page, OpenAPI (built from every registered route when first asked), the guides, health. */
async function registerPublicRoutes(http: FastifyInstance, { config, version }: StationCore): Promise<void> {
  const routes: RegisteredRoute[] = [];
  http.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  const docsDir = join(packageRoot(), 'docs');
  const docs = listDocs(docsDir);
  await http.register(homeRoutes({ name: STATION_NAME, version, mode: config.mode, docs }));
  await http.register(openApiRoutes({ version, routes: () => routes }));
  await http.register(docsRoutes(docsDir, docs));
  await http.register(healthRoutes({ version, mode: config.mode }), { prefix: '/api' });
}

interface SigningParts {
  pendingSignatures: PendingSignatures;
  batches: ConsentBatches;
  timestampClient: EmbeddedTimestampClient;
}

/** Signing sessions, the browser-facing signing methods (hash-based and sandbox), the TSA, the iframe helper. */
async function registerSigningRoutes(http: FastifyInstance, core: StationCore): Promise<SigningParts> {
  const { config, data, tsa, clock, userPrompt, trustedIssuers, timings, logger, address, tokens } = core;
  const pendingSignatures = new PendingSignatures();
  const tokenPresence = { tokens: () => tokens.readyTokens(), onTokensChange: (listener: () => void) => tokens.onChange(listener) };
  await http.register(signingSessionRoutes({ sessions: data.sessions, clients: data.clients }), { prefix: '/api/signatures' });
  const timestampClient = new EmbeddedTimestampClient(tsa);
  const batches = new ConsentBatches();
  const hashSigning = new HashSigningService({
    sessions: data.sessions,
    pending: pendingSignatures,
    clients: data.clients,
    userPrompt,
    audit: data.audit,
    clock,
    timestampClient,
    issuers: trustedIssuers.certificates,
    keySchemesOf: async (certificate) => keySchemesOf(await tokens.readyTokens(), certificate),
    stationOrigin: address.baseUrl,
    batches,
    whileHolderConnected: async (certificate, signal) => {
      const holder = await tokenHolding(await tokens.readyTokens(), certificate);
      return holder ? whileTokenConnected(holder.token, tokenPresence, signal) : { signal, stop: () => undefined };
    },
  });
  const sandbox = sandboxSigning({ service: hashSigning, clock, timings, mode: () => config.mode, logger, clients: data.clients, baseUrl: address.baseUrl });
  await http.register(signingMethodRoutes(new SigningMethodTable([hashSigningMethod(hashSigning), ...sandbox.methods]), data.sessions), { prefix: '/api/signatures' });
  await http.register(sandbox.routes, { prefix: '/sandbox' });
  await http.register(sandbox.entryRoutes);
  await http.register(timestampRoutes({ tsa, clients: data.clients }), { prefix: '/api' });
  const frameTickets = new FrameTickets();
  const iframeHelper = new IframeHelperService({
    tickets: frameTickets,
    ...tokenPresence,
    pending: pendingSignatures,
    userPrompt,
    unsigned: (clientId, docId, error, origin) => hashSigning.unsigned(clientId, docId, error, origin),
  });
  await http.register(iframeHelperRoutes({ clients: data.clients, sessions: data.sessions, tickets: frameTickets, service: iframeHelper }), { prefix: '/web-element' });
  return { pendingSignatures, timestampClient, batches };
}

/** The station UI: its page, the browser client files, UI sessions, the window's pushed state and desk, admin. */
async function registerWindowRoutes(http: FastifyInstance, core: StationCore, signing: SigningParts, identity: IdentityService): Promise<StationWindow> {
  const { config, data, tokens, builtInSources, prompts, userPrompt, sessions, version, address, ports, tsa } = core;
  await http.register(uiRoutes(), { prefix: '/ui' });
  await http.register(clientRoutes({ clients: data.clients }), { prefix: '/client' });
  await http.register(uiSessionRoutes(sessions), { prefix: '/admin/api' });
  const stationWindow = await installStationWindow({
    http,
    data,
    dataDir: config.dataDir,
    tokens,
    builtInSources,
    prompts,
    timestampClient: signing.timestampClient,
    batches: signing.batches,
    identity,
    uiUrl: () => uiUrlOf(core),
    station: () => ({ name: STATION_NAME, version, mode: config.mode, baseUrl: address.baseUrl(), dataDir: config.dataDir, keyStore: ports.keyStore.description }),
  });
  await http.register(
    adminRoutes({
      clients: data.clients,
      audit: data.audit,
      feed: stationWindow.feed,
      prompts,
      verify: (request) => verifyOnFirstUse(request, config, tsa.certificates),
    }),
    { prefix: '/admin/api' },
  );
  await http.register(trustRoutes({ dataDir: config.dataDir, tsaCertificates: () => tsa.certificates }), { prefix: '/admin/api' });
  if (builtInSources) {
    await http.register(pkcs11ModuleRoutes({ registry: builtInSources.modules, source: builtInSources.pkcs11, ready: () => tokens.start() }), { prefix: '/admin/api' });
  }
  return stationWindow;
}

/** OpenID Connect, the identity API, the browser clients' readCard, simulated providers, the integrator side. */
async function registerIdentityRoutes(
  http: FastifyInstance,
  { config, data, address, clock }: StationCore,
  { oidc, identity, providerDecisions }: { oidc: OidcService; identity: IdentityService; providerDecisions: ProviderDecisions },
): Promise<void> {
  await http.register(oidcRoutes({ oidc, identity, mode: () => config.mode }));
  await http.register(identityRoutes({ identity, clients: data.clients }), { prefix: '/api' });
  await http.register(readCardRoutes({ identity }), { prefix: '/api' });
  await http.register(iframeUrlRoutes({ identity, baseUrl: address.baseUrl }), { prefix: '/api' });
  await http.register(redirectProviderRoutes({ identity, decisions: providerDecisions, clients: data.clients }), { prefix: '/oauth' });
  const forwarder = new IdentityForwarder({ remoteBaseUrl: config.remoteServiceUrl, embedded: address.baseUrl });
  await http.register(integratorRoutes({ clients: data.clients, forwarder }), { prefix: '/integrator' });
  const hosts = ownHosts(address);
  const grants = new SigningGrantVerifier({
    clients: data.clients,
    audiences: () => [...hosts()].map((host) => `http://${host}/integrator`),
    ledger: new OneTimeUseLedger(data.database, () => Math.floor(clock.now().getTime() / 1000)),
    clock,
  });
  await http.register(grantRoutes({ sessions: data.sessions, grants, downloads: new GrantedDownloads() }), { prefix: '/integrator' });
}

/** Listens on the configured address; on failure closes everything opened so far and says why in words. */
async function listenOrUndo(http: FastifyInstance, { config, tokens, tsa, data, address }: StationCore, stationWindow: StationWindow): Promise<void> {
  try {
    await http.listen({ host: config.host, port: config.port });
  } catch (error) {
    await Promise.allSettled([stationWindow.close(), tokens.stop(), http.close(), tsa.close()]);
    await data.close();
    throw listenError(error, config);
  }
  const listening = http.server.address();
  if (listening && typeof listening === 'object') address.setPort(listening.port);
}

function uiUrlOf({ address, sessions }: StationCore): string {
  return `${address.baseUrl()}/ui/#launch=${sessions.issueLaunchToken()}`;
}

/** The running station as its host sees it; sweeps expired signing sessions until it closes. */
function stationHandle(
  core: StationCore,
  { http, oidc, stationWindow, pending }: { http: FastifyInstance; oidc: OidcService; stationWindow: StationWindow; pending: PendingSignatures },
): Station {
  const { config, data, tokens, tsa, prompts, userPrompt, clock, logger, sessions, address } = core;
  const sweep = (): void => {
    data.sessions.sweep().catch((error: unknown) => logger.error({ err: error }, 'sweeping expired signing sessions failed'));
  };
  sweep();
  const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS).unref();
  let closing: Promise<void> | undefined;
  return {
    config,
    baseUrl: address.baseUrl(),
    data,
    tokens,
    tsa,
    prompts,
    userPrompt,
    clock,
    http,
    logger,
    oidc,
    window: stationWindow,
    uiUrl: () => uiUrlOf(core),
    uiLaunchPage: () => writeLaunchPage(config.dataDir, uiUrlOf(core)),
    issueUiCredential: () => sessions.issueCredential(),
    close: () =>
      (closing ??= (async () => {
        clearInterval(sweeper);
        await stationWindow.close();
        await http.close();
        await pending.clear();
        await tokens.stop();
        await tsa.close();
        await data.close();
      })()),
  };
}

function listenError(error: unknown, config: StationConfig): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new StationError(
      'ERR_SERVER_PORT_IN_USE',
      `Port ${config.port} on ${config.host} is already in use (another station running?). Stop it, or choose another with --port (0 picks a free one).`,
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new StationError('ERR_SERVER_PORT_FORBIDDEN', `Not allowed to listen on port ${config.port}; choose one above 1024 with --port.`, { cause: error });
  }
  return error;
}

/** The verify screen's verification (the same as `signing-station verify`), loaded when first used: it brings pkijs and xmldsigjs. */
async function verifyOnFirstUse(request: VerifyRequest, config: StationConfig, tsaCertificates: readonly Uint8Array[]): Promise<DocumentVerification> {
  const [{ verifyUpload }, { loadTrustSource }] = await Promise.all([import('./verification/verify-upload.js'), import('./verification/load-trust-source.js')]);
  return verifyUpload(request, { dataDir: config.dataDir, trust: () => loadTrustSource(config, tsaCertificates), offline: config.verifyOffline });
}
