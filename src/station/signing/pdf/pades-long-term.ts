import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { AtomicOutputFile } from '../../files/atomic-output-file.js';
import type { HashAlgorithm } from '../../tokens/token.js';
import type { TimestampClient } from '../../tsa/timestamp-client.js';
import { digestAlgorithms } from '../digest-algorithms.js';
import { timestampSignature } from '../signature-timestamp.js';
import { SignatureTooLargeError } from '../signing-errors.js';
import type { ValidationMaterial } from '../validation-material.js';
import { PdfDocumentReader } from './pdf-document-reader.js';
import { buildDssUpdate } from './pdf-dss-update.js';
import { buildSignatureUpdate } from './pdf-signature-update.js';

/** Room for a document timestamp token with its TSA chain. */
const DOCUMENT_TIMESTAMP_SIZE = 16_384;

/** Runs `step` with a reader over what `output` holds so far. */
async function withWrittenFile<T>(output: AtomicOutputFile, step: (reader: PdfDocumentReader) => Promise<T>): Promise<T> {
  const handle = await open(output.tempPath, 'r');
  try {
    return await step(await PdfDocumentReader.open(handle, output.bytesWritten));
  } finally {
    await handle.close();
  }
}

/** B-LT: appends the DSS with the certificates and revocation data of the signature whose /Contents is given. */
export async function appendValidationMaterial(output: AtomicOutputFile, material: ValidationMaterial, signatureContents: Uint8Array): Promise<void> {
  const update = await withWrittenFile(output, (reader) => buildDssUpdate(reader, material, signatureContents));
  await output.write(update);
}

async function hashFile(path: string, length: number, hashAlgorithm: HashAlgorithm): Promise<ReturnType<typeof createHash>> {
  const hash = createHash(digestAlgorithms[hashAlgorithm].nodeName);
  if (length === 0) return hash;
  for await (const chunk of createReadStream(path, { start: 0, end: length - 1, highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash;
}

/**
 * B-LTA: appends a document timestamp (ETSI EN 319 142-1 5.4.3: /Type /DocTimeStamp, /SubFilter /ETSI.RFC3161), an
 * RFC 3161 token over the whole file so far, DSS included, which keeps the validation material provable after the
 * algorithms and certificates in it weaken or expire.
 */
export async function appendDocumentTimestamp(output: AtomicOutputFile, client: TimestampClient, hashAlgorithm: HashAlgorithm): Promise<void> {
  const update = await withWrittenFile(output, (reader) =>
    buildSignatureUpdate(reader, { kind: 'document-timestamp', signerName: '', time: new Date(), visible: false, contentsSize: DOCUMENT_TIMESTAMP_SIZE }),
  );
  const hash = await hashFile(output.tempPath, output.bytesWritten, hashAlgorithm);
  hash.update(update.tail.subarray(0, update.contentsStart));
  hash.update(update.tail.subarray(update.contentsEnd));
  const token = await timestampSignature(client, new Uint8Array(hash.digest()), hashAlgorithm);
  if (token.length > DOCUMENT_TIMESTAMP_SIZE) throw new SignatureTooLargeError(token.length, DOCUMENT_TIMESTAMP_SIZE);
  update.tail.write(Buffer.from(token).toString('hex'), update.contentsStart + 1, 'latin1');
  await output.write(update.tail);
}
