import * as z from 'zod';

const ipOrCidr = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
  error: 'must be an IPv4/IPv6 address or CIDR range, e.g. 127.0.0.1 or 10.0.0.0/8',
});

/** Parses without throwing: validation must answer "invalid", never crash on what `new URL` refuses. */
function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

const isHttp = (url: URL): boolean => url.protocol === 'https:' || url.protocol === 'http:';

const origin = z.string().refine((value) => {
  const url = parseUrl(value);
  return url !== undefined && isHttp(url) && url.origin === value;
}, 'must be an origin: https://host[:port], no path or trailing slash, e.g. https://app.example');

const httpUrl = z.string().refine((value) => {
  const url = parseUrl(value);
  return url !== undefined && isHttp(url);
}, 'must be an http(s) URL, e.g. https://app.example/jwks.json');

/** RFC 6749 3.1.2: absolute, no fragment; custom schemes are allowed for native apps. */
const redirectUri = z.string().refine((value) => {
  const url = parseUrl(value);
  return url !== undefined && url.hash === '' && !value.includes('#');
}, 'must be an absolute URI without a fragment, e.g. https://app.example/callback');

const jwk = z.object({ kty: z.string(), kid: z.string().optional() }).passthrough();

export const clientIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._~-]+$/, 'may contain letters, digits and . _ ~ - only');

/** What an administrator registers for an integrator (docs/service-interface.md#clients). */
export const clientRegistrationInputSchema = z
  .object({
    clientId: clientIdSchema,
    redirectUris: z.array(redirectUri).default([]),
    jwks: z.object({ keys: z.array(jwk).min(1) }).optional(),
    jwksUri: httpUrl.optional(),
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
