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
  const signer = await signerOf(doc, signature, announced);
  if (signer) return signer;
  throw refused(what, announced.length === 0 ? 'no certificate is announced for it' : 'its signature does not verify with any certificate announced for it (it was changed, or signed by another key)');
}

/**
 * The announced certificate whose key the signature value verifies with, once the references hold: the whole list
 * is canonicalised and digested once, whatever the number of certificates announced.
 */
async function signerOf(doc: Document, signature: Element, announced: readonly x509.X509Certificate[]): Promise<x509.X509Certificate | undefined> {
  if (announced.length === 0) return undefined;
  const signed = new AnnouncedKeysSignedXml(doc as never, announced);
  signed.LoadXml(signature as never);
  try {
    if (!(await signed.verifyInPlace(signature))) return undefined;
  } catch {
    // A digest that does not match, or malformed values: no announced certificate signed this content.
    return undefined;
  }
  return signed.verifiedWith;
}

/** Verifies with the announced certificates' keys, never with whatever KeyInfo carries, and says which one held. */
class AnnouncedKeysSignedXml extends SignedXml {
  readonly #announced: readonly x509.X509Certificate[];
  verifiedWith: x509.X509Certificate | undefined;

  constructor(document: ConstructorParameters<typeof SignedXml>[0], announced: readonly x509.X509Certificate[]) {
    super(document);
    this.#announced = announced;
  }

  /**
   * Verify's checks on the list itself rather than on a copy of it (copying a whole list costs more than parsing
   * it): the enveloped-signature transform takes the signature out of the document, and it is put back after.
   */
  async verifyInPlace(signature: Element): Promise<boolean> {
    const root = this.document!.documentElement as unknown as Element;
    const next = signature.nextSibling;
    try {
      return (await this.ValidateReferences(root as never)) && (await this.ValidateSignatureValue());
    } finally {
      if (signature.parentNode !== root) root.insertBefore(signature, next);
    }
  }

  protected override GetPublicKeys(): Promise<webcrypto.CryptoKey[]> {
    return Promise.resolve([]);
  }

  protected override async ValidateSignatureValue(): Promise<boolean> {
    const { algorithm } = CryptoConfig.CreateSignatureAlgorithm(this.XmlSignature.SignedInfo.SignatureMethod);
    for (const certificate of this.#announced) {
      // A key of another algorithm than the signature's cannot have made it.
      const key = await new XmlDsigCertificate(Uint8Array.from(new Uint8Array(certificate.rawData))).exportKey(algorithm).catch(() => undefined);
      if (key && (await super.ValidateSignatureValue([key]))) {
        this.verifiedWith = certificate;
        return true;
      }
    }
    return false;
  }
}

function refused(what: string, why: string): TrustListError {
  return new TrustListError('ERR_TRUST_LIST_SIGNATURE_INVALID', `${what} was refused: ${why}.`);
}
