import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { HashAlgorithm } from '../../tokens/token.js';
import { digestAlgorithms } from '../digest-algorithms.js';
import { cmsSignatureAlgorithm } from '../cms-signature-algorithm.js';
import type { SignerCertificate } from '../signer-certificate.js';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
};

function derCompare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
}

function attribute(type: string, value: asn1js.AsnType): Uint8Array {
  return new Uint8Array(new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), new asn1js.Set({ value: [value] })] }).toBER());
}

/** A SHA-2 identifier, without parameters as RFC 5754 asks in CMS. */
function hashAlgorithmIdentifier(oid: string): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({ algorithmId: oid });
}

function signatureAlgorithm(signer: SignerCertificate, hashAlgorithm: HashAlgorithm): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({ schema: parse(cmsSignatureAlgorithm(signer.signatureScheme, hashAlgorithm)) });
}

function parse(der: Uint8Array): asn1js.AsnType {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new TypeError(`not DER: ${parsed.result.error}`);
  return parsed.result;
}

/**
 * A detached CAdES signature as PAdES baseline wants it (ETSI EN 319 142-1): signed attributes content-type,
 * message-digest and signing-certificate-v2, no signing-time (the time is the PDF's /M, and the trusted time the
 * signature timestamp), and the timestamp token as an unsigned attribute over the signature value.
 */
export class CadesSignature {
  /**
   * The DER SET OF signed attributes whose hash the signer signs. Sorted as DER demands: a verifier that
   * re-encodes the set (BouncyCastle does) must hash the same bytes.
   */
  static signedAttributes(documentDigest: Uint8Array, signer: SignerCertificate, hashAlgorithm: HashAlgorithm): Uint8Array {
    const digest = digestAlgorithms[hashAlgorithm];
    // ESSCertIDv2 leaves hashAlgorithm out when it is the default, SHA-256 (RFC 5035).
    const essCertIdV2 = new asn1js.Sequence({
      value: [
        ...(hashAlgorithm === 'SHA-256' ? [] : [hashAlgorithmIdentifier(digest.oid).toSchema()]),
        new asn1js.OctetString({ valueHex: signer.digest(hashAlgorithm) }),
        parse(signer.issuerSerialDer()),
      ],
    });
    const attributes = [
      attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
      attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: documentDigest })),
      attribute(OID.signingCertificateV2, new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })),
    ].sort(derCompare);
    return new Uint8Array(new asn1js.Set({ value: attributes.map(parse) }).toBER());
  }

  /** Hash of the signature value, the message imprint of the signature timestamp. */
  static timestampImprint(signatureValue: Uint8Array, signer: SignerCertificate, hashAlgorithm: HashAlgorithm): Uint8Array {
    return new Uint8Array(createHash(digestAlgorithms[hashAlgorithm].nodeName).update(signer.cmsSignatureValue(signatureValue)).digest());
  }

  /** The ContentInfo(SignedData) DER to embed. `signatureValue` is raw (PKCS#1 v1.5 or r||s). */
  static assemble(input: {
    signedAttributes: Uint8Array;
    signatureValue: Uint8Array;
    signer: SignerCertificate;
    chain: readonly Uint8Array[];
    hashAlgorithm: HashAlgorithm;
    timestampToken?: Uint8Array;
  }): Uint8Array {
    const digest = digestAlgorithms[input.hashAlgorithm];
    const signedSet = parse(input.signedAttributes) as asn1js.Set;
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: input.signer.certificate.issuer, serialNumber: input.signer.certificate.serialNumber }),
      digestAlgorithm: hashAlgorithmIdentifier(digest.oid),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 0,
        attributes: signedSet.valueBlock.value.map((a) => new pkijs.Attribute({ schema: a })),
      }),
      signatureAlgorithm: signatureAlgorithm(input.signer, input.hashAlgorithm),
      signature: new asn1js.OctetString({ valueHex: input.signer.cmsSignatureValue(input.signatureValue) }),
      ...(input.timestampToken
        ? {
            unsignedAttrs: new pkijs.SignedAndUnsignedAttributes({
              type: 1,
              attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [parse(input.timestampToken)] })],
            }),
          }
        : {}),
    });
    const seen = new Set<string>();
    const certificates = [input.signer.der, ...input.chain]
      .filter((der) => {
        const key = Buffer.from(der).toString('base64');
        return seen.has(key) ? false : (seen.add(key), true);
      })
      .map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)));
    const signedData = new pkijs.SignedData({
      version: 1,
      digestAlgorithms: [hashAlgorithmIdentifier(digest.oid)],
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      certificates,
      signerInfos: [signerInfo],
    });
    const der = new Uint8Array(new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) }).toSchema().toBER());
    // The signer signed the hash of exactly `signedAttributes`; make sure the encoder did not change one byte.
    const embedded = pkijs.SignedData.fromBER(pkijs.ContentInfo.fromBER(new Uint8Array(der)).content.toBER()).signerInfos[0]?.signedAttrs?.encodedValue;
    const expected = input.signedAttributes.subarray(1);
    if (!embedded || Buffer.compare(Buffer.from(embedded).subarray(1), Buffer.from(expected)) !== 0) {
      throw new Error('CMS encoder changed the signed attributes');
    }
    return der;
  }
}
