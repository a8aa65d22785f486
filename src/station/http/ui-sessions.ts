import { randomBytes, timingSafeEqual } from 'node:crypto';

const LAUNCH_TOKEN_TTL_MS = 24 * 3_600_000;
/** How long a UI credential lives; the page asks for a new link after that. */
export const UI_CREDENTIAL_TTL_MS = 12 * 3_600_000;

/**
 * Access to the station's own UI. The station prints (headless) a link whose fragment carries a one-time launch
 * token; the page exchanges it for a credential it keeps in sessionStorage and sends as `Authorization: Bearer`.
 * The Electron window gets a credential straight from its preload. Never a cookie: browsers send cookies to
 * every port of a host, so any other local web server the user visits would receive it. Kept in memory on
 * purpose: a restart ends every session.
 */
export class UiSessions {
  readonly #launchTokens = new Map<string, number>();
  readonly #credentials = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  issueLaunchToken(): string {
    const token = randomBytes(32).toString('base64url');
    this.#launchTokens.set(token, this.#now() + LAUNCH_TOKEN_TTL_MS);
    return token;
  }

  /** Consumes a launch token; returns a new credential, or undefined when the token is unknown, used or expired. */
  redeem(token: string): string | undefined {
    const match = this.#find(this.#launchTokens, token);
    if (!match) return undefined;
    this.#launchTokens.delete(match);
    return this.issueCredential();
  }

  /** A credential without a launch link: for the Electron window, whose preload is the trusted channel. */
  issueCredential(): string {
    const credential = randomBytes(32).toString('base64url');
    this.#credentials.set(credential, this.#now() + UI_CREDENTIAL_TTL_MS);
    return credential;
  }

  isValid(credential: string | undefined): boolean {
    return credential !== undefined && this.#find(this.#credentials, credential) !== undefined;
  }

  /** Compares against every live entry in constant time per entry, dropping expired ones on the way. */
  #find(entries: Map<string, number>, candidate: string): string | undefined {
    let match: string | undefined;
    for (const [value, expires] of entries) {
      if (expires < this.#now()) entries.delete(value);
      else if (safeEqual(value, candidate)) match = value;
    }
    return match;
  }
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
