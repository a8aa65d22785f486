import type { IdentifiedPerson, IdentityStartResponse } from '../../core/schemas/identity-api.js';
import type { StationMode } from '../../core/schemas/station-mode.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import { IdentityError } from './identity-error.js';
import type { IdentityBeginRequest, IdentityContext, IdentityMethod } from './identity-method.js';
import { IdentitySessions } from './identity-sessions.js';

export interface IdentityServiceOptions {
  mode: () => StationMode;
  methods: IdentityMethod[];
  /**
   * How long a started identification may wait for the user before it is dropped, with its prompts. Default: the
   * 120 s after which both browser clients stop polling, so no login prompt outlives the page's wait.
   */
  sessionLifetimeMs?: number;
  /** Upper bound for one long-poll of complete, whatever timeout the caller asks. */
  maxWaitMs?: number;
}

/**
 * Identification for both the identity API (integrators' servers) and the OIDC login page: one set of methods,
 * one session store, one rule for sandbox methods (refused in production mode).
 */
export class IdentityService {
  readonly #options: IdentityServiceOptions;
  readonly #methods: Map<string, IdentityMethod>;
  readonly #sessions: IdentitySessions;

  constructor(options: IdentityServiceOptions) {
    this.#options = options;
    this.#methods = new Map(options.methods.map((method) => [method.code, method]));
    this.#sessions = new IdentitySessions(this.sessionLifetimeMs);
  }

  /** How long a started identification waits for its person before it lapses. */
  get sessionLifetimeMs(): number {
    return this.#options.sessionLifetimeMs ?? 120_000;
  }

  /** The methods the station's own login page offers in the current mode. */
  available(): IdentityMethod[] {
    return [...this.#methods.values()].filter((method) => method.onLoginPage !== false && (method.kind === 'local' || this.#options.mode() === 'sandbox'));
  }

  async start(methodCode: string, request: IdentityBeginRequest, context: IdentityContext): Promise<IdentityStartResponse> {
    const method = this.#method(methodCode);
    const attempt = await method.begin(request, context);
    return { ...attempt.response, token: this.#sessions.open(context.clientId, method.code, attempt) };
  }

  /**
   * `evidence`: what the caller brings to complete (Web eID's authentication token), for methods that need it.
   * `waitSeconds` undefined: the method's own wait (completeWaitMs).
   */
  async complete(methodCode: string, token: string, clientId: string, waitSeconds: number | undefined, evidence?: Readonly<Record<string, unknown>>): Promise<IdentifiedPerson | 'RUNNING'> {
    const method = this.#method(methodCode);
    const waitMs = waitSeconds === undefined ? (method.completeWaitMs ?? 0) : Math.min(Math.max(0, waitSeconds) * 1000, this.#options.maxWaitMs ?? 10_000);
    return this.#sessions.complete(token, clientId, method.code, waitMs, evidence);
  }

  /** Throws what start would for this method (unknown, or a simulator in production) without starting anything. */
  assertUsable(code: string): void {
    this.#method(code);
  }

  /** Drops a started identification nobody will complete (the login page's user went back or cancelled). */
  cancel(token: string): void {
    this.#sessions.cancel(token);
  }

  #method(code: string): IdentityMethod {
    const method = this.#methods.get(code);
    if (!method) throw new NotFoundError('ERR_IDENTITY_METHOD_UNKNOWN', `This station has no identification method "${code}".`);
    if (method.kind === 'sandbox' && this.#options.mode() !== 'sandbox') {
      throw new IdentityError(
        'ERR_IDENTITY_SANDBOX_ONLY',
        `"${code}" is a sandbox simulator and is refused in production mode; forward it to a real service with remoteServiceUrl.`,
        { status: 403 },
      );
    }
    return method;
  }
}
