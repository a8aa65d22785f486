import { constants, createHash, createPublicKey, publicDecrypt, verify } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { x509 } from '../pki/x509.js';
import type { VerdictFinding } from './verdict-finding.js';
import { verificationDigestOf, type VerificationDigest } from './verification-digests.js';
import { CMS_SIGNATURE_SCHEMES, type CmsSignatureScheme } from './cms-signature-schemes.js';
import { VerificationError } from './verification-error.js';

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  archiveTimeStampV3: '0.4.0.1733.2.4',
};

/** RFC 5940 id-ri-ocsp-response: an OCSP response among a SignedData's revocation information. */
const OCSP_RESPONSE_INFO = '1.3.6.1.5.5.7.16.2';

/** What one CMS SignedData says and whether it holds: the shared core of PAdES, CAdES and timestamp checks. */
export interface CmsSignatureCheck {
  signerCertificate: x509.X509Certificate | undefined;
  /** Every certificate the CMS carries (the chain the signer embedded). */
  certificates: x509.X509Certificate[];
  /** DER CRLs the CMS carries. */
  crls: Uint8Array[];
  /** Whole OCSP responses the CMS carries (RevocationInfoChoices, id-ri-ocsp-response). */
  ocsps: Uint8Array[];
  digestAlgorithm: VerificationDigest | undefined;
  signingTime: Date | undefined;
  signatureValue: Uint8Array;
  /** The signature timestamp token (unsigned attribute), DER. */
  timestampToken: Uint8Array | undefined;
  hasArchiveTimestamp: boolean;
  eContentType: string;
  /** The encapsulated content (a timestamp token's TSTInfo); undefined for detached signatures. */
  eContent: Uint8Array | undefined;
  intact: boolean;
  /** Why it is not intact, for the verdict; undefined when intact. */
  finding: VerdictFinding | undefined;
  problems: string[];
}

/** Hashes the detached content (PDF byte ranges, the data file of a .p7s) with the signer's digest algorithm. */
export type ContentDigest = (algorithm: VerificationDigest) => Promise<Uint8Array>;

/**
 * Checks the first signer of a CMS SignedData: the message-digest attribute against the content (encapsulated,
 * or detached through `contentDigest`), and the signature over the signed attributes with the signer
 * certificate's key. Parsing by pkijs; the signature check by node:crypto on the exact signed bytes.
 */
export async function checkCmsSignature(der: Uint8Array, contentDigest?: ContentDigest): Promise<CmsSignatureCheck> {
  const signedData = parseSignedData(der);
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) throw new VerificationError('The CMS signature has no signer.');
  const certificates = (signedData.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => new x509.X509Certificate(c.toSchema().toBER(false)));
  const eContent = signedData.encapContentInfo.eContent?.getValue();
  const check: CmsSignatureCheck = {
    signerCertificate: findSigner(signerInfo, certificates),
    certificates,
    crls: (signedData.crls ?? []).filter((c): c is pkijs.CertificateRevocationList => c instanceof pkijs.CertificateRevocationList).map((c) => new Uint8Array(c.toSchema().toBER(false))),
    ocsps: (signedData.crls ?? [])
      .filter((c): c is pkijs.OtherRevocationInfoFormat => c instanceof pkijs.OtherRevocationInfoFormat && c.otherRevInfoFormat === OCSP_RESPONSE_INFO)
      .map((c) => new Uint8Array((c.otherRevInfo as { toBER(sizeOnly?: boolean): ArrayBuffer }).toBER(false))),
    digestAlgorithm: verificationDigestOf(signerInfo.digestAlgorithm.algorithmId),
    signingTime: signingTimeOf(signerInfo),
    signatureValue: new Uint8Array(signerInfo.signature.getValue()).slice(),
    timestampToken: unsignedAttribute(signerInfo, OID.signatureTimeStampToken),
    hasArchiveTimestamp: unsignedAttribute(signerInfo, OID.archiveTimeStampV3) !== undefined,
    eContentType: signedData.encapContentInfo.eContentType,
    eContent: eContent ? new Uint8Array(eContent) : undefined,
    intact: false,
    finding: undefined,
    problems: [],
  };
  await checkIntegrity(check, signerInfo, contentDigest);
  return check;
}

