import { createHash, createPrivateKey, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export interface CmsSignatureRecipe {
  certificate: Uint8Array;
  pkcs8: Uint8Array;
  content: Uint8Array;
  /** node:crypto name and OID of the digest. */
  digest: { nodeName: string; oid: string };
  /** The signatureAlgorithm OID written into the SignerInfo, whatever it means. */
  signatureOid: string;
  /** How an ECDSA value is encoded: DER (X9.62) or r||s (BSI TR-03111 plain). */
  dsaEncoding?: 'der' | 'ieee-p1363';
  /** Writes and signs the signed attributes against DER order, as a non-conforming signer would. */
  attributesOutOfOrder?: boolean;
}

const OID = { data: '1.2.840.113549.1.7.1', signedData: '1.2.840.113549.1.7.2', contentType: '1.2.840.113549.1.9.3', messageDigest: '1.2.840.113549.1.9.4', signingTime: '1.2.840.113549.1.9.5' };

/**
 * A detached CMS SignedData made exactly as the recipe says (pkijs for the structure, node:crypto for the value),
 * for forms no signing tool writes on request: plain ECDSA, SHA-1, an arbitrary algorithm OID, unsorted attributes.
 * The value is always computed over the signed attributes' bytes as written, so only the property under test differs.
 */
export function buildCmsSignature(recipe: CmsSignatureRecipe): Uint8Array {
  const certificate = pkijs.Certificate.fromBER(Uint8Array.from(recipe.certificate));
  const attribute = (type: string, value: asn1js.AsnType): { der: Buffer; attribute: pkijs.Attribute } => {
    const made = new pkijs.Attribute({ type, values: [value] });
    return { der: Buffer.from(made.toSchema().toBER(false)), attribute: made };
  };
  const attributes = [
    attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
    attribute(OID.signingTime, new asn1js.UTCTime({ valueDate: new Date() })),
    attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: createHash(recipe.digest.nodeName).update(recipe.content).digest() })),
  ].sort((a, b) => Buffer.compare(a.der, b.der) * (recipe.attributesOutOfOrder ? -1 : 1));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: attributes.map((a) => a.attribute) });
  const signedBytes = Buffer.from(signedAttrs.toSchema().toBER(false));
  signedBytes[0] = 0x31;
  const key = createPrivateKey({ key: Buffer.from(recipe.pkcs8), format: 'der', type: 'pkcs8' });
  const value = sign(recipe.digest.nodeName, signedBytes, { key, ...(recipe.dsaEncoding ? { dsaEncoding: recipe.dsaEncoding } : {}) });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: recipe.digest.oid }),
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: recipe.signatureOid }),
    signature: new asn1js.OctetString({ valueHex: value }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: recipe.digest.oid })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [certificate],
    signerInfos: [signerInfo],
  });
  return new Uint8Array(new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) }).toSchema().toBER(false));
}
