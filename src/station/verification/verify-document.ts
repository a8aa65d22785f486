import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { DocumentVerification, SignatureVerification } from '../../core/schemas/verification-report.js';
import { readTimestampReply } from '../tsa/timestamp-reply-reader.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { TrustSource } from '../ports/trust-source.js';
import { worstIndication } from '../../core/verification/worst-indication.js';
import { checkCmsSignature } from './check-cms-signature.js';
import { checkTimestampToken, type TimestampTokenCheck } from './check-timestamp-token.js';
import type { VerificationContext } from './verification-context.js';
import { reportCmsSignature } from './report-cms-signature.js';
import { VerificationError } from './verification-error.js';
import { verifyAsic } from './verify-asic.js';
import { verifyPdf } from './verify-pdf.js';
import { reportTimestamp } from './report-timestamp.js';

export interface VerifyOptions {
  /** Where trust anchors come from: the station's trust list, PEM bundles, NSS databases, its own TSA. */
  trust: TrustSource;
  /** The validation time's source; the system clock by default. */
  clock?: Clock;
  /** The signed data of a detached CMS (.p7s) or of a timestamp (.tsr); default: the file name without that extension. */
  data?: string;
  /** Never fetch revocation data: only what signatures embed counts. */
  offline?: boolean;
}

const MAX_CMS_BYTES = 16 * 1024 * 1024;

/**
 * Verifies every signature of a file the station reads: PAdES (PDF), ASiC-E and ASiC-S (XAdES, or CAdES in
 * ASiC-S), a detached CMS (.p7s) and an RFC 3161 timestamp (.tsr reply or .tst token). One implementation for the
 * CLI's `verify` and the window.
 */
export async function verifyDocument(path: string, options: VerifyOptions): Promise<DocumentVerification> {
  const head = await readHead(path);
  const context: VerificationContext = { trust: options.trust, now: (options.clock ?? systemClock).now(), fetchRevocation: options.offline !== true };
  const { format, signatures, files } = await dispatch(path, head, context, options.data);
  return { file: basename(path), format, signatures, validatedAt: context.now.toISOString(), indication: documentIndication(signatures), ...(files ? { files } : {}) };
}

/**
 * The document's indication is its signatures': a document timestamp over them that does not hold (a token copied
 * from another file) is failed on its own line and takes away only the proof it would have added, as the reference
 * validator judges it. Timestamps decide only a document that holds nothing else (a .tsr, a timestamped PDF).
 */
function documentIndication(signatures: readonly SignatureVerification[]): DocumentVerification['indication'] {
  const signed = signatures.filter((s) => s.kind !== 'RFC 3161 timestamp');
  return worstIndication((signed.length > 0 ? signed : signatures).map((s) => s.verdict.indication));
}

async function dispatch(path: string, head: Buffer, context: VerificationContext, data: string | undefined): Promise<Pick<DocumentVerification, 'format' | 'signatures' | 'files'>> {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return { format: 'pdf', signatures: await verifyPdf(path, context) };
  if (isZip(head)) return verifyAsic(path, context);
  if (head[0] === 0x30) return verifyDer(path, context, data);
  throw new VerificationError(`${basename(path)} is not a signed PDF, ASiC container, CMS signature or timestamp.`);
}

async function verifyDer(path: string, context: VerificationContext, data: string | undefined): Promise<Pick<DocumentVerification, 'format' | 'signatures'>> {
  const der = await readBounded(path);
  const token = tokenOf(der);
  const dataPath = data ?? (['.p7s', '.tsr', '.tst', '.p7m'].includes(extname(path).toLowerCase()) ? path.slice(0, -extname(path).length) : undefined);
  if (token) {
    const found = dataPath !== undefined && (await stat(dataPath).catch(() => undefined))?.isFile() === true;
    const timestamp = await checkTimestampToken(token, context, found ? (algorithm) => hashFile(dataPath, algorithm.nodeName) : undefined, true);
    return { format: 'timestamp', signatures: [reportTimestamp(found ? timestamp : withoutData(timestamp), null)] };
  }
  const check = await checkCmsSignature(der, async (algorithm) => {
    if (!dataPath) throw new VerificationError('This CMS signature is detached: give the signed file with --data FILE.');
    return hashFile(dataPath, algorithm.nodeName);
  });
  return { format: 'cms', signatures: [await reportCmsSignature(check, { kind: 'CAdES', verification: context })] };
}

/** A timestamp whose data is not at hand proves nothing about it: INDETERMINATE/SIGNED_DATA_NOT_FOUND. */
function withoutData({ check, tstInfo }: TimestampTokenCheck): TimestampTokenCheck {
  const reason = 'the timestamped file was not found: give it with --data FILE';
  const verdict = check.verdict.indication === 'TOTAL-FAILED' ? check.verdict : { ...check.verdict, indication: 'INDETERMINATE' as const, subIndication: 'SIGNED_DATA_NOT_FOUND' as const, reason, advice: null };
  return { check: { ...check, valid: false, problems: [...check.problems, reason], verdict }, ...(tstInfo ? { tstInfo } : {}) };
}

/** Any zip is read as an ASiC container: others' containers need not start with their mimetype, or have one. */
const isZip = (head: Buffer): boolean => head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;

/** A TimeStampResp's token, or the file itself when it is a token; undefined for other CMS. */
function tokenOf(der: Uint8Array): Uint8Array | undefined {
  try {
    const reply = readTimestampReply(der);
    if (reply.token) return reply.token;
  } catch {
    // not a TimeStampResp: maybe a bare token, checked below by its content type
  }
  return isTimestampToken(der) ? der : undefined;
}

function isTimestampToken(der: Uint8Array): boolean {
  // id-ct-TSTInfo, DER-encoded, near the start of a token's SignedData.
  return Buffer.from(der.subarray(0, 64)).includes(Buffer.from('060b2a864886f70d0109100104', 'hex'));
}

async function hashFile(path: string, algorithm: string): Promise<Uint8Array> {
  const hash = createHash(algorithm);
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (cause) {
    throw new VerificationError(`The signed file ${path} cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'error'}): give it with --data FILE.`, { cause });
  }
  return hash.digest();
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await file.read(head, 0, 64, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

async function readBounded(path: string): Promise<Uint8Array> {
  const bytes = await readFile(path);
  if (bytes.length > MAX_CMS_BYTES) throw new VerificationError(`${basename(path)} is too large for a CMS signature or timestamp.`);
  return bytes;
}

