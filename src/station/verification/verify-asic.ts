import { createHash, webcrypto } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { Application, CryptoConfig, type Reference, SignedXml, X509Certificate as XmlDsigCertificate, XmlCanonicalizer, XmlDsigC14NTransform } from 'xmldsigjs';
import type { ContainerFile, DocumentVerification, SignatureVerification } from '../../core/schemas/verification-report.js';
import { AsiceContainerReader } from '../signing/asice/asice-container-reader.js';
import { ASICS_MEDIA_TYPE } from '../signing/asice/asic-media-types.js';
import { StationError } from '../../core/errors/station-error.js';
import { checkCmsSignature, type ContentDigest } from './check-cms-signature.js';
import { reportCmsSignature } from './report-cms-signature.js';
import { reportTimestamp } from './report-timestamp.js';
import { x509 } from '../pki/x509.js';
import { checkTimestampToken } from './check-timestamp-token.js';
import { judgeTimestampedSignature } from './judge-timestamped-signature.js';
import type { VerdictFinding } from './verdict-finding.js';
import type { VerificationContext } from './verification-context.js';
import { VerificationError } from './verification-error.js';
import { ContainerTooLargeError } from '../signing/asice/container-too-large-error.js';
import { withFinding } from './with-finding.js';
import { reportUnreadableSignature } from './report-unreadable-signature.js';

const NS = { ds: 'http://www.w3.org/2000/09/xmldsig#', xades: 'http://uri.etsi.org/01903/v1.3.2#' };
const MAX_SIGNATURE_XML = 4 * 1024 * 1024;

Application.setEngine('NodeJS', webcrypto as never);

/** A signature of the container with the data files it names among what it signs (by their names in the container). */
interface CoveringSignature {
  signature: SignatureVerification;
  covers: readonly string[];
}

const C14N_11 = 'http://www.w3.org/2006/12/xml-c14n11';

/**
 * Canonical XML 1.1, which Estonian and Latvian signers name, differs from 1.0 only in how xml:id and xml:base
 * are carried into a document subset, which XAdES signatures do not use; xmldsigjs knows only 1.0, and without
 * this every such signature would look changed.
 */
class C14n11Transform extends XmlDsigC14NTransform {
  override Algorithm = C14N_11;
}
CryptoConfig.RegisterTransform(C14N_11, C14n11Transform);

/**
 * Every signature of an ASiC container: XAdES (ASiC-E, or ASiC-S's signatures.xml) checked by xmldsigjs against the
 * data files; in ASiC-S also a CAdES signature.p7s or an RFC 3161 timestamp.tst over its one data file.
 */
export async function verifyAsic(path: string, context: VerificationContext): Promise<Pick<DocumentVerification, 'format' | 'signatures' | 'files'>> {
  const container = await AsiceContainerReader.open(path, { acceptAsicS: true, lenientMimetype: true, acceptNoDataFile: true }).catch((cause: Error) => {
    // Too large is said as such; anything else is a file that cannot be verified.
    throw cause instanceof ContainerTooLargeError ? cause : new VerificationError(cause.message, { cause });
  });
  try {
    const covering: CoveringSignature[] = [];
    for (const name of container.signatureFiles) {
      covering.push(
        await verifyXades(await readEntry(container, name, MAX_SIGNATURE_XML), container, context).catch((error: Error) => {
          // One unreadable signature fails on its own; a data file too large to read is said as such for the whole file.
          if (error instanceof ContainerTooLargeError) throw error;
          return { signature: reportUnreadableSignature('XAdES', `${name}: ${error.message}`, context.now), covers: [] };
        }),
      );
    }
    const malformed = containerFormFinding(container);
    const asics = container.mediaType === ASICS_MEDIA_TYPE;
    covering.push(...(asics ? await verifyAsicSCms(container, context) : await verifyAsicECades(container, context)));
    return {
      format: asics ? 'asics' : 'asice',
      signatures: covering.map(({ signature }) => withFinding(signature, malformed)),
      files: await containerFiles(container, covering),
    };
  } finally {
    container.close();
  }
}

