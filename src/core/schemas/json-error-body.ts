import * as z from 'zod';
import type { WrongPin } from './browser-client-wire.js';

/** After a wrong PIN: what the token said of the tries left (a count where it tells one, else its flags). */
export const wrongPinSchema = z.object({
  wrong: z.literal(true),
  retriesLeft: z.number().int().min(0).optional(),
  countLow: z.boolean(),
  finalTry: z.boolean(),
}) satisfies z.ZodType<WrongPin>;

/** Error body of the service's JSON APIs: `{status:"error", message, errors?}`, plus the station's stable code. */
export const jsonErrorBodySchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  code: z.string().optional(),
  retriable: z.boolean().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** Only what a page may show the person: a cancel after a wrong PIN says what the token told of the tries left. */
  details: z.object({ pin: wrongPinSchema.optional() }).optional(),
});
export type JsonErrorBody = z.infer<typeof jsonErrorBodySchema>;
