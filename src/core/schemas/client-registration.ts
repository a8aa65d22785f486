import * as z from 'zod';

const ipOrCidr = z
  .string()
  .regex(/^[0-9a-fA-F:.]+(\/\d{1,3})?$/, 'must be an IPv4/IPv6 address or CIDR range');

const origin = z
  .string()
  .url()
  .refine((value) => new URL(value).origin === value, 'must be an origin: scheme://host[:port], no path');

const jwk = z.object({ kty: z.string(), kid: z.string().optional() }).passthrough();

export const clientIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._~-]+$/, 'may contain letters, digits and . _ ~ - only');

/** What an administrator registers for an integrator (SERVICE-INTERFACE 2.1, 5.6). */
export const clientRegistrationInputSchema = z
  .object({
    clientId: clientIdSchema,
    redirectUris: z.array(z.string().url()).default([]),
    jwks: z.object({ keys: z.array(jwk).min(1) }).optional(),
    jwksUri: z.string().url().optional(),
    allowedIps: z.array(ipOrCidr).default([]),
    allowedOrigins: z.array(origin).default([]),
  })
  .refine((c) => !(c.jwks && c.jwksUri), { message: 'give either jwks or jwksUri, not both', path: ['jwks'] });
export type ClientRegistrationInput = z.input<typeof clientRegistrationInputSchema>;

/** A registered client as the station reports it: the secret itself never leaves the keychain-backed vault. */
export const clientRegistrationSchema = z.object({
  clientId: clientIdSchema,
  redirectUris: z.array(z.string()),
  jwks: z.object({ keys: z.array(jwk) }).optional(),
  jwksUri: z.string().optional(),
  allowedIps: z.array(z.string()),
  allowedOrigins: z.array(z.string()),
  hasSecret: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClientRegistration = z.infer<typeof clientRegistrationSchema>;
