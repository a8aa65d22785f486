import { createHash, webcrypto } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { Application, CryptoConfig, type Reference, SignedXml, X509Certificate as XmlDsigCertificate, XmlCanonicalizer } from 'xmldsigjs';
import type { DocumentVerification, SignatureVerification } from '../../core/schemas/verification-report.js';
import { AsiceContainerReader } from '../signing/asice/asice-container-reader.js';
import { ASICS_MEDIA_TYPE } from '../signing/asice/asic-media-types.js';
import { HASH_ALGORITHMS } from '../pki/hash-algorithms.js';
import { StationError } from '../../core/errors/station-error.js';
import { checkCmsSignature } from './check-cms-signature.js';
import { reportCmsSignature } from './report-cms-signature.js';
import { reportTimestamp } from './report-timestamp.js';
import { x509 } from '../pki/x509.js';
import { checkRevocation } from './check-revocation.js';
import { checkCertificateChain } from './check-certificate-chain.js';
import { checkTimestampToken } from './check-timestamp-token.js';
import { VerificationError } from './verification-error.js';
import { ContainerTooLargeError } from '../signing/asice/container-too-large-error.js';
import { digestAlgorithms } from '../signing/digest-algorithms.js';

const NS = { ds: 'http://www.w3.org/2000/09/xmldsig#', xades: 'http://uri.etsi.org/01903/v1.3.2#' };
const MAX_SIGNATURE_XML = 4 * 1024 * 1024;

Application.setEngine('NodeJS', webcrypto as never);

/**
 * Every signature of an ASiC container: XAdES (ASiC-E, or ASiC-S's signatures.xml) checked by xmldsigjs against the
 * data files; in ASiC-S also a CAdES signature.p7s or an RFC 3161 timestamp.tst over its one data file.
 */
export async function verifyAsic(path: string, anchors: readonly x509.X509Certificate[]): Promise<Pick<DocumentVerification, 'format' | 'signatures'>> {
  const container = await AsiceContainerReader.open(path, { acceptAsicS: true }).catch((cause: Error) => {
    // Too large is said as such; anything else is a file that cannot be verified.
    throw cause instanceof ContainerTooLargeError ? cause : new VerificationError(cause.message, { cause });
  });
  try {
    const signatures: SignatureVerification[] = [];
    for (const name of container.signatureFiles) signatures.push(await verifyXades(await readEntry(container, name, MAX_SIGNATURE_XML), container, anchors));
    if (container.mediaType !== ASICS_MEDIA_TYPE) return { format: 'asice', signatures };
    signatures.push(...(await verifyAsicSCms(container, anchors)));
    return { format: 'asics', signatures };
  } finally {
    container.close();
  }
}

/** ASiC-S's META-INF/signature.p7s (CAdES, detached) and META-INF/timestamp.tst, each over the one data file. */
async function verifyAsicSCms(container: AsiceContainerReader, anchors: readonly x509.X509Certificate[]): Promise<SignatureVerification[]> {
  const [dataFile, ...others] = container.dataFiles;
  if (!dataFile || others.length > 0) throw new VerificationError('An ASiC-S container holds exactly one data file.');
  // The data file is digested as it streams, once per algorithm asked for: never held whole.
  const data = async (algorithm: keyof typeof HASH_ALGORITHMS): Promise<Uint8Array> => {
    const hash = createHash(HASH_ALGORITHMS[algorithm].nodeName);
    for await (const chunk of await container.openEntry(dataFile.name)) hash.update(chunk as Buffer);
    return new Uint8Array(hash.digest());
  };
  const names = new Set(container.entries.map((e) => e.name));
  const results: SignatureVerification[] = [];
  if (names.has('META-INF/signature.p7s')) {
    const check = await checkCmsSignature(await readEntry(container, 'META-INF/signature.p7s', MAX_SIGNATURE_XML), data);
    results.push(await reportCmsSignature(check, { kind: 'CAdES', anchors }));
  }
  if (names.has('META-INF/timestamp.tst')) {
    results.push(reportTimestamp(await checkTimestampToken(await readEntry(container, 'META-INF/timestamp.tst', MAX_SIGNATURE_XML), anchors, data), null));
  }
  return results;
}

