import { createHash, randomBytes } from 'node:crypto';
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import { XmlCanonicalizer } from 'xmldsigjs';
import type { HashAlgorithm } from '../../tokens/token.js';
import type { ValidationMaterial } from '../validation-material.js';
import { digestAlgorithms } from '../digest-algorithms.js';
import type { SignerCertificate } from '../signer-certificate.js';

const NS = {
  asic: 'http://uri.etsi.org/02918/v1.2.1#',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  xades: 'http://uri.etsi.org/01903/v1.3.2#',
  xades141: 'http://uri.etsi.org/01903/v1.4.1#',
};
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const SIGNED_PROPERTIES_TYPE = 'http://uri.etsi.org/01903#SignedProperties';
/** ETSI's commitment type for "the signer approves the content" (TS 101 903, 7.2.6). */
const PROOF_OF_APPROVAL = 'http://uri.etsi.org/01903/v1.2.2#ProofOfApproval';

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** Exclusive XML canonicalization (xmldsigjs) of one element, in the context of its document. */
function canonical(element: Element): Buffer {
  return Buffer.from(new XmlCanonicalizer(false, true).Canonicalize(element as unknown as Parameters<XmlCanonicalizer["Canonicalize"]>[0]), 'utf8');
}

function byId(doc: Document, localName: string, namespace: string): Element {
  const found = doc.getElementsByTagNameNS(namespace, localName)[0];
  if (!found) throw new Error(`XAdES template has no ${localName}`);
  return found;
}

export interface XadesDataObject {
  /** Path inside the container, also the reference URI (percent-encoded). */
  name: string;
  mediaType: string;
  digest: Uint8Array;
}

/**
 * A XAdES baseline signature (ETSI EN 319 132-1, B-B to B-LTA) over detached data objects, as ASiC-E carries them, built in two
 * steps around an external signer.
 *
 * Built from a template and canonicalised with xmldsigjs rather than signed by xadesjs: xadesjs computes and signs
 * in one call with a WebCrypto key, so it cannot hand out the SignedInfo hash and accept the signature value later
 * (the browser/iframe and token flows), and it cannot digest data files that are streamed from a zip.
 *
 * The signing reason is a CommitmentTypeIndication (ProofOfApproval, all data objects) whose
 * CommitmentTypeQualifier is the reason text: that is the XAdES property for why the signer signs, it is a signed
 * property, and validators show it; SignerRole would claim a role, which a reason is not.
 */
