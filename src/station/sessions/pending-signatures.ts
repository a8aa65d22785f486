import type { SignatureScheme } from '../tokens/token.js';
import { randomBytes } from 'node:crypto';
import type { SigningState } from '../signing/signature-engine.js';
import { loadSignatureEngine } from './load-signature-engine.js';

export interface PendingSignature {
  token: string;
  clientId: string;
  docId: string;
  method: string;
  certificate: Uint8Array;
  /** The hex digest handed out to be signed, and its algorithm: the iframe helper signs nothing else. */
  dataToSignDigest: string;
  digestAlgorithm: 'SHA-256' | 'SHA-384' | 'SHA-512';
  /** How the key must sign it: RSA-PSS where the certificate or the key's token mandates it. */
  signatureScheme: SignatureScheme;
  /** Where finish writes: the session's next signed version. */
  outputPath: string;
  outputName: string;
  state: SigningState;
  /** The audit log's "started" entry of this attempt, which its outcome's entry completes. */
  auditEntry: number;
  expiresAt: number;
}

const PENDING_LIFETIME_MS = 10 * 60_000;

/**
 * Signatures between start-signing and complete. Kept in memory on purpose: a half-made signature was never
 * acknowledged, and its state names files on disk that the engine's abort removes when it lapses.
 */
export class PendingSignatures {
  readonly #pending = new Map<string, PendingSignature>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Registers a prepared signature; an earlier pending one for the same document is dropped. */
  async add(entry: Omit<PendingSignature, 'token' | 'expiresAt'>): Promise<PendingSignature> {
    await this.#dropWhere((p) => (p.clientId === entry.clientId && p.docId === entry.docId) || p.expiresAt < this.#now());
    const pending: PendingSignature = { ...entry, token: randomBytes(24).toString('base64url'), expiresAt: this.#now() + PENDING_LIFETIME_MS };
    this.#pending.set(pending.token, pending);
    return pending;
  }

  /** Takes the pending signature out (single use), if the token names one of this client's documents. */
  take(token: string, clientId: string, docId: string): PendingSignature | undefined {
    const pending = this.#pending.get(token);
    if (!pending || pending.clientId !== clientId || pending.docId !== docId || pending.expiresAt < this.#now()) return undefined;
    this.#pending.delete(token);
    return pending;
  }

  /** The document's pending signature, left in place: the iframe helper checks a digest against it. */
  findByDocument(clientId: string, docId: string): PendingSignature | undefined {
    return [...this.#pending.values()].find((p) => p.clientId === clientId && p.docId === docId && p.expiresAt >= this.#now());
  }

  /** Takes the document's pending signature out (single use): a complete without token, as iframe methods send it. */
  takeByDocument(clientId: string, docId: string): PendingSignature | undefined {
    const pending = this.findByDocument(clientId, docId);
    if (pending) this.#pending.delete(pending.token);
    return pending;
  }

  async clear(): Promise<void> {
    await this.#dropWhere(() => true);
  }

  async #dropWhere(predicate: (pending: PendingSignature) => boolean): Promise<void> {
    const dropped = [...this.#pending.values()].filter(predicate);
    for (const pending of dropped) this.#pending.delete(pending.token);
    if (dropped.length === 0) return;
    const engine = await loadSignatureEngine();
    await Promise.allSettled(dropped.map((pending) => engine.abort(pending.state)));
  }
}
