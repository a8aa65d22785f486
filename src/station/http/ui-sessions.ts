import { randomBytes, timingSafeEqual } from 'node:crypto';

const LAUNCH_TOKEN_TTL_MS = 24 * 3_600_000;
const SESSION_TTL_MS = 12 * 3_600_000;

/**
 * Access to the station's own UI, as a notebook server does it: the station prints (or Electron opens) a URL
 * with a one-time launch token; redeeming it sets an HttpOnly session cookie. Kept in memory on purpose: a
 * restart ends every session.
 */
export class UiSessions {
  readonly #launchTokens = new Map<string, number>();
  readonly #sessions = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  issueLaunchToken(): string {
    const token = randomBytes(32).toString('base64url');
    this.#launchTokens.set(token, this.#now() + LAUNCH_TOKEN_TTL_MS);
    return token;
  }

  /** Consumes a launch token; returns a new session id, or undefined when the token is unknown, used or expired. */
  redeem(token: string): string | undefined {
    let match: string | undefined;
    for (const [candidate, expires] of this.#launchTokens) {
      if (expires < this.#now()) this.#launchTokens.delete(candidate);
      else if (safeEqual(candidate, token)) match = candidate;
    }
    if (!match) return undefined;
    this.#launchTokens.delete(match);
    const session = randomBytes(32).toString('base64url');
    this.#sessions.set(session, this.#now() + SESSION_TTL_MS);
    return session;
  }

  isValid(session: string | undefined): boolean {
    if (!session) return false;
    for (const [candidate, expires] of this.#sessions) {
      if (expires < this.#now()) this.#sessions.delete(candidate);
      else if (safeEqual(candidate, session)) return true;
    }
    return false;
  }
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
