import * as pkijs from 'pkijs';
import type { HashAlgorithm } from '../tokens/token.js';
import { digestAlgorithms } from './digest-algorithms.js';
import { TimestampFailedError } from './signing-errors.js';

const TST_INFO_OID = '1.2.840.113549.1.9.16.1.4';

/**
 * Checks that a TSA's token is a TimeStampToken over `imprint`, so a confused or hostile TSA cannot make the
 * station embed a token that covers something else. Returns the token's time. (Trust in the TSA is the verifier's
 * business; this is about not producing a broken signature.)
 */
export function checkTimestampToken(token: Uint8Array, imprint: Uint8Array, hashAlgorithm: HashAlgorithm): Date {
  let tstInfo: pkijs.TSTInfo;
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(new Uint8Array(token));
    const signedData = new pkijs.SignedData({ schema: contentInfo.content });
    const content = signedData.encapContentInfo;
    if (content.eContentType !== TST_INFO_OID || !content.eContent) throw new Error('not a TSTInfo');
    tstInfo = pkijs.TSTInfo.fromBER(content.eContent.getValue());
  } catch (cause) {
    throw new TimestampFailedError(`The timestamp authority answered with an unreadable token: ${(cause as Error).message}`, { cause });
  }
  const imprinted = Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (tstInfo.messageImprint.hashAlgorithm.algorithmId !== digestAlgorithms[hashAlgorithm].oid || !imprinted.equals(Buffer.from(imprint))) {
    throw new TimestampFailedError('The timestamp token does not cover the signature value.');
  }
  return tstInfo.genTime;
}
