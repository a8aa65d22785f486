import * as z from 'zod';

/** One line of the signature audit log (UI, `signing-station audit`). Never document bytes, only digests. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  time: z.string(),
  clientId: z.string().nullable(),
  method: z.string(),
  signer: z.string().nullable(),
  documentName: z.string().nullable(),
  documentDigest: z.string(),
  outcome: z.enum(['signed', 'declined', 'failed']),
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
