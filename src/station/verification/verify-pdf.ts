import { createHash } from 'node:crypto';
import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import { checkCmsSignature } from './check-cms-signature.js';
import { checkTimestampToken } from './check-timestamp-token.js';
import { reportTimestamp } from './report-timestamp.js';
import { readPdfSignatures, type PdfSignatureField, type PdfSignatures } from './read-pdf-signatures.js';
import { reportCmsSignature } from './report-cms-signature.js';
import type { VerificationContext } from './verification-context.js';

const DOCUMENT_TIMESTAMP = 'ETSI.RFC3161';

/** Every signature and document timestamp of a PDF, in the order they were added. */
export async function verifyPdf(path: string, context: VerificationContext): Promise<SignatureVerification[]> {
  const pdf = await readPdfSignatures(path);
  try {
    const fields = [...pdf.fields].sort((a, b) => a.byteRange[3] + a.byteRange[2] - (b.byteRange[3] + b.byteRange[2]));
    const results: SignatureVerification[] = [];
    for (const [index, field] of fields.entries()) {
      const archived = fields.slice(index + 1).some((later) => later.subFilter === DOCUMENT_TIMESTAMP);
      results.push(field.subFilter === DOCUMENT_TIMESTAMP ? await verifyDocumentTimestamp(pdf, field, context) : await verifySignature(pdf, field, context, archived));
    }
    return results;
  } finally {
    await pdf.close();
  }
}

async function rangesDigest(pdf: PdfSignatures, field: PdfSignatureField, algorithm: HashAlgorithm): Promise<Uint8Array> {
  const hash = createHash(HASH_ALGORITHMS[algorithm].nodeName);
  await pdf.readRanges(field, (chunk) => hash.update(chunk));
  return hash.digest();
}

const coversWhole = (pdf: PdfSignatures, field: PdfSignatureField): boolean => field.byteRange[2] + field.byteRange[3] === pdf.size;

async function verifySignature(pdf: PdfSignatures, field: PdfSignatureField, context: VerificationContext, archived: boolean): Promise<SignatureVerification> {
  const check = await checkCmsSignature(field.cms, (algorithm) => rangesDigest(pdf, field, algorithm));
  return reportCmsSignature(check, {
    kind: 'PAdES',
    verification: context,
    reason: field.reason,
    claimedTime: field.claimedTime,
    coversWholeDocument: coversWhole(pdf, field),
    ...(pdf.dss ? { extraCrls: pdf.dss.crls, extraOcsps: pdf.dss.ocsps } : {}),
    archived,
  });
}

/** A document timestamp (B-LTA): a timestamp token whose imprint is the hash of the byte ranges. */
async function verifyDocumentTimestamp(pdf: PdfSignatures, field: PdfSignatureField, context: VerificationContext): Promise<SignatureVerification> {
  const timestamp = await checkTimestampToken(field.cms, context, (algorithm) => rangesDigest(pdf, field, algorithm));
  return reportTimestamp(timestamp, coversWhole(pdf, field));
}