/** Each data file with its size, SHA-256 (taken as it streams by) and the positions of the signatures naming it. */
async function containerFiles(container: AsiceContainerReader, covering: readonly CoveringSignature[]): Promise<ContainerFile[]> {
  const files: ContainerFile[] = [];
  for (const { name } of container.dataFiles) {
    const size = container.entries.find((entry) => entry.name === name)?.entry.uncompressedSize ?? 0;
    const coveredBy = covering.flatMap(({ covers }, index) => (covers.includes(name) ? [index] : []));
    files.push({ name, size, sha256: (await digestEntry(container, name, 'sha256')).toString('hex'), coveredBy });
  }
  return files;
}

/**
 * What makes a container malformed whatever its signatures say (EN 319 162-1), TOTAL-FAILED/FORMAT_FAILURE for each
 * of them, as the reference validator has it: an ASiC-E with no data file (nothing in it was signed), an ASiC-S
 * with other than one data file, or with it in a folder (its one file lives at the root).
 */
function containerFormFinding(container: AsiceContainerReader): VerdictFinding | undefined {
  const fail = (reason: string): VerdictFinding => ({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason });
  const files = container.dataFiles;
  if (container.mediaType !== ASICS_MEDIA_TYPE) return files.length === 0 ? fail('the container holds no data file: nothing in it is signed') : undefined;
  if (files.length !== 1) return fail(`an ASiC-S container holds exactly one data file; this one holds ${files.length}`);
  return files[0]!.name.includes('/') ? fail(`an ASiC-S container's data file is at its root; ${files[0]!.name} is in a folder`) : undefined;
}

/**
 * ASiC-S's META-INF/signature.p7s (CAdES, detached) and META-INF/timestamp.tst, each over the one data file (the
 * first, in a malformed container with several, whose form then decides).
 */
async function verifyAsicSCms(container: AsiceContainerReader, context: VerificationContext): Promise<CoveringSignature[]> {
  const dataFile = container.dataFiles[0];
  // The data file is digested as it streams, once per algorithm asked for: never held whole.
  const data: ContentDigest = async (algorithm) => {
    if (!dataFile) throw new VerificationError('the container holds no data file');
    return new Uint8Array(await digestEntry(container, dataFile.name, algorithm.nodeName));
  };
  const names = new Set(container.entries.map((e) => e.name));
  const results: SignatureVerification[] = [];
  const covers = dataFile ? [dataFile.name] : [];
  // One that cannot be read (or, in a malformed container, has no data file to check) fails on its own.
  const unreadable = (kind: SignatureVerification['kind']) => (error: Error) => reportUnreadableSignature(kind, error.message, context.now);
  if (names.has('META-INF/signature.p7s')) {
    const check = async () => reportCmsSignature(await checkCmsSignature(await readEntry(container, 'META-INF/signature.p7s', MAX_SIGNATURE_XML), data), { kind: 'CAdES', verification: context });
    results.push(await check().catch(unreadable('CAdES')));
  }
  if (names.has('META-INF/timestamp.tst')) {
    const check = async () => reportTimestamp(await checkTimestampToken(await readEntry(container, 'META-INF/timestamp.tst', MAX_SIGNATURE_XML), context, data, true), null);
    results.push(await check().catch(unreadable('RFC 3161 timestamp')));
  }
  return results.map((signature) => ({ signature, covers }));
}

const ASIC_NS = 'http://uri.etsi.org/02918/v1.2.1#';
const XML_DIGESTS: Readonly<Record<string, string>> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  'http://www.w3.org/2001/04/xmldsig-more#sha224': 'sha224',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};

/**
 * ASiC-E with CAdES (ETSI EN 319 162-1 4.4.3): each META-INF/ASiCManifest*.xml names its signature (a detached CMS
 * over the manifest's bytes) and the data files it covers with their digests. A file it names that is missing is
 * SIGNED_DATA_NOT_FOUND; one whose digest differs is HASH_FAILURE.
 */
