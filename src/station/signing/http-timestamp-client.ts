import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { HashAlgorithm } from '../tokens/token.js';
import { digestAlgorithms } from './digest-algorithms.js';
import { TimestampFailedError } from './signing-errors.js';
import type { TimestampClient } from './timestamp-client.js';

/** RFC 3161 over HTTP (RFC 3161 section 3.4): a TimeStampReq with a nonce and certReq, checked on the way back. */
export class HttpTimestampClient implements TimestampClient {
  constructor(
    readonly url: string,
    private readonly timeoutMs = 30_000,
  ) {
    if (!/^https?:\/\//.test(url)) throw new TypeError(`timestamp authority URL must be http(s): ${url}`);
  }

  async timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array> {
    const nonce = randomBytes(8);
    nonce[0]! &= 0x7f;
    const request = new pkijs.TimeStampReq({
      version: 1,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: digestAlgorithms[hashAlgorithm].oid }),
        hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(hash) }),
      }),
      nonce: new asn1js.Integer({ valueHex: new Uint8Array(nonce) }),
      certReq: true,
    });
    let body: ArrayBuffer;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/timestamp-query' },
        body: new Uint8Array(request.toSchema().toBER()),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.arrayBuffer();
    } catch (cause) {
      throw new TimestampFailedError(`The timestamp authority at ${this.url} did not answer: ${(cause as Error).message}`, { cause });
    }
    let parsed: pkijs.TimeStampResp;
    try {
      parsed = pkijs.TimeStampResp.fromBER(body);
    } catch (cause) {
      throw new TimestampFailedError('The timestamp authority answered with something that is not a TimeStampResp.', { cause });
    }
    const status = parsed.status.status;
    if ((status !== 0 && status !== 1) || !parsed.timeStampToken) {
      const text = parsed.status.statusStrings?.map((s) => s.valueBlock.value).join('; ');
      throw new TimestampFailedError(`The timestamp authority refused (status ${status}${text ? `: ${text}` : ''}).`, { retriable: false });
    }
    const token = parsed.timeStampToken;
    const signedData = new pkijs.SignedData({ schema: token.content });
    const tstInfo = pkijs.TSTInfo.fromBER(signedData.encapContentInfo.eContent!.getValue());
    if (!tstInfo.nonce || !Buffer.from(tstInfo.nonce.valueBlock.valueHexView).equals(nonce)) {
      throw new TimestampFailedError('The timestamp token does not carry the nonce of the request (replayed or foreign answer).');
    }
    return new Uint8Array(token.toSchema().toBER());
  }
}