function parseSignedData(der: Uint8Array): pkijs.SignedData {
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(Uint8Array.from(der));
    if (contentInfo.contentType !== OID.signedData) throw new TypeError(`content type ${contentInfo.contentType}`);
    return new pkijs.SignedData({ schema: contentInfo.content });
  } catch (cause) {
    throw new VerificationError(`Not a CMS signature (${(cause as Error).message}).`, { cause });
  }
}

async function checkIntegrity(check: CmsSignatureCheck, signerInfo: pkijs.SignerInfo, contentDigest: ContentDigest | undefined): Promise<void> {
  const { digestAlgorithm, signerCertificate } = check;
  const fail = (indication: VerdictFinding['indication'], subIndication: VerdictFinding['subIndication'], reason: string): void => {
    check.finding = { indication, subIndication, reason };
    check.problems.push(reason);
  };
  if (!digestAlgorithm) return fail('INDETERMINATE', 'CRYPTO_CONSTRAINTS_FAILURE_NO_POE', `unsupported digest algorithm ${signerInfo.digestAlgorithm.algorithmId}`);
  if (!signerCertificate) return fail('INDETERMINATE', 'NO_SIGNING_CERTIFICATE_FOUND', 'the signer certificate is not in the signature');
  const actual = check.eContent ? createHash(digestAlgorithm.nodeName).update(check.eContent).digest() : await contentDigest?.(digestAlgorithm);
  if (!signerInfo.signedAttrs) return checkWithoutSignedAttributes(check, digestAlgorithm, signerCertificate, actual, fail);
  const expected = signedAttribute(signerInfo, OID.messageDigest);
  if (!expected || !actual || !Buffer.from(expected.valueBlock.valueHexView).equals(Buffer.from(actual))) {
    return fail('TOTAL-FAILED', 'HASH_FAILURE', 'the signed content was changed after signing (its digest does not match)');
  }
  const signedBytes = new Uint8Array(signerInfo.signedAttrs.encodedValue.byteLength ? signerInfo.signedAttrs.encodedValue : signerInfo.signedAttrs.toSchema().toBER(false)).slice();
  signedBytes[0] = 0x31; // signed as a SET OF, stored as [0] IMPLICIT
  if (!inDerOrder(signedBytes)) return fail('TOTAL-FAILED', 'SIG_CRYPTO_FAILURE', 'the signed attributes are not in DER order, so they are not the bytes a signer signs');
  const algorithmOid = signerInfo.signatureAlgorithm.algorithmId;
  const scheme = CMS_SIGNATURE_SCHEMES[algorithmOid];
  if (!scheme) return fail('TOTAL-FAILED', 'SIG_CRYPTO_FAILURE', `${algorithmOid} is not a signature algorithm`);
  if (scheme.digestOid && scheme.digestOid !== digestAlgorithm.oid) return fail('TOTAL-FAILED', 'SIG_CRYPTO_FAILURE', 'the signature algorithm names another digest than the signature’s digest algorithm');
  if (!verifySignatureValue(scheme, digestAlgorithm, signerCertificate, signedBytes, check.signatureValue)) {
    return fail('TOTAL-FAILED', 'SIG_CRYPTO_FAILURE', 'the signature value does not match the signer certificate');
  }
  check.intact = true;
}

/**
 * A PKCS#7 signature without signed attributes (older adbe.pkcs7.* signers) signs the content's digest itself. For
 * RSA PKCS#1 v1.5 the signature value opens, with the public key, to that DigestInfo, so it is checked against the
 * digest streamed from the content; other keys need the content's bytes, which a streamed check does not keep.
 */
