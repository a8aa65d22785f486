import { sign, type KeyObject } from 'node:crypto';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import type { TsaSigner } from './tsa-signer.js';
import type { SignatureScheme } from '../tokens/token.js';

/**
 * A TsaSigner over a private KeyObject parsed once (parsing the key per signature would cost twice the
 * signature). Signing uses node:crypto's callback form, which runs on the libuv thread pool, so the event loop
 * keeps accepting and parsing requests while RSA works on another core.
 *
 * The hand-off was measured against signing synchronously on the event loop (issue 20, `npm run bench tsa`,
 * alternating runs, 2 cores): synchronous signing costs more CPU per timestamp (stop 32: about 360 µs against
 * about 325 µs with the pool, i.e. 68.7 and 70.1 % of raw sign per CPU-second against 78.4 and 76.9 %; the loop
 * spends ~100 µs beside each signature) and caps the station at one core: 2434–2780 timestamps/s against
 * 4065–5124/s (stop 30). Two worker threads signing batches sent by postMessage did no better (75.9 and 74.8 %
 * against 78.5 and 78.7 %, at 1.3 cores). The thread pool stays.
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
