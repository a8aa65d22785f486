import { sign, type KeyObject } from 'node:crypto';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import type { TsaSigner } from './tsa-signer.js';
import type { SignatureScheme } from '../tokens/token.js';

/**
 * A TsaSigner over a private KeyObject parsed once (parsing the key per signature would cost twice the
 * signature). Signing uses node:crypto's callback form, which runs on the libuv thread pool, so the event loop
 * keeps accepting and parsing requests while RSA works on another core.
 *
 * The hand-off was measured against signing synchronously on the event loop and against worker threads signing
 * batches (`npm run bench tsa`; figures in docs/performance.md#designs-measured-and-not-kept): synchronous signing
 * costs more CPU per timestamp and caps the station at one core, and the workers did no better. The thread pool
 * stays.
 */
export class SoftTsaSigner implements TsaSigner {
  readonly certificates: readonly Uint8Array[];
  readonly signatureScheme: SignatureScheme;
  readonly digestAlgorithm: HashAlgorithm;
  readonly #key: KeyObject;
  readonly #nodeHash: string;

  constructor(key: KeyObject, certificates: readonly Uint8Array[], digestAlgorithm: HashAlgorithm = 'SHA-256') {
    if (key.type !== 'private') throw new TypeError('SoftTsaSigner needs a private key');
    if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec') {
      throw new TypeError(`SoftTsaSigner supports RSA and EC keys, not ${key.asymmetricKeyType}`);
    }
    if (certificates.length === 0) throw new TypeError('SoftTsaSigner needs at least the TSA certificate');
    this.#key = key;
    this.signatureScheme = key.asymmetricKeyType === 'rsa' ? 'RSASSA-PKCS1-v1_5' : 'ECDSA';
    this.certificates = certificates;
    this.digestAlgorithm = digestAlgorithm;
    this.#nodeHash = HASH_ALGORITHMS[digestAlgorithm].nodeName;
  }

  sign(data: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve, reject) =>
      sign(this.#nodeHash, data, { key: this.#key, dsaEncoding: 'der' }, (error, signature) => (error ? reject(error) : resolve(signature))),
    );
  }
}