async function verifyAsicECades(container: AsiceContainerReader, context: VerificationContext): Promise<CoveringSignature[]> {
  const results: CoveringSignature[] = [];
  const archives = await Promise.all(container.entries.map((e) => e.name).filter((n) => /^META-INF\/ASiCArchiveManifest[^/]*\.xml$/i.test(n)).map((n) => verifyArchiveManifest(container, n, context)));
  const archived = new Set(archives.flatMap((archive) => archive.covers));
  for (const name of container.entries.map((e) => e.name).filter((n) => /^META-INF\/ASiCManifest[^/]*\.xml$/i.test(n))) {
    const manifest = await readEntry(container, name, MAX_SIGNATURE_XML);
    const doc = readManifest(manifest);
    if (!doc) {
      results.push({ signature: reportUnreadableSignature('CAdES', `its manifest ${name} is not an ASiC manifest`, context.now), covers: [] });
      continue;
    }
    const signatureName = doc.getElementsByTagNameNS(ASIC_NS, 'SigReference')[0]?.getAttribute('URI') ?? '';
    if (!container.entries.some((e) => e.name === signatureName)) continue;
    const check = await checkCmsSignature(await readEntry(container, signatureName, MAX_SIGNATURE_XML), async (algorithm) => createHash(algorithm.nodeName).update(manifest).digest());
    const report = await reportCmsSignature(check, { kind: 'CAdES', verification: context, archived: archived.has(signatureName) });
    const covers = [...doc.getElementsByTagNameNS(ASIC_NS, 'DataObjectReference')].map((reference) => decodeURIComponent(reference.getAttribute('URI') ?? ''));
    results.push({ signature: withFinding(report, await manifestReferencesFinding(doc, container, container.dataFiles.map((file) => file.name))), covers });
  }
  return [...results, ...archives.map(({ report, covers }) => ({ signature: report, covers }))];
}

/**
 * An ASiC-E archive manifest (ETSI EN 319 162-1 4.4.3, CAdES long-term archive): an RFC 3161 token, named by its
 * SigReference, over the manifest's bytes; the manifest names with their digests what the token protects (data
 * files, signatures, their manifests, earlier archive manifests). Reported as a timestamp of its own: a reference
 * missing or changed is its finding, as an imprint over other bytes is. Also says which entries it covers.
 */
async function verifyArchiveManifest(container: AsiceContainerReader, name: string, context: VerificationContext): Promise<{ report: SignatureVerification; covers: string[] }> {
  try {
    const manifest = await readEntry(container, name, MAX_SIGNATURE_XML);
    const doc = readManifest(manifest);
    if (!doc) throw new VerificationError(`its archive manifest ${name} is not an ASiC manifest`);
    const tokenName = doc.getElementsByTagNameNS(ASIC_NS, 'SigReference')[0]?.getAttribute('URI') ?? '';
    if (!container.entries.some((e) => e.name === tokenName)) throw new VerificationError(`the archive timestamp ${tokenName || '(none)'} that ${name} names is not in the container`);
    const timestamp = reportTimestamp(await checkTimestampToken(await readEntry(container, tokenName, MAX_SIGNATURE_XML), context, manifest), null);
    const covers = [...doc.getElementsByTagNameNS(ASIC_NS, 'DataObjectReference')].map((reference) => decodeURIComponent(reference.getAttribute('URI') ?? ''));
    return { report: withFinding(timestamp, await manifestReferencesFinding(doc, container, container.entries.map((e) => e.name))), covers };
  } catch (error) {
    return { report: reportUnreadableSignature('RFC 3161 timestamp', (error as Error).message, context.now), covers: [] };
  }
}

/** The manifest's document; undefined when it is not well-formed XML or declares a DOCTYPE (manifests never do). */
function readManifest(bytes: Buffer): ReturnType<DOMParser['parseFromString']> | undefined {
  const text = bytes.toString('utf8');
  if (/<!DOCTYPE/i.test(text)) return undefined;
  try {
    return new DOMParser({ onError: () => undefined }).parseFromString(text, 'application/xml');
  } catch {
    return undefined;
  }
}