export class XadesBaselineSignature {
  /** Returns the signature document with an empty SignatureValue and the canonical SignedInfo to be signed. */
  static prepare(input: {
    dataObjects: readonly XadesDataObject[];
    signer: SignerCertificate;
    chain: readonly Uint8Array[];
    hashAlgorithm: HashAlgorithm;
    time: Date;
    reason?: string;
  }): { xml: string; signedInfo: Buffer } {
    const digest = digestAlgorithms[input.hashAlgorithm];
    const id = `S-${randomBytes(8).toString('hex')}`;
    const digestMethod = `<ds:DigestMethod Algorithm="${digest.xmlUri}"/>`;
    const signatureMethod = { 'RSA-PSS': digest.xmlRsaPssUri, 'RSASSA-PKCS1-v1_5': digest.xmlRsaUri, ECDSA: digest.xmlEcdsaUri }[input.signer.signatureScheme];
    const references = input.dataObjects
      .map(
        (d, i) =>
          `<ds:Reference Id="${id}-ref-${i}" URI="${escapeXml(encodeURI(d.name).replace(/[?#]/g, encodeURIComponent))}">${digestMethod}<ds:DigestValue>${b64(d.digest)}</ds:DigestValue></ds:Reference>`,
      )
      .join('');
    const formats = input.dataObjects
      .map((d, i) => `<xades:DataObjectFormat ObjectReference="#${id}-ref-${i}"><xades:MimeType>${escapeXml(d.mediaType)}</xades:MimeType></xades:DataObjectFormat>`)
      .join('');
    const commitment =
      input.reason === undefined
        ? ''
        : `<xades:CommitmentTypeIndication><xades:CommitmentTypeId><xades:Identifier>${PROOF_OF_APPROVAL}</xades:Identifier></xades:CommitmentTypeId><xades:AllSignedDataObjects/><xades:CommitmentTypeQualifiers><xades:CommitmentTypeQualifier>${escapeXml(input.reason)}</xades:CommitmentTypeQualifier></xades:CommitmentTypeQualifiers></xades:CommitmentTypeIndication>`;
    const certificates = [input.signer.der, ...input.chain].map((c) => `<ds:X509Certificate>${b64(c)}</ds:X509Certificate>`).join('');
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<asic:XAdESSignatures xmlns:asic="${NS.asic}" xmlns:ds="${NS.ds}" xmlns:xades="${NS.xades}">` +
      `<ds:Signature Id="${id}">` +
      `<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${EXC_C14N}"/><ds:SignatureMethod Algorithm="${signatureMethod}"/>${references}` +
      `<ds:Reference Type="${SIGNED_PROPERTIES_TYPE}" URI="#${id}-SignedProperties"><ds:Transforms><ds:Transform Algorithm="${EXC_C14N}"/></ds:Transforms>${digestMethod}<ds:DigestValue></ds:DigestValue></ds:Reference>` +
      `</ds:SignedInfo>` +
      `<ds:SignatureValue Id="${id}-SignatureValue"></ds:SignatureValue>` +
      `<ds:KeyInfo><ds:X509Data>${certificates}</ds:X509Data></ds:KeyInfo>` +
      `<ds:Object><xades:QualifyingProperties Target="#${id}"><xades:SignedProperties Id="${id}-SignedProperties">` +
      `<xades:SignedSignatureProperties><xades:SigningTime>${input.time.toISOString().replace(/\.\d+Z$/, 'Z')}</xades:SigningTime>` +
      `<xades:SigningCertificateV2><xades:Cert><xades:CertDigest>${digestMethod}<ds:DigestValue>${b64(input.signer.digest(input.hashAlgorithm))}</ds:DigestValue></xades:CertDigest>` +
      `<xades:IssuerSerialV2>${b64(input.signer.issuerSerialDer())}</xades:IssuerSerialV2></xades:Cert></xades:SigningCertificateV2></xades:SignedSignatureProperties>` +
      `<xades:SignedDataObjectProperties>${formats}${commitment}</xades:SignedDataObjectProperties>` +
      `</xades:SignedProperties></xades:QualifyingProperties></ds:Object></ds:Signature></asic:XAdESSignatures>`;

    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const signedProperties = byId(doc, 'SignedProperties', NS.xades);
    const propertiesDigest = createHash(digest.nodeName).update(canonical(signedProperties)).digest('base64');
    const signedInfo = byId(doc, 'SignedInfo', NS.ds);
    const references2 = signedInfo.getElementsByTagNameNS(NS.ds, 'Reference');
    const propertiesReference = references2[references2.length - 1]!;
    const digestValue = propertiesReference.getElementsByTagNameNS(NS.ds, 'DigestValue')[0]!;
    digestValue.appendChild(doc.createTextNode(propertiesDigest));
    return { xml: new XMLSerializer().serializeToString(doc), signedInfo: canonical(signedInfo) };
  }

  /** The canonical ds:SignatureValue element once `signatureValue` is set: what the signature timestamp covers. */
  static withSignatureValue(xml: string, signatureValue: Uint8Array): { doc: Document; timestampInput: Buffer } {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const element = byId(doc, 'SignatureValue', NS.ds);
    element.appendChild(doc.createTextNode(b64(signatureValue)));
    return { doc, timestampInput: canonical(element) };
  }

