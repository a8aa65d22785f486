import { AsnConvert } from '@peculiar/asn1-schema';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import { TSTInfo, id_ct_tstInfo } from '@peculiar/asn1-tsp';

/**
 * The TSTInfo inside a TimeStampToken (a DER ContentInfo of SignedData), read with @peculiar/asn1-tsp: the one
 * parser of timestamp tokens in the station (the TSA client and the signing formats). Throws a TypeError when
 * the bytes are not a token; callers say what that means in their own error.
 */
export function readTimestampToken(token: Uint8Array | ArrayBuffer): TSTInfo {
  const contentInfo = AsnConvert.parse(token, ContentInfo);
  return readTstInfo(contentInfo.content);
}

/** The TSTInfo of a token's SignedData content (the bytes inside the ContentInfo's [0]). */
export function readTstInfo(signedDataDer: ArrayBuffer): TSTInfo {
  const signedData = AsnConvert.parse(signedDataDer, SignedData);
  const content = signedData.encapContentInfo.eContent?.single;
  if (signedData.encapContentInfo.eContentType !== id_ct_tstInfo || !content) throw new TypeError('the token does not carry a TSTInfo');
  return AsnConvert.parse(content.buffer, TSTInfo);
}
