import { createHash } from 'node:crypto';
import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import type { VerificationDigest } from './verification-digests.js';
import { checkCmsSignature } from './check-cms-signature.js';
import { checkTimestampToken } from './check-timestamp-token.js';
import { reportTimestamp } from './report-timestamp.js';
import { readPdfSignatures, type PdfSignatureField, type PdfSignatures } from './read-pdf-signatures.js';
import { reportCmsSignature } from './report-cms-signature.js';
import type { VerificationContext } from './verification-context.js';
import { checkByteRange } from './check-byte-range.js';
import { reportUnreadableSignature } from './report-unreadable-signature.js';
import { withFinding } from './with-finding.js';
import { checkPdfChanges, type PdfChangesCheck } from './check-pdf-changes.js';
import { VerificationError } from './verification-error.js';

const DOCUMENT_TIMESTAMP = 'ETSI.RFC3161';
const RECOVERED = 'the document’s cross-reference data is damaged: its objects were found by scanning the file';

/** Every signature and document timestamp of a PDF, in the order they were added. */
export async function verifyPdf(path: string, context: VerificationContext): Promise<SignatureVerification[]> {
  const pdf = await readPdfSignatures(path).catch((cause: Error) => {
    // The reader is the signer's too; a file it cannot read is answered in verification's terms.
    throw new VerificationError(`The PDF cannot be read for verification: ${cause.message}`, { cause });
  });
  try {
    const fields = [...pdf.fields].sort((a, b) => a.byteRange[3] + a.byteRange[2] - (b.byteRange[3] + b.byteRange[2]));
    const results: SignatureVerification[] = [];
    for (const [index, field] of fields.entries()) {
      const archived = fields.slice(index + 1).some((later) => later.subFilter === DOCUMENT_TIMESTAMP);
      const isTimestamp = field.subFilter === DOCUMENT_TIMESTAMP;
      try {
        const report = isTimestamp ? await verifyDocumentTimestamp(pdf, field, context) : await verifySignature(pdf, field, context, archived);
        const checked = withFinding(await withChanges(report, pdf, field), await checkByteRange(pdf, field.byteRange, field.cms));
        results.push(pdf.recovered ? { ...checked, problems: [...checked.problems, RECOVERED] } : checked);
      } catch (error) {
        results.push(reportUnreadableSignature(isTimestamp ? 'RFC 3161 timestamp' : 'PAdES', (error as Error).message, context.now));
      }
    }
    return results;
  } finally {
    await pdf.close();
  }
}

async function rangesDigest(pdf: PdfSignatures, field: PdfSignatureField, algorithm: VerificationDigest): Promise<Uint8Array> {
  const hash = createHash(algorithm.nodeName);
  await pdf.readRanges(field, (chunk) => hash.update(chunk));
  return hash.digest();
}

/**
 * What later revisions changed after a signature that does not cover the whole file, and what that does to its
 * verdict; a signed revision that cannot be read is said so and leaves the verdict as it is.
 */
async function withChanges(report: SignatureVerification, pdf: PdfSignatures, field: PdfSignatureField): Promise<SignatureVerification> {
  if (coversWhole(pdf, field)) return report;
  let check: PdfChangesCheck;
  try {
    check = await checkPdfChanges(await pdf.revision(field.byteRange[2] + field.byteRange[3]), pdf.reader, field.lock);
  } catch (error) {
    return { ...report, problems: [...report.problems, `the revision this signature signed cannot be read to compare with later ones: ${(error as Error).message}`] };
  }
  const changed = withFinding(report, check.finding);
  return { ...changed, problems: [...changed.problems, ...check.notes], changesAfterSigning: check.changes };
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
