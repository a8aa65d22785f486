import type * as z from 'zod';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';

/** Parses untrusted input; failures become one InvalidInputError listing every bad field. */
export function parseZod<Schema extends z.ZodType>(schema: Schema, input: unknown, message: string): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '(root)';
    (errors[field] ??= []).push(issue.message);
  }
  const summary = Object.entries(errors)
    .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
    .join('; ');
  throw new InvalidInputError(`${message}: ${summary}`, errors);
}