function checkWithoutSignedAttributes(check: CmsSignatureCheck, digest: VerificationDigest, certificate: x509.X509Certificate, actual: Uint8Array | undefined, fail: (indication: VerdictFinding['indication'], subIndication: VerdictFinding['subIndication'], reason: string) => void): void {
  const key = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'rsa') return fail('INDETERMINATE', 'FORMAT_FAILURE', 'a signature without signed attributes is checked here only for RSA keys');
  let digestInfo: asn1js.AsnType | undefined;
  try {
    digestInfo = asn1js.fromBER(publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(check.signatureValue))).result;
  } catch {
    return fail('TOTAL-FAILED', 'SIG_CRYPTO_FAILURE', 'the signature value does not match the signer certificate');
  }
  const [algorithm, value] = digestInfo instanceof asn1js.Sequence ? digestInfo.valueBlock.value : [];
  const oid = algorithm instanceof asn1js.Sequence ? algorithm.valueBlock.value[0] : undefined;
  if (!(oid instanceof asn1js.ObjectIdentifier) || oid.valueBlock.toString() !== digest.oid || !(value instanceof asn1js.OctetString)) {
    return fail('TOTAL-FAILED', 'SIG_CRYPTO_FAILURE', 'the signature value does not match the signer certificate');
  }
  if (!actual || !Buffer.from(value.valueBlock.valueHexView).equals(Buffer.from(actual))) return fail('TOTAL-FAILED', 'HASH_FAILURE', 'the signed content was changed after signing (its digest does not match)');
  check.intact = true;
}

/**
 * DER sorts a SET OF by its elements' encodings (X.690 11.6); signed attributes in another order are not what a
 * conforming signer signed, and accepting them lets an attacker's re-encoding pass.
 */
function inDerOrder(set: Uint8Array): boolean {
  const parsed = asn1js.fromBER(Uint8Array.from(set));
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Set)) return false;
  const encodings = parsed.result.valueBlock.value.map((element) => Buffer.from(element.valueBeforeDecodeView));
  return encodings.every((encoding, index) => index === 0 || Buffer.compare(encodings[index - 1]!, encoding) <= 0);
}

function verifySignatureValue(scheme: CmsSignatureScheme, digest: VerificationDigest, certificate: x509.X509Certificate, data: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' });
  const pss = scheme.kind === 'rsa-pss' ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO } : {};
  const ecdsa = scheme.kind === 'plain-ecdsa' ? { dsaEncoding: 'ieee-p1363' as const } : key.asymmetricKeyType === 'ec' ? { dsaEncoding: 'der' as const } : {};
  try {
    return verify(digest.nodeName, data, { key, ...pss, ...ecdsa }, signature);
  } catch {
    return false;
  }
}

function findSigner(signerInfo: pkijs.SignerInfo, certificates: x509.X509Certificate[]): x509.X509Certificate | undefined {
  const sid = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    const serial = Buffer.from(sid.serialNumber.valueBlock.valueHexView).toString('hex').replace(/^0+/, '');
    return certificates.find((c) => c.serialNumber.toLowerCase().replace(/^0+/, '') === serial);
  }
  const keyId = Buffer.from((sid as asn1js.OctetString).valueBlock.valueHexView).toString('hex');
  return certificates.find((c) => c.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId === keyId);
}

function signedAttribute(signerInfo: pkijs.SignerInfo, type: string): asn1js.OctetString | undefined {
  return signerInfo.signedAttrs?.attributes.find((a) => a.type === type)?.values[0] as asn1js.OctetString | undefined;
}

function signingTimeOf(signerInfo: pkijs.SignerInfo): Date | undefined {
  const value = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.signingTime)?.values[0] as asn1js.UTCTime | asn1js.GeneralizedTime | undefined;
  return value?.toDate();
}

function unsignedAttribute(signerInfo: pkijs.SignerInfo, type: string): Uint8Array | undefined {
  const value = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === type)?.values[0];
  return value ? new Uint8Array(value.toBER(false)) : undefined;
}
