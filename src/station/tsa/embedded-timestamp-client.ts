import type { TimestampExchangeOptions } from './timestamp-exchange.js';
import type { TimestampAuthority } from './timestamp-authority.js';
import type { TimestampClient } from './timestamp-client.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';

/**
 * The station's own TSA, in process: same request, same checks as over HTTP, without a socket or an IP
 * allow list (the station is the caller). For signing done by the station itself.
 */
export class EmbeddedTimestampClient implements TimestampClient {
  readonly #tsa: Pick<TimestampAuthority, 'respond'>;
  readonly #options: TimestampExchangeOptions;

  constructor(tsa: Pick<TimestampAuthority, 'respond'>, options: TimestampExchangeOptions = {}) {
    this.#tsa = tsa;
    this.#options = options;
  }

  async timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array> {
    // The exchange encodes and reads with the ASN.1 libraries: loaded with the first timestamp, not with the station.
    const { exchangeTimestamp } = await import('./timestamp-exchange.js');
    return (await exchangeTimestamp((request) => this.#tsa.respond(request), hash, hashAlgorithm, this.#options)).token;
  }
}
