import { hash } from 'node:crypto';
import * as asn1js from 'asn1js';
import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, GeneralName } from '@peculiar/asn1-x509';
import { Attribute, IssuerAndSerialNumber, id_signedData } from '@peculiar/asn1-cms';
import { id_ct_tstInfo } from '@peculiar/asn1-tsp';
import { DerTag, derElementAt, derGeneralizedTime, derSmallInteger, derTlv, derTree, derUnsignedInteger, derWrite } from './der.js';
import { HASH_ALGORITHMS } from '../pki/hash-algorithms.js';
import { cmsSignatureAlgorithm } from '../signing/cms-signature-algorithm.js';
import type { TimestampRequest } from './tsa-request-parser.js';
import type { TsaSigner } from './tsa-signer.js';

export interface GrantedToken {
  /** Big-endian, unsigned (TsaSerialAllocator). */
  serialNumber: Uint8Array;
  genTime: Date;
}

const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
const PKI_STATUS_GRANTED = derTlv(DerTag.Sequence, derSmallInteger(0));
const SIGNED_DATA_VERSION = derSmallInteger(3);
const EMPTY = Buffer.alloc(0);

const der = (value: object): Buffer => Buffer.from(AsnConvert.serialize(value));
const oid = (value: string): Buffer => Buffer.from(new asn1js.ObjectIdentifier({ value }).toBER());
const algorithm = (value: string, nullParameters: boolean): Buffer =>
  der(new AlgorithmIdentifier({ algorithm: value, ...(nullParameters ? { parameters: null } : {}) }));
const attribute = (type: string, value: Uint8Array): Buffer =>
  der(new Attribute({ attrType: type, attrValues: [Uint8Array.from(value).buffer] }));
const SIGNED_DATA_OID = oid(id_signedData);

/**
 * Builds DER TimeStampResp messages. Everything that is the same in every token is encoded once, here, with
 * @peculiar/asn1-* and asn1js; `grant` only concatenates the per-request values into those pieces (see der.ts
 * for why) and has the signer sign the signed attributes.
 */
export class TimestampResponseEncoder {
  readonly #signer: TsaSigner;
  readonly #digest: string;
  readonly #head: Buffer;
  readonly #accuracy: Buffer;
  readonly #tsaName: Buffer;
  readonly #imprintAlgorithms: Map<string, Buffer>;
  readonly #digestAlgorithms: Buffer;
  readonly #eContentType: Buffer;
  readonly #certificates: Buffer;
  readonly #signerInfoHead: Buffer;
  readonly #signatureAlgorithm: Buffer;
  /** The signed attributes in DER SET OF order; the messageDigest value goes where `null` stands. */
  readonly #signedAttributes: ReadonlyArray<Buffer | null>;
  readonly #messageDigestPrefix: Buffer;

  /** `accuracy`: the DER from encodeAccuracy (checked when the TSA opens), empty for none. */
  constructor(options: { signer: TsaSigner; policyOid: string; accuracy: Buffer }) {
    const { signer } = options;
    const tsaCertificate = signer.certificates[0];
    if (!tsaCertificate) throw new TypeError('The TSA signer has no certificate');
    const certificate = AsnConvert.parse(tsaCertificate, Certificate);
    const digestInfo = HASH_ALGORITHMS[signer.digestAlgorithm];
    this.#signer = signer;
    this.#digest = digestInfo.nodeName;

    // TSTInfo: version, policy | imprint, serial, genTime | accuracy | nonce | tsa name
    this.#head = Buffer.concat([derSmallInteger(1), oid(options.policyOid)]);
    this.#accuracy = options.accuracy;
    this.#tsaName = derTlv(DerTag.Context0, der(new GeneralName({ directoryName: certificate.tbsCertificate.subject })));
    this.#imprintAlgorithms = new Map(
      Object.values(HASH_ALGORITHMS).flatMap((info) => [
        [`${info.oid}:null`, algorithm(info.oid, true)],
        [`${info.oid}:absent`, algorithm(info.oid, false)],
      ]),
    );

    // SignedData: the digest algorithm set and the certificates field ([0] IMPLICIT CertificateSet). The TSA
    // certificate and any intermediates go in; the root is the verifier's trust anchor and stays out.
    const signerDigestAlgorithm = algorithm(digestInfo.oid, false);
    this.#digestAlgorithms = derTlv(DerTag.Set, signerDigestAlgorithm);
    this.#eContentType = oid(id_ct_tstInfo);
    const shipped = signer.certificates.length > 1 ? signer.certificates.slice(0, -1) : signer.certificates;
    this.#certificates = derTlv(DerTag.Context0, ...shipped);

