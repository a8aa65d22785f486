import * as z from 'zod';

/** Error body of the service's JSON APIs: `{status:"error", message, errors?}`, plus the station's stable code. */
export const jsonErrorBodySchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  code: z.string().optional(),
  retriable: z.boolean().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type JsonErrorBody = z.infer<typeof jsonErrorBodySchema>;
