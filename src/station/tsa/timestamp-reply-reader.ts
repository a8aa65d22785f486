import { AsnConvert } from '@peculiar/asn1-schema';
import { TimeStampResp, type TSTInfo } from '@peculiar/asn1-tsp';
import { DerTag, derElementAt } from './der.js';
import { PKI_FAILURE_BITS, type PkiFailure } from './tsa-rejection.js';
import { TimestampClientError } from './timestamp-client-error.js';
import { readTstInfo } from './timestamp-token-reader.js';

export interface TimestampReply {
  /** PKIStatus: 0 granted, 1 grantedWithMods, 2 rejection, 3 waiting, 4 revocationWarning, 5 revocationNotification. */
  status: number;
  failInfo: PkiFailure[];
  statusText: string[];
  /** The TimeStampToken (DER ContentInfo) exactly as the TSA sent it; present when a token was granted. */
  token?: Uint8Array;
  tstInfo?: TSTInfo;
}

const FAILURES = Object.entries(PKI_FAILURE_BITS) as Array<[PkiFailure, number]>;

/**
 * Reads a DER TimeStampResp with @peculiar/asn1-tsp. The token's bytes are cut from the response rather than
 * re-encoded, so a signature over them stays intact whatever the parser would normalise.
 */
export function readTimestampReply(der: Uint8Array): TimestampReply {
  let response: TimeStampResp;
  try {
    response = AsnConvert.parse(der, TimeStampResp);
  } catch (cause) {
    throw new TimestampClientError('ERR_TSA_CLIENT_BAD_RESPONSE', 'The TSA answered with something that is not a DER TimeStampResp.', { cause });
  }
  const { status, statusString, failInfo } = response.status;
  const reply: TimestampReply = {
    status,
    statusText: statusString ? [...statusString] : [],
    failInfo: failInfo ? namedBits(new Uint8Array(failInfo.value)) : [],
  };
  if (!response.timeStampToken) return reply;

  const outer = derElementAt(der, 0);
  const statusElement = outer && derElementAt(der, outer.contentStart);
  const tokenElement = statusElement && derElementAt(der, statusElement.end);
  if (!tokenElement || tokenElement.tag !== DerTag.Sequence || tokenElement.end !== outer.end) {
    throw new TimestampClientError('ERR_TSA_CLIENT_BAD_RESPONSE', 'The TimeStampResp is not DER.');
  }
  reply.token = der.slice(statusElement.end, tokenElement.end);
  try {
    reply.tstInfo = readTstInfo(response.timeStampToken.content);
  } catch (cause) {
    throw new TimestampClientError('ERR_TSA_CLIENT_BAD_RESPONSE', `The timestamp token is malformed: ${(cause as Error).message}`, { cause });
  }
  return reply;
}

function namedBits(bytes: Uint8Array): PkiFailure[] {
  return FAILURES.filter(([, bit]) => ((bytes[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0).map(([name]) => name);
}