    // SignerInfo v1: issuerAndSerialNumber, digestAlgorithm | signedAttrs | signatureAlgorithm, signature
    const sid = der(new IssuerAndSerialNumber({ issuer: certificate.tbsCertificate.issuer, serialNumber: certificate.tbsCertificate.serialNumber }));
    this.#signerInfoHead = Buffer.concat([derSmallInteger(1), sid, signerDigestAlgorithm]);
    this.#signatureAlgorithm = Buffer.from(cmsSignatureAlgorithm(signer.signatureScheme, signer.digestAlgorithm));

    const contentType = attribute(OID_CONTENT_TYPE, oid(id_ct_tstInfo));
    const signingCertificate = attribute(OID_SIGNING_CERTIFICATE_V2, signingCertificateV2(tsaCertificate, certificate));
    const digestPlaceholder = attribute(OID_MESSAGE_DIGEST, derTlv(DerTag.OctetString, Buffer.alloc(digestInfo.length)));
    this.#messageDigestPrefix = digestPlaceholder.subarray(0, digestPlaceholder.length - digestInfo.length);
    // DER orders SET OF by encoding. The attributes differ in length octets or OID before the digest value, so
    // the order found with a zero digest holds for every digest.
    const ordered = [contentType, signingCertificate, digestPlaceholder].sort(Buffer.compare);
    this.#signedAttributes = ordered.map((piece) => (piece === digestPlaceholder ? null : piece));
  }

  /**
   * A TimeStampResp granting `request` (PKIStatus granted) with a freshly signed token. Only two pieces are
   * materialised before the answer: the TSTInfo (it is hashed) and the signed attributes (they are signed); the
   * response references them and the constant parts, and is written once (derTree, derWrite).
   */
  async grant(request: TimestampRequest, token: GrantedToken): Promise<Buffer> {
    const imprintAlgorithm = this.#imprintAlgorithms.get(`${request.hashAlgorithm.oid}:${request.hashParametersNull ? 'null' : 'absent'}`);
    if (!imprintAlgorithm) throw new TypeError(`No encoding for imprint algorithm ${request.hashAlgorithm.oid}`);
    const tstInfo = derWrite(
      derTree(
        DerTag.Sequence,
        this.#head,
        derTree(DerTag.Sequence, imprintAlgorithm, derTree(DerTag.OctetString, request.hashedMessage)),
        derUnsignedInteger(token.serialNumber),
        derGeneralizedTime(token.genTime),
        this.#accuracy,
        // ordering FALSE is the DEFAULT, so DER leaves it out
        request.nonce ? derTree(DerTag.Integer, request.nonce) : EMPTY,
        this.#tsaName,
      ),
    );

    const digest = hash(this.#digest, tstInfo, 'buffer');
    const signedAttributes = derWrite(derTree(DerTag.Set, ...this.#signedAttributes.flatMap((piece) => piece ?? [this.#messageDigestPrefix, digest])));
    const signature = await this.#signer.sign(signedAttributes);
    // In the SignerInfo the same SET travels as [0] IMPLICIT: the same contents under another tag.
    const attributeContents = signedAttributes.subarray(derElementAt(signedAttributes, 0)!.contentStart);

    const signerInfo = derTree(DerTag.Sequence, this.#signerInfoHead, derTree(DerTag.Context0, attributeContents), this.#signatureAlgorithm, derTree(DerTag.OctetString, signature));
    const signedData = derTree(
      DerTag.Sequence,
      SIGNED_DATA_VERSION,
      this.#digestAlgorithms,
      derTree(DerTag.Sequence, this.#eContentType, derTree(DerTag.Context0, derTree(DerTag.OctetString, tstInfo))),
      request.certReq ? this.#certificates : EMPTY,
      derTree(DerTag.Set, signerInfo),
    );
    return derWrite(derTree(DerTag.Sequence, PKI_STATUS_GRANTED, derTree(DerTag.Sequence, SIGNED_DATA_OID, derTree(DerTag.Context0, signedData))));
  }
}

/**
 * SigningCertificateV2 (RFC 5035) with one ESSCertIDv2: SHA-256 of the TSA certificate (the DEFAULT hash, so
 * its AlgorithmIdentifier is omitted) and the issuerSerial that pins it. Neither pkijs nor @peculiar ships this
 * structure, so it is put together with asn1js.
 */
function signingCertificateV2(certificateDer: Uint8Array, certificate: Certificate): Uint8Array {
  const issuerName = asn1js.fromBER(AsnConvert.serialize(certificate.tbsCertificate.issuer)).result;
  const serial = asn1js.fromBER(derTlv(DerTag.Integer, new Uint8Array(certificate.tbsCertificate.serialNumber))).result;
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.OctetString({ valueHex: hash('sha256', certificateDer, 'buffer') }),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [issuerName] })] }),
          serial,
        ],
      }),
    ],
  });
  return new Uint8Array(new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] }).toBER());
}
