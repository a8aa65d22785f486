import type { PinStatus, SignatureScheme, TokenCertificate, TokenDescription } from '../../core/schemas/token-description.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';

export type { HashAlgorithm } from '../pki/hash-algorithms.js';
export type { SignatureScheme } from '../../core/schemas/token-description.js';

/** Supplies the PIN when the token needs it; null means the user cancelled. The token zeroes the buffer after use. */
/** `countLow`: the token says wrong PINs have brought the tries left down (it may not say how many). */
export type PinSource = (request: { retriesLeft?: number; finalTry: boolean; countLow?: boolean; previousAttemptFailed: boolean; pinLabel: string }) => Promise<Uint8Array | null>;

export interface SignRequest {
  certificateId: string;
  /** The hash to sign, already computed; its length must match `hashAlgorithm`. */
  hash: Uint8Array;
  hashAlgorithm: HashAlgorithm;
  scheme: SignatureScheme;
  pin: PinSource;
  /** Document signing (non-repudiation key) or authentication (challenge signing with the auth key). */
  purpose: 'sign' | 'authenticate';
  signal?: AbortSignal;
}

/**
 * One interface for every key holder: PKCS#11 tokens, direct-APDU ID cards, certificate stores.
 * Errors: `TokenError` subclasses from ./token-errors.ts, split by whether a retry helps.
 */
export interface Token {
  readonly id: string;
  readonly kind: TokenDescription['kind'];
  readonly label: string;
  describe(): Promise<TokenDescription>;
  listCertificates(): Promise<TokenCertificate[]>;
  pinStatus(): Promise<PinStatus>;
  /** Returns the signature: PKCS#1 / PSS bytes for RSA, r||s for ECDSA. */
  sign(request: SignRequest): Promise<Uint8Array>;
  /** Logs out and closes sessions / card connections. Idempotent. */
  release(): Promise<void>;
}

/** A family of tokens that come and go (PKCS#11 modules, PC/SC readers). */
export interface TokenSource {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  tokens(): Token[];
  /** Called after any token or reader appeared or disappeared. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** How long its tokens stay logged in after a signature (0: logged out at once); sources that keep no login lack it. */
  keepLoginFor?(ms: number): void;
}
