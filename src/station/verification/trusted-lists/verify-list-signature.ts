import { webcrypto } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { Application, CryptoConfig, SignedXml, X509Certificate as XmlDsigCertificate } from 'xmldsigjs';
import type { x509 } from '../../pki/x509.js';
import { TrustListError } from './trust-list-error.js';

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

Application.setEngine('NodeJS', webcrypto as never);

/**
 * Checks a trusted list's enveloped XML signature (exclusive C14N, as ETSI TS 119 612 requires, which xmldsigjs
 * does) with the key of each certificate announced for it, and returns the one that verifies. The signature must
 * be the root's own child and its one reference must cover the whole list, so a signed fragment cannot vouch for
 * changed content around it.
 */
export async function verifyListSignature(doc: Document, announced: readonly x509.X509Certificate[], what: string): Promise<x509.X509Certificate> {
  const root = doc.documentElement!;
  const signatures = [...root.childNodes].filter((node): node is Element => node.nodeType === 1 && (node as Element).localName === 'Signature' && (node as Element).namespaceURI === DS);
  if (signatures.length !== 1) throw refused(what, signatures.length === 0 ? 'it is not signed' : 'it carries more than one signature');
  const signature = signatures[0]!;
  const references = [...signature.getElementsByTagNameNS(DS, 'Reference')].filter((reference) => reference.parentNode?.localName === 'SignedInfo');
  const id = root.getAttribute('Id');
  const wholeList = references.filter((reference) => {
    const uri = reference.getAttribute('URI');
    return uri === '' || (id !== null && id !== '' && uri === `#${id}`);
  });
  if (wholeList.length !== 1) throw refused(what, 'its signature does not cover the whole list');
  const transforms = [...wholeList[0]!.getElementsByTagNameNS(DS, 'Transform')].map((transform) => transform.getAttribute('Algorithm'));
  if (!transforms.includes(ENVELOPED)) throw refused(what, 'its signature is not an enveloped one');
  for (const certificate of announced) {
    if (await holdsWith(doc, signature, certificate)) return certificate;
  }
  throw refused(what, announced.length === 0 ? 'no certificate is announced for it' : 'its signature does not verify with any certificate announced for it (it was changed, or signed by another key)');
}

async function holdsWith(doc: Document, signature: Element, certificate: x509.X509Certificate): Promise<boolean> {
  const signed = new AnnouncedKeySignedXml(doc as never, new Uint8Array(certificate.rawData));
  signed.LoadXml(signature as never);
  try {
    return await signed.Verify();
  } catch {
    // A key of another algorithm than the signature's, or malformed values: not this certificate.
    return false;
  }
}

/** Verifies with the announced certificate's key, never with whatever KeyInfo carries. */
class AnnouncedKeySignedXml extends SignedXml {
  readonly #certificate: Uint8Array<ArrayBuffer>;

  constructor(document: ConstructorParameters<typeof SignedXml>[0], certificate: Uint8Array) {
    super(document);
    this.#certificate = Uint8Array.from(certificate);
  }

  protected override async GetPublicKeys(): Promise<Array<Awaited<ReturnType<XmlDsigCertificate['exportKey']>>>> {
    const { algorithm } = CryptoConfig.CreateSignatureAlgorithm(this.XmlSignature.SignedInfo.SignatureMethod);
    return [await new XmlDsigCertificate(this.#certificate).exportKey(algorithm)];
  }
}

function refused(what: string, why: string): TrustListError {
  return new TrustListError('ERR_TRUST_LIST_SIGNATURE_INVALID', `${what} was refused: ${why}.`);
}