/** An entry read whole, refused unread when its declared size (which the reader holds it to) is above `maxBytes`. */
async function readEntry(container: AsiceContainerReader, name: string, maxBytes: number): Promise<Buffer> {
  const declared = container.entries.find((entry) => entry.name === name)?.entry.uncompressedSize ?? 0;
  if (declared > maxBytes) throw new ContainerTooLargeError(`The container's ${name} is too large to verify: ${declared} bytes, at most ${maxBytes} are read.`, { entry: name, limit: maxBytes });
  const chunks: Buffer[] = [];
  for await (const chunk of await container.openEntry(name)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function verifyXades(xml: Buffer, container: AsiceContainerReader, anchors: readonly x509.X509Certificate[]): Promise<SignatureVerification> {
  if (/<!DOCTYPE/i.test(xml.toString('utf8'))) throw new VerificationError('A signature file declares a DOCTYPE, which XAdES never does.');
  const doc = new DOMParser().parseFromString(xml.toString('utf8'), 'application/xml');
  const element = doc.getElementsByTagNameNS(NS.ds, 'Signature')[0];
  if (!element) throw new VerificationError('A signature file holds no ds:Signature.');
  const signer = new x509.X509Certificate(Buffer.from(text(element, NS.ds, 'X509Certificate').replace(/\s+/g, ''), 'base64'));
  const intact = await xmlSignatureHolds(element, container, signer);
  const token = text(element, NS.xades, 'EncapsulatedTimeStamp');
  const signatureValue = element.getElementsByTagNameNS(NS.ds, 'SignatureValue')[0];
  const timestamp = token && signatureValue ? await checkTimestampToken(Buffer.from(token.replace(/\s+/g, ''), 'base64'), anchors, timestampedBytes(element, signatureValue)) : undefined;
  const trustedTime = timestamp?.valid ? new Date(timestamp.time) : new Date();
  const pool = [...element.getElementsByTagNameNS(NS.ds, 'X509Certificate')].map((c) => new x509.X509Certificate(Buffer.from((c.textContent ?? '').replace(/\s+/g, ''), 'base64')));
  const chain = await checkCertificateChain(signer, pool, anchors, trustedTime);
  const hasValidationData = element.getElementsByTagNameNS(NS.xades, 'RevocationValues').length > 0;
  const issuer = [...pool, ...anchors].find((candidate) => candidate.subject === signer.issuer);
  const revocation = await checkRevocation(signer, issuer, { crls: encapsulated(element, 'EncapsulatedCRLValue'), ocsps: encapsulated(element, 'EncapsulatedOCSPValue') });
  const archived = element.getElementsByTagNameNS('http://uri.etsi.org/01903/v1.4.1#', 'ArchiveTimeStamp').length > 0;
  const timestampReport = timestamp ? { time: timestamp.time, authority: timestamp.authority, valid: timestamp.valid, trusted: timestamp.trusted, problems: timestamp.problems } : null;
  return {
    kind: 'XAdES',
    signer: signer.subject,
    issuer: signer.issuer,
    serialNumber: signer.serialNumber,
    claimedTime: text(element, NS.xades, 'SigningTime') || null,
    reason: text(element, NS.xades, 'CommitmentTypeQualifier') || null,
    level: !timestamp ? 'B-B' : !hasValidationData ? 'B-T' : archived ? 'B-LTA' : 'B-LT',
    intact,
    coversWholeDocument: null,
    chain,
    revocation,
    timestamp: timestampReport,
    valid: intact && chain.trusted && revocation !== 'revoked' && (!timestampReport || (timestampReport.valid && timestampReport.trusted)),
    problems: [
      ...(intact ? [] : ['the signed files or signed properties were changed after signing']),
      ...chain.problems,
      ...(revocation === 'revoked' ? ['the signer certificate is revoked'] : []),
      ...(timestampReport?.problems ?? []),
    ],
  };
}

/**
 * The ds:Signature's references (data files by name, signed properties by id) and its value, by xmldsigjs, with
 * the key of the certificate in its KeyInfo (the one reported as the signer).
 */
/**
 * Verifies with the signer's key alone. KeyInfo also carries the signer's issuers (a full chain), and xmldsigjs
 * would export every certificate's key with the signature's algorithm: an EC root under an RSA signature throws.
 */
class SignerKeySignedXml extends SignedXml {
  readonly #signer: Uint8Array<ArrayBuffer>;
  readonly #container: AsiceContainerReader;

  constructor(document: ConstructorParameters<typeof SignedXml>[0], signer: Uint8Array, container: AsiceContainerReader) {
    super(document);
    this.#signer = Uint8Array.from(signer);
    this.#container = container;
  }

  /**
   * A data file's digest is taken as its entry streams by, never from the whole file in memory: a large entry costs
   * a chunk at a time. A reference to anything but a data file digests nothing, so it cannot match.
   */
  protected override async DigestReference(source: Parameters<SignedXml['DigestReference']>[0], reference: Reference, checkHmac: boolean): Promise<Uint8Array> {
    const uri = reference.Uri ?? '';
    if (uri === '' || uri.startsWith('#') || (reference.Transforms && reference.Transforms.Count > 0)) return super.DigestReference(source, reference, checkHmac);
    const algorithm = Object.values(digestAlgorithms).find((info) => info.xmlUri === reference.DigestMethod.Algorithm);
    if (!algorithm) return super.DigestReference(source, reference, checkHmac);
    const hash = createHash(algorithm.nodeName);
    const name = decodeURIComponent(uri);
    if (this.#container.dataFiles.some((file) => file.name === name)) for await (const chunk of await this.#container.openEntry(name)) hash.update(chunk as Buffer);
    return new Uint8Array(hash.digest());
  }

  protected override async GetPublicKeys(): Promise<Array<Awaited<ReturnType<XmlDsigCertificate['exportKey']>>>> {
    const { algorithm } = CryptoConfig.CreateSignatureAlgorithm(this.XmlSignature.SignedInfo.SignatureMethod);
    return [await new XmlDsigCertificate(this.#signer).exportKey(algorithm)];
  }
}

/** The DER values of XAdES RevocationValues' encapsulated CRLs or OCSP responses. */
function encapsulated(element: Element, name: 'EncapsulatedCRLValue' | 'EncapsulatedOCSPValue'): Uint8Array[] {
  return [...element.getElementsByTagNameNS(NS.xades, name)].map((value) => new Uint8Array(Buffer.from((value.textContent ?? '').replace(/\s+/g, ''), 'base64')));
}

async function xmlSignatureHolds(element: Element, container: AsiceContainerReader, signer: x509.X509Certificate): Promise<boolean> {
  const signed = new SignerKeySignedXml(element.ownerDocument as never, new Uint8Array(signer.rawData), container);
  signed.LoadXml(element as never);
  try {
    return await signed.Verify();
  } catch (error) {
    // A data file too large or damaged to read is said as such; a digest or signature that does not match is not intact.
    if (error instanceof StationError) throw error;
    return false;
  }
}

function text(element: Element, namespace: string, localName: string): string {
  return element.getElementsByTagNameNS(namespace, localName)[0]?.textContent?.trim() ?? '';
}

/**
 * The bytes a XAdES SignatureTimeStamp covers: the ds:SignatureValue element canonicalised with the method the
 * timestamp names (ETSI EN 319 132-1 5.3; inclusive C14N when it names none).
 */
function timestampedBytes(signature: Element, signatureValue: Element): Buffer {
  const stamp = signature.getElementsByTagNameNS(NS.xades, 'SignatureTimeStamp')[0];
  const method = stamp?.getElementsByTagNameNS(NS.ds, 'CanonicalizationMethod')[0]?.getAttribute('Algorithm') ?? '';
  const canonicalizer = new XmlCanonicalizer(method.endsWith('#WithComments'), method.includes('xml-exc-c14n'));
  return Buffer.from(canonicalizer.Canonicalize(signatureValue as unknown as Parameters<XmlCanonicalizer['Canonicalize']>[0]), 'utf8');
}
