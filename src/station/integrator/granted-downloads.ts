import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { StationError } from '../../core/errors/station-error.js';

interface Entry {
  clientId: string;
  origin: string;
  tokenHash: Buffer;
}

/** Enough for every document a busy day prepares through grants; the oldest capability goes first beyond it. */
const MAX_ENTRIES = 10_000;

const hashOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * The download capabilities of documents prepared with a signing grant: the page that prepared a document gets a
 * random token with the doc_id, and only that origin with that token downloads the signed result. Kept in memory
 * (hashed): after a restart the page prepares again with a new grant.
 */
export class GrantedDownloads {
  readonly #entries = new Map<string, Entry>();

  issue(clientId: string, docId: string, origin: string): string {
    const token = randomBytes(32).toString('base64url');
    this.#entries.set(docId, { clientId, origin, tokenHash: hashOf(token) });
    if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    return token;
  }

  /** Throws unless `token` is the one issued for this document to this client's page at `origin`. */
  check(clientId: string, docId: string, token: string, origin: string): void {
    const entry = this.#entries.get(docId);
    if (!entry || entry.clientId !== clientId || entry.origin !== origin || !timingSafeEqual(entry.tokenHash, hashOf(token))) {
      throw new StationError('ERR_INTEGRATOR_DOWNLOAD_DENIED', 'This page may not download that document: download it with the token its prepare answered, from the same page.', {
        status: 403,
      });
    }
  }
}