  /**
   * Adds the unsigned properties: the SignatureTimeStamp (B-T) and, for B-LT, CertificateValues (certificates not
   * already in ds:KeyInfo, such as the TSA's) and RevocationValues (OCSP responses, CRLs).
   */
  static addUnsignedProperties(doc: Document, timestampToken: Uint8Array | undefined, material?: ValidationMaterial): void {
    if (!timestampToken) return;
    const id = byId(doc, 'Signature', NS.ds).getAttribute('Id');
    const encapsulated = (tag: string, items: readonly Uint8Array[]): string => items.map((item) => `<xades:${tag}>${b64(item)}</xades:${tag}>`).join('');
    const certificateValues = material?.certificates.length ? `<xades:CertificateValues>${encapsulated('EncapsulatedX509Certificate', material.certificates)}</xades:CertificateValues>` : '';
    const ocsps = material?.ocsps.length ? `<xades:OCSPValues>${encapsulated('EncapsulatedOCSPValue', material.ocsps)}</xades:OCSPValues>` : '';
    const crls = material?.crls.length ? `<xades:CRLValues>${encapsulated('EncapsulatedCRLValue', material.crls)}</xades:CRLValues>` : '';
    const fragment = new DOMParser().parseFromString(
      `<xades:UnsignedProperties xmlns:xades="${NS.xades}" xmlns:ds="${NS.ds}"><xades:UnsignedSignatureProperties><xades:SignatureTimeStamp Id="${id}-SignatureTimeStamp">` +
        `<ds:CanonicalizationMethod Algorithm="${EXC_C14N}"/><xades:EncapsulatedTimeStamp>${b64(timestampToken)}</xades:EncapsulatedTimeStamp>` +
        `</xades:SignatureTimeStamp>${certificateValues}${ocsps || crls ? `<xades:RevocationValues>${crls}${ocsps}</xades:RevocationValues>` : ''}</xades:UnsignedSignatureProperties></xades:UnsignedProperties>`,
      'application/xml',
    );
    const unsigned = doc.importNode(fragment.documentElement!, true);
    unsigned.removeAttribute('xmlns:xades');
    unsigned.removeAttribute('xmlns:ds');
    byId(doc, 'QualifyingProperties', NS.xades).appendChild(unsigned);
  }

  /**
   * What an archive timestamp covers after the data objects' own bytes (ETSI EN 319 132-1 5.5.2, no ds:Manifest):
   * the SignedProperties as its reference processes them, then ds:SignedInfo, ds:SignatureValue, ds:KeyInfo and
   * each unsigned signature property so far, all in exclusive canonical form.
   */
  static archiveTimestampInputAfterData(doc: Document): Buffer[] {
    const unsigned = byId(doc, 'UnsignedSignatureProperties', NS.xades);
    const properties = Array.from({ length: unsigned.childNodes.length }, (_, i) => unsigned.childNodes.item(i)).filter((node): node is Element => node?.nodeType === 1);
    return [byId(doc, 'SignedProperties', NS.xades), byId(doc, 'SignedInfo', NS.ds), byId(doc, 'SignatureValue', NS.ds), byId(doc, 'KeyInfo', NS.ds), ...properties].map(canonical);
  }

  /** Appends the xades141:ArchiveTimeStamp (B-LTA) with `token` over archiveTimestampInput. */
  static addArchiveTimestamp(doc: Document, token: Uint8Array): void {
    const id = byId(doc, 'Signature', NS.ds).getAttribute('Id');
    const fragment = new DOMParser().parseFromString(
      `<xades141:ArchiveTimeStamp xmlns:xades141="${NS.xades141}" xmlns:ds="${NS.ds}" xmlns:xades="${NS.xades}" Id="${id}-ArchiveTimeStamp">` +
        `<ds:CanonicalizationMethod Algorithm="${EXC_C14N}"/><xades:EncapsulatedTimeStamp>${b64(token)}</xades:EncapsulatedTimeStamp></xades141:ArchiveTimeStamp>`,
      'application/xml',
    );
    const element = doc.importNode(fragment.documentElement!, true);
    element.removeAttribute('xmlns:ds');
    element.removeAttribute('xmlns:xades');
    byId(doc, 'UnsignedSignatureProperties', NS.xades).appendChild(element);
  }

  static serialise(doc: Document): string {
    return new XMLSerializer().serializeToString(doc);
  }
}
