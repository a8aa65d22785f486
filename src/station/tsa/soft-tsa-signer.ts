import { sign, type KeyObject } from 'node:crypto';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import type { TsaSigner } from './tsa-signer.js';

/**
 * A TsaSigner over a private KeyObject parsed once (parsing the key per signature would cost twice the
 * signature). Signing uses node:crypto's callback form, which runs on the libuv thread pool, so the event loop
 * keeps accepting and parsing requests while RSA works on another core.
 *
 * The hand-off was measured against signing synchronously on the event loop (issue 20, `npm run bench tsa`,
 * alternating runs, 2 cores): the CPU per timestamp was the same within the noise (255–278 µs with the thread
 * pool, 267–276 µs synchronous; the RSA signature alone 216 µs; perf puts the hand-off at ~5 µs of event-loop
 * time), but synchronous signing caps the station at one core: 2410–3292 timestamps/s against 3466–4895/s. The
 * thread pool stays: it costs next to nothing per signature and scales with the machine's cores.
 */
export class SoftTsaSigner implements TsaSigner {
  readonly certificates: readonly Uint8Array[];
  readonly keyType: 'RSA' | 'EC';
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
    this.keyType = key.asymmetricKeyType === 'rsa' ? 'RSA' : 'EC';
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
