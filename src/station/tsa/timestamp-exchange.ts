import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { MessageImprint, TimeStampReq, type TSTInfo } from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import { readTimestampReply } from './timestamp-reply-reader.js';
import { TimestampClientError } from './timestamp-client-error.js';

export interface TimestampExchangeOptions {
  /** Ask the TSA to include its certificate in the token (default true: verifiers then need only the root). */
  certReq?: boolean;
  /** Ask for a specific TSA policy; the token must then carry it. */
  policyOid?: string;
}

export interface TimestampExchange {
  /** The whole DER TimeStampResp (what `openssl ts -verify -in` reads, the .tsr file). */
  response: Uint8Array;
  /** The DER TimeStampToken inside it. */
  token: Uint8Array;
  tstInfo: TSTInfo;
}

/**
 * One RFC 3161 round trip over any transport: builds a TimeStampReq with a fresh 64-bit nonce, sends it, and
 * accepts the answer only if it grants a token whose imprint and nonce (and policy, when asked) are the ones
 * sent. A replayed or substituted token fails here, before anything embeds it.
 */
export async function exchangeTimestamp(
  send: (request: Uint8Array) => Promise<Uint8Array>,
  hash: Uint8Array,
  hashAlgorithm: HashAlgorithm,
  options: TimestampExchangeOptions = {},
): Promise<TimestampExchange> {
  const algorithm = HASH_ALGORITHMS[hashAlgorithm];
  if (!algorithm) throw new TypeError(`Unsupported hash algorithm ${String(hashAlgorithm)}`);
  if (hash.length !== algorithm.length) throw new TypeError(`A ${hashAlgorithm} hash is ${algorithm.length} bytes, got ${hash.length}`);
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) || 0x01; // positive and minimal, so it compares byte for byte when echoed

  const request = new Uint8Array(
    AsnConvert.serialize(
      new TimeStampReq({
        version: 1,
        messageImprint: new MessageImprint({ hashAlgorithm: new AlgorithmIdentifier({ algorithm: algorithm.oid }), hashedMessage: new OctetString(hash) }),
        nonce: Uint8Array.from(nonce).buffer,
        certReq: options.certReq ?? true,
        ...(options.policyOid ? { reqPolicy: options.policyOid } : {}),
      }),
    ),
  );
  const response = await send(request);
  const reply = readTimestampReply(response);
  if (reply.status > 1 || !reply.token || !reply.tstInfo) {
    const reason = [...reply.failInfo, ...reply.statusText].join('; ') || 'no reason given';
    throw new TimestampClientError('ERR_TSA_CLIENT_REJECTED', `The TSA refused the timestamp (PKIStatus ${reply.status}): ${reason}.`, {
      details: { pkiStatus: reply.status, failInfo: reply.failInfo, statusText: reply.statusText },
    });
  }
  const { tstInfo } = reply;
  const imprint = tstInfo.messageImprint;
  if (imprint.hashAlgorithm.algorithm !== algorithm.oid || !Buffer.from(imprint.hashedMessage.buffer).equals(hash)) {
    throw new TimestampClientError('ERR_TSA_CLIENT_MISMATCH', 'The TSA’s token is for another hash than the one sent.');
  }
  if (!tstInfo.nonce || !Buffer.from(tstInfo.nonce).equals(nonce)) {
    throw new TimestampClientError('ERR_TSA_CLIENT_MISMATCH', 'The TSA’s token does not carry the nonce sent (a replayed or foreign token).');
  }
  if (options.policyOid && !samePolicy(tstInfo.policy, options.policyOid)) {
    throw new TimestampClientError('ERR_TSA_CLIENT_MISMATCH', `The TSA’s token is under policy ${tstInfo.policy}, not the requested ${options.policyOid}.`);
  }
  return { response, token: reply.token, tstInfo };
}

/** asn1js renders arcs above 2^53 in hex: compare what it makes of both. */
function samePolicy(received: string, requested: string): boolean {
  const decoded = (asn1js.fromBER(new asn1js.ObjectIdentifier({ value: requested }).toBER()).result as asn1js.ObjectIdentifier).getValue();
  return received === requested || received === decoded;
}
