import type { TSTInfo } from '@peculiar/asn1-tsp';
import { isStationError } from '../../core/errors/station-error.js';
import type { HashAlgorithm } from '../tokens/token.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import { readTimestampToken } from '../tsa/timestamp-token-reader.js';
import { digestAlgorithms } from './digest-algorithms.js';
import { TimestampFailedError } from './signing-errors.js';

/**
 * The signature timestamp of a B-T signature (PAdES, XAdES): a token over `imprint`, checked before it is embedded.
 * Any failure is a TimestampFailedError; a refusal or a mismatching token stays non-retriable, an unreachable TSA
 * retriable.
 */
export async function timestampSignature(client: TimestampClient, imprint: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array> {
  let token: Uint8Array;
  try {
    token = await client.timestamp(imprint, hashAlgorithm);
  } catch (cause) {
    if (cause instanceof TimestampFailedError) throw cause;
    throw new TimestampFailedError(`The timestamp authority failed: ${(cause as Error).message}`, { cause, ...(isStationError(cause) ? { retriable: cause.retriable } : {}) });
  }
  checkTimestampToken(token, imprint, hashAlgorithm);
  return token;
}

/**
 * Checks that a TSA's token is a TimeStampToken over `imprint`, so a confused or hostile TSA cannot make the
 * station embed a token that covers something else. Returns the token's time. (Trust in the TSA is the verifier's
 * business; this is about not producing a broken signature.) Every TimestampClient is held to it, not only the
 * station's own, which checks the same already.
 */
function checkTimestampToken(token: Uint8Array, imprint: Uint8Array, hashAlgorithm: HashAlgorithm): void {
  let tstInfo: TSTInfo;
  try {
    tstInfo = readTimestampToken(token);
  } catch (cause) {
    throw new TimestampFailedError(`The timestamp authority answered with an unreadable token: ${(cause as Error).message}`, { cause });
  }
  const imprinted = Buffer.from(tstInfo.messageImprint.hashedMessage.buffer);
  if (tstInfo.messageImprint.hashAlgorithm.algorithm !== digestAlgorithms[hashAlgorithm].oid || !imprinted.equals(Buffer.from(imprint))) {
    throw new TimestampFailedError('The timestamp token does not cover the signature value.');
  }
}
