import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { DocumentVerification } from '../../core/schemas/verification-report.js';
import { AsiceContainerReader } from '../signing/asice/asice-container-reader.js';
import { readTimestampReply } from '../tsa/timestamp-reply-reader.js';
import type { x509 } from '../pki/x509.js';
import { checkCmsSignature } from './check-cms-signature.js';
import { checkTimestampToken } from './check-timestamp-token.js';
import { reportCmsSignature } from './report-cms-signature.js';
import { VerificationError } from './verification-error.js';
import { verifyAsic } from './verify-asic.js';
import { verifyPdf } from './verify-pdf.js';
import { reportTimestamp } from './report-timestamp.js';
import { HASH_ALGORITHMS } from '../pki/hash-algorithms.js';

export interface VerifyOptions {
  /** Trust anchors: the station's trust list, a PEM bundle, an NSS database's CAs. */
  anchors: readonly x509.X509Certificate[];
  /** The signed data of a detached CMS (.p7s) or of a timestamp (.tsr); default: the file name without that extension. */
  data?: string;
}

const MAX_CMS_BYTES = 16 * 1024 * 1024;

/**
 * Verifies every signature of a file the station reads: PAdES (PDF), ASiC-E and ASiC-S (XAdES, or CAdES in
 * ASiC-S), a detached CMS (.p7s) and an RFC 3161 timestamp (.tsr reply or .tst token). One implementation for the
 * CLI's `verify` and the window.
 */
export async function verifyDocument(path: string, options: VerifyOptions): Promise<DocumentVerification> {
  const head = await readHead(path);
  const { format, signatures } = await dispatch(path, head, options);
  return { file: basename(path), format, signatures, valid: signatures.length > 0 && signatures.every((s) => s.valid) };
}

async function dispatch(path: string, head: Buffer, options: VerifyOptions): Promise<Pick<DocumentVerification, 'format' | 'signatures'>> {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return { format: 'pdf', signatures: await verifyPdf(path, options.anchors) };
  if (AsiceContainerReader.looksLikeContainer(head)) return verifyAsic(path, options.anchors);
  if (head[0] === 0x30) return verifyDer(path, options);
  throw new VerificationError(`${basename(path)} is not a signed PDF, ASiC container, CMS signature or timestamp.`);
}

async function verifyDer(path: string, options: VerifyOptions): Promise<Pick<DocumentVerification, 'format' | 'signatures'>> {
  const der = await readBounded(path);
  const token = tokenOf(der);
  const dataPath = options.data ?? (['.p7s', '.tsr', '.tst', '.p7m'].includes(extname(path).toLowerCase()) ? path.slice(0, -extname(path).length) : undefined);
  if (token) {
    const found = dataPath !== undefined && (await stat(dataPath).catch(() => undefined))?.isFile() === true;
    const timestamp = await checkTimestampToken(token, options.anchors, found ? (algorithm) => hashFile(dataPath, HASH_ALGORITHMS[algorithm].nodeName) : undefined);
    if (!found) timestamp.problems.push('the timestamped file was not found: give it with --data FILE');
    return { format: 'timestamp', signatures: [reportTimestamp({ ...timestamp, valid: timestamp.valid && found }, null)] };
  }
  const check = await checkCmsSignature(der, async (algorithm) => {
    if (!dataPath) throw new VerificationError('This CMS signature is detached: give the signed file with --data FILE.');
    return hashFile(dataPath, HASH_ALGORITHMS[algorithm].nodeName);
  });
  return { format: 'cms', signatures: [await reportCmsSignature(check, { kind: 'CAdES', anchors: options.anchors })] };
}

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

