import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { clientRegistrationInputSchema, type ClientRegistrationInput } from '../../core/schemas/client-registration.js';

/** The flag that sets each field of a registration, so errors name what the user typed, not the schema's fields. */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  clientId: '--client-id',
  redirectUris: '--redirect-uri',
  jwks: '--jwks',
  jwksUri: '--jwks-uri',
  allowedIps: '--allowed-ip',
  allowedOrigins: '--allowed-origin',
};

/**
 * Checks a registration with the schema the station and its admin API share, before anything is opened, and
 * answers in flags: "--allowed-ip 999.1.1.1: must be an IPv4/IPv6 address…".
 */
export function checkClientFlags(input: ClientRegistrationInput): void {
  const result = clientRegistrationInputSchema.safeParse(input);
  if (result.success) return;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const [field, index] = issue.path;
    const flag = FLAG_OF_FIELD[String(field)] ?? String(field ?? 'registration');
    const values = input[field as keyof ClientRegistrationInput];
    const value = typeof index === 'number' && Array.isArray(values) ? ` ${String(values[index])}` : '';
    (errors[`${flag}${value}`] ??= []).push(issue.message);
  }
  const summary = Object.entries(errors)
    .map(([flag, messages]) => `${flag}: ${messages.join(', ')}`)
    .join('; ');
  throw new InvalidInputError(`${summary}.`, errors);
}