/** Whether every file a manifest names (among `present`, the entries it may name) is there with its digest. */
async function manifestReferencesFinding(doc: ReturnType<DOMParser['parseFromString']>, container: AsiceContainerReader, present: readonly string[]): Promise<VerdictFinding | undefined> {
  let missing: VerdictFinding | undefined;
  for (const reference of [...doc.getElementsByTagNameNS(ASIC_NS, 'DataObjectReference')]) {
    const name = decodeURIComponent(reference.getAttribute('URI') ?? '');
    const nodeName = XML_DIGESTS[reference.getElementsByTagNameNS(NS.ds, 'DigestMethod')[0]?.getAttribute('Algorithm') ?? ''];
    const expected = Buffer.from((reference.getElementsByTagNameNS(NS.ds, 'DigestValue')[0]?.textContent ?? '').replace(/\s+/g, ''), 'base64');
    if (!present.includes(name)) {
      missing ??= { indication: 'INDETERMINATE', subIndication: 'SIGNED_DATA_NOT_FOUND', reason: `the signed file ${name} is not in the container` };
      continue;
    }
    if (!nodeName || !(await digestEntry(container, name, nodeName)).equals(expected)) {
      return { indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE', reason: `the signed file ${name} was changed after signing` };
    }
  }
  return missing;
}

/** Each open container's entry digests by algorithm and name: what a signature digested, the file list reuses. */
const entryDigests = new WeakMap<AsiceContainerReader, Map<string, Promise<Buffer>>>();

/**
 * An entry's digest, taken as it streams by (never held whole), once per container, entry and algorithm: the
 * signatures, the manifests and the file list ask for the same SHA-256 of a large data file.
 */
function digestEntry(container: AsiceContainerReader, name: string, nodeName: string): Promise<Buffer> {
  let digests = entryDigests.get(container);
  if (!digests) entryDigests.set(container, (digests = new Map()));
  const key = `${nodeName}\n${name}`;
  let digest = digests.get(key);
  if (!digest) {
    digest = (async () => {
      const hash = createHash(nodeName);
      for await (const chunk of await container.openEntry(name)) hash.update(chunk as Buffer);
      return hash.digest();
    })();
    digests.set(key, digest);
  }
  return digest;
}

/** An entry read whole, refused unread when its declared size (which the reader holds it to) is above `maxBytes`. */
async function readEntry(container: AsiceContainerReader, name: string, maxBytes: number): Promise<Buffer> {
  const declared = container.entries.find((entry) => entry.name === name)?.entry.uncompressedSize ?? 0;
  if (declared > maxBytes) throw new ContainerTooLargeError(`The container's ${name} is too large to verify: ${declared} bytes, at most ${maxBytes} are read.`, { entry: name, limit: maxBytes });
  const chunks: Buffer[] = [];
  for await (const chunk of await container.openEntry(name)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function verifyXades(xml: Buffer, container: AsiceContainerReader, context: VerificationContext): Promise<CoveringSignature> {
  if (/<!DOCTYPE/i.test(xml.toString('utf8'))) throw new VerificationError('A signature file declares a DOCTYPE, which XAdES never does.');
  const doc = new DOMParser().parseFromString(xml.toString('utf8'), 'application/xml');
  const element = doc.getElementsByTagNameNS(NS.ds, 'Signature')[0];
  if (!element) throw new VerificationError('A signature file holds no ds:Signature.');
  const signer = new x509.X509Certificate(Buffer.from(text(element, NS.ds, 'X509Certificate').replace(/\s+/g, ''), 'base64'));
  const integrity = await xmlSignatureHolds(element, container, signer);
  const token = text(element, NS.xades, 'EncapsulatedTimeStamp');
  const signatureValue = element.getElementsByTagNameNS(NS.ds, 'SignatureValue')[0];
  const timestamp = token && signatureValue ? (await checkTimestampToken(Buffer.from(token.replace(/\s+/g, ''), 'base64'), context, timestampedBytes(element, signatureValue))).check : undefined;
  const pool = [...element.getElementsByTagNameNS(NS.ds, 'X509Certificate')].map((c) => new x509.X509Certificate(Buffer.from((c.textContent ?? '').replace(/\s+/g, ''), 'base64')));
  const hasValidationData = element.getElementsByTagNameNS(NS.xades, 'RevocationValues').length > 0;
  const archived = element.getElementsByTagNameNS('http://uri.etsi.org/01903/v1.4.1#', 'ArchiveTimeStamp').length > 0;
  const revocationData = { crls: encapsulated(element, 'EncapsulatedCRLValue'), ocsps: encapsulated(element, 'EncapsulatedOCSPValue') };
  const { chain, revocation, verdict, qualification } = await judgeTimestampedSignature({ integrity, signer, pool, context, timestamp, revocationData });
  const signature: SignatureVerification = {
    kind: 'XAdES',
    signer: signer.subject,
    issuer: signer.issuer,
    serialNumber: signer.serialNumber,
    claimedTime: text(element, NS.xades, 'SigningTime') || null,
    reason: text(element, NS.xades, 'CommitmentTypeQualifier') || null,
    level: !timestamp ? 'B-B' : !hasValidationData ? 'B-T' : archived ? 'B-LTA' : 'B-LT',
    intact: integrity === undefined,
    coversWholeDocument: null,
    chain,
    revocation: revocation.status,
    revocationSource: revocation.source,
    timestamp: timestamp ?? null,
    verdict,
    problems: [...(integrity ? [integrity.reason] : []), ...chain.problems, ...revocation.problems, ...(timestamp?.problems ?? [])],
    ...(qualification ? { qualification } : {}),
  };
  return { signature, covers: dataFileReferences(element) };
}

/** The names SignedInfo references by URI: data files (signed properties are referenced by `#id`). */
function dataFileReferences(signature: Element): string[] {
  const signedInfo = signature.getElementsByTagNameNS(NS.ds, 'SignedInfo')[0];
  const uris = signedInfo ? [...signedInfo.getElementsByTagNameNS(NS.ds, 'Reference')].map((reference) => reference.getAttribute('URI') ?? '') : [];
  return uris.filter((uri) => uri !== '' && !uri.startsWith('#')).map((uri) => decodeURIComponent(uri));
}

/**
 * Verifies with the signer's key alone. KeyInfo also carries the signer's issuers (a full chain), and xmldsigjs
 * would export every certificate's key with the signature's algorithm: an EC root under an RSA signature throws.
 */
class SignerKeySignedXml extends SignedXml {
  readonly #signer: Uint8Array<ArrayBuffer>;
  readonly #container: AsiceContainerReader;
  /** Data files the signature references that the container lacks, as met while verifying. */
  readonly missingFiles: string[] = [];

  constructor(document: ConstructorParameters<typeof SignedXml>[0], signer: Uint8Array, container: AsiceContainerReader) {
    super(document);
    this.#signer = Uint8Array.from(signer);
    this.#container = container;
  }

  /**
   * A data file's digest is taken as its entry streams by (digestEntry, which the file list then reuses), never from
   * the whole file in memory. A reference to anything but a data file digests nothing, so it cannot match.
   */
  protected override async DigestReference(source: Parameters<SignedXml['DigestReference']>[0], reference: Reference, checkHmac: boolean): Promise<Uint8Array> {
    const uri = reference.Uri ?? '';
    if (uri === '' || uri.startsWith('#') || (reference.Transforms && reference.Transforms.Count > 0)) return super.DigestReference(source, reference, checkHmac);
    const nodeName = XML_DIGESTS[reference.DigestMethod.Algorithm ?? ''];
    if (!nodeName) return super.DigestReference(source, reference, checkHmac);
    const name = decodeURIComponent(uri);
    if (this.#container.dataFiles.some((file) => file.name === name)) return new Uint8Array(await digestEntry(this.#container, name, nodeName));
    this.missingFiles.push(name);
    return new Uint8Array(createHash(nodeName).digest());
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

/**
 * The ds:Signature's references (data files by name, signed properties by id) and its value, by xmldsigjs, with
 * the key of the certificate in its KeyInfo (the one reported as the signer): undefined when it holds, else why not
 * (a reference to a file the container lacks is SIGNED_DATA_NOT_FOUND, any other mismatch HASH_FAILURE).
 */
async function xmlSignatureHolds(element: Element, container: AsiceContainerReader, signer: x509.X509Certificate): Promise<VerdictFinding | undefined> {
  const signed = new SignerKeySignedXml(element.ownerDocument as never, new Uint8Array(signer.rawData), container);
  signed.LoadXml(element as never);
  let holds: boolean;
  try {
    holds = await signed.Verify();
  } catch (error) {
    // A data file too large or damaged to read is said as such; a digest or signature that does not match is not intact.
    if (error instanceof StationError) throw error;
    holds = false;
  }
  const [missing] = signed.missingFiles;
  if (missing !== undefined) return { indication: 'INDETERMINATE', subIndication: 'SIGNED_DATA_NOT_FOUND', reason: `the signed file ${missing} is not in the container` };
  return holds ? undefined : { indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE', reason: 'the signed files or signed properties were changed after signing' };
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
