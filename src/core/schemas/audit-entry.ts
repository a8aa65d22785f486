import * as z from 'zod';

/** One line of the signature audit log (UI, `signing-station audit`). Never document bytes, only digests. */
/** What started a signature attempt: the command line, the station's own window, or a web page (by its origin). */
export const auditSourceSchema = z.enum(['cli', 'window', 'web-page']);
export type AuditSource = z.infer<typeof auditSourceSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  time: z.string(),
  clientId: z.string().nullable(),
  method: z.string(),
  signer: z.string().nullable(),
  documentName: z.string().nullable(),
  documentDigest: z.string(),
  /** Every file the attempt covered (all files of a new container); just the one document otherwise. */
  files: z.array(z.object({ name: z.string(), sha256: z.string() })),
  /** `started`: an attempt that never completed (the process was killed or is still at work). */
  outcome: z.enum(['signed', 'declined', 'failed', 'started', 'cancelled']),
  detail: z.string().nullable(),
  source: auditSourceSchema,
  /** The requesting page's origin for web pages; null for the CLI and the window. */
  requester: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
