import { randomBytes } from 'node:crypto';
import { StationError } from '../../core/errors/station-error.js';
import type { HashSigningCompleted } from './hash-signing-service.js';

export interface SimulatedSigning {
  /** The verification code the simulated app shows; the page shows it too. */
  challenge: string;
  outcome: Promise<HashSigningCompleted>;
  cancel(): void;
}

interface Entry {
  clientId: string;
  docId: string;
  signing: SimulatedSigning;
  /** False until a page has been given the challenge (start with wait_for_challenge_code false gives none). */
  challengeShown: boolean;
  settled: { ok: true; completed: HashSigningCompleted } | { ok: false; error: unknown } | undefined;
  done: Promise<void>;
  expiry: NodeJS.Timeout;
}

const notFound = (): StationError =>
  new StationError('ERR_SIGNING_SESSION_NOT_FOUND', 'No signing with this token for this document (unknown, expired or already completed).', { status: 404 });

/**
 * Simulated remote signings between start-signing and the polled complete: unguessable single-use tokens bound to
 * the client and the document, answered RUNNING (with the challenge) until the simulated user has acted.
 */
export class SimulatedSignings {
  readonly #entries = new Map<string, Entry>();
  readonly #lifetimeMs: number;
  readonly #maxWaitMs: number;

  constructor(options: { lifetimeMs?: number; maxWaitMs?: number } = {}) {
    this.#lifetimeMs = options.lifetimeMs ?? 180_000;
    this.#maxWaitMs = options.maxWaitMs ?? 10_000;
  }

  open(clientId: string, docId: string, signing: SimulatedSigning, challengeShown: boolean): string {
    const token = randomBytes(32).toString('base64url');
    const entry: Entry = {
      clientId,
      docId,
      signing,
      challengeShown,
      settled: undefined,
      done: signing.outcome.then(
        (completed) => void (entry.settled = { ok: true, completed }),
        (error: unknown) => void (entry.settled = { ok: false, error }),
      ),
      expiry: setTimeout(() => this.#close(token, entry, true), this.#lifetimeMs),
    };
    entry.expiry.unref();
    this.#entries.set(token, entry);
    return token;
  }

  /** The challenge of an open signing of this client's document; throws for any other token. */
  challenge(token: string, clientId: string, docId: string): string {
    const entry = this.#entries.get(token);
    if (!entry || entry.clientId !== clientId || entry.docId !== docId) throw notFound();
    return entry.signing.challenge;
  }

  /**
   * Waits up to `waitSeconds` (capped) for the user; then RUNNING with the challenge, or the final answer once. A
   * page that has not seen the challenge gets it at once, as the user needs it before acting.
   */
  async complete(token: string, clientId: string, docId: string, waitSeconds: number): Promise<HashSigningCompleted | { running: true; challenge: string }> {
    this.challenge(token, clientId, docId);
    const entry = this.#entries.get(token)!;
    if (!entry.challengeShown) {
      entry.challengeShown = true;
      return { running: true, challenge: entry.signing.challenge };
    }
    const waitMs = Math.min(waitSeconds * 1000, this.#maxWaitMs);
    if (!entry.settled && waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([entry.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    const settled = entry.settled;
    if (!settled) return { running: true, challenge: entry.signing.challenge };
    if (this.#entries.get(token) !== entry) throw notFound();
    this.#close(token, entry, false);
    if (settled.ok) return settled.completed;
    throw settled.error;
  }

  #close(token: string, entry: Entry, cancel: boolean): void {
    clearTimeout(entry.expiry);
    this.#entries.delete(token);
    if (cancel) entry.signing.cancel();
  }
}
