import { randomBytes } from 'node:crypto';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { isStationError } from '../../core/errors/station-error.js';
import { IdentityError } from './identity-error.js';
import type { IdentityAttempt } from './identity-method.js';

type Settled = { ok: true; person: IdentifiedPerson } | { ok: false; error: IdentityError };

interface Session {
  clientId: string;
  method: string;
  attempt: IdentityAttempt;
  settled: Settled | undefined;
  done: Promise<void>;
  expiry: NodeJS.Timeout;
}

/**
 * Identification sessions between start and complete. A token is unguessable (256 bits), bound to the client
 * that started it and to the method, and single-use: the final answer (OK or error) is given once, then the
 * session is gone. Sessions are kept in memory only: a person's identity is never written to disk here.
 */
export class IdentitySessions {
  readonly #sessions = new Map<string, Session>();
  readonly #lifetimeMs: number;

  constructor(lifetimeMs: number) {
    this.#lifetimeMs = lifetimeMs;
  }

  open(clientId: string, method: string, attempt: IdentityAttempt): string {
    const token = randomBytes(32).toString('base64url');
    const session: Session = {
      clientId,
      method,
      attempt,
      settled: undefined,
      done: attempt.outcome.then(
        (person) => void (session.settled = { ok: true, person }),
        (error: unknown) => void (session.settled = { ok: false, error: asIdentityError(error) }),
      ),
      expiry: setTimeout(() => this.cancel(token), this.#lifetimeMs),
    };
    session.expiry.unref();
    this.#sessions.set(token, session);
    return token;
  }

  /**
   * Waits up to `waitMs` for the user; answers RUNNING while they have not acted. An unknown token, one of another
   * client or another method, and an expired one are all the same error: nothing is told about other sessions.
   */
  async complete(token: string, clientId: string, method: string, waitMs: number, evidence?: Readonly<Record<string, unknown>>): Promise<IdentifiedPerson | 'RUNNING'> {
    const session = this.#sessions.get(token);
    if (!session || session.clientId !== clientId || session.method !== method) {
      throw new IdentityError('ERR_IDENTITY_SESSION_NOT_FOUND', 'No identification session with this token (unknown, expired or already completed).', { status: 404 });
    }
    if (evidence && session.attempt.present) {
      await session.attempt.present(evidence);
      await session.done;
    }
    if (!session.settled && waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([session.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    const settled = session.settled;
    if (!settled) return 'RUNNING';
    // Another poll may have taken the answer while this one waited.
    if (this.#sessions.get(token) !== session) {
      throw new IdentityError('ERR_IDENTITY_SESSION_NOT_FOUND', 'No identification session with this token (unknown, expired or already completed).', { status: 404 });
    }
    this.#close(token, session);
    if (settled.ok) return settled.person;
    throw settled.error;
  }

  /** Stops a session the user abandoned (cancelled, or started another one): no prompt stays open for it. */
  cancel(token: string): void {
    const session = this.#sessions.get(token);
    if (!session) return;
    session.attempt.cancel();
    this.#close(token, session);
  }


  #close(token: string, session: Session): void {
    clearTimeout(session.expiry);
    this.#sessions.delete(token);
  }
}

function asIdentityError(error: unknown): IdentityError {
  if (error instanceof IdentityError) return error;
  if (isStationError(error)) {
    return new IdentityError(error.code, error.message, { status: error.status, retriable: error.retriable, cause: error });
  }
  return new IdentityError('ERR_IDENTITY_FAILED', 'Identification failed.', { status: 500, cause: error });
}
