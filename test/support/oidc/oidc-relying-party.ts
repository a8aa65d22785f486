// A relying party for the station's OIDC provider: its own RSA key (JWKS with kid, inline or served at a JWKS
// URL), a callback server on 127.0.0.1:0, openid-client v6 configured with private_key_jwt, and a way to forge
// client assertions for the negative cases.
import { createServer, type Server } from 'node:http';
import { randomUUID, webcrypto } from 'node:crypto';
import * as client from 'openid-client';
import { SignJWT, type JWK } from 'jose';
import type { Station } from '../../../src/station/create-station.js';

export interface RelyingParty {
  clientId: string;
  redirectUri: string;
  tokenEndpoint: string;
  kid: string;
  privateKey: CryptoKey;
  config: client.Configuration;
  /** A client assertion with the right claims, changed by `claims`/`header` (undefined removes a member). */
  assertion(claims?: Record<string, unknown>, header?: Record<string, unknown>, key?: CryptoKey): Promise<string>;
  close(): Promise<void>;
}

export interface RelyingPartyOptions {
  clientId?: string;
  /** Register a JWKS URL (served by the RP) instead of an inline JWKS. */
  jwksUri?: boolean;
  secret?: string;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

export async function generateRsaKey(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
}

export async function createRelyingParty(station: Station, options: RelyingPartyOptions = {}): Promise<RelyingParty> {
  const clientId = options.clientId ?? `rp-${randomUUID().slice(0, 8)}`;
  const keys = await generateRsaKey();
  const kid = `${clientId}-key-1`;
  const publicJwk: JWK = { ...((await webcrypto.subtle.exportKey('jwk', keys.publicKey)) as JWK), kid, alg: 'RS256', use: 'sig' };
  delete publicJwk.key_ops;
  delete publicJwk.ext;

  const server = createServer((request, response) => {
    if (request.url === '/jwks.json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end('relying party callback');
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  const redirectUri = `${origin}/cb`;

  await station.data.clients.upsert(
    {
      clientId,
      redirectUris: [redirectUri],
      allowedOrigins: [origin],
      ...(options.jwksUri ? { jwksUri: `${origin}/jwks.json` } : { jwks: { keys: [publicJwk as { kty: string; kid: string }] } }),
    },
    options.secret ? new TextEncoder().encode(options.secret) : undefined,
  );

  const tokenEndpoint = `${station.baseUrl}/oidc/oauth/token`;
  const config = await client.discovery(
    new URL(station.baseUrl),
    clientId,
    { id_token_signed_response_alg: 'RS256' },
    client.PrivateKeyJwt({ key: keys.privateKey, kid }, {
      [client.modifyAssertion]: (_header, payload) => {
        payload.aud = tokenEndpoint;
      },
    }),
    { execute: [client.allowInsecureRequests] },
  );

  return {
    clientId,
    redirectUri,
    tokenEndpoint,
    kid,
    privateKey: keys.privateKey,
    config,
    async assertion(claims = {}, header = {}, key = keys.privateKey) {
      const now = Math.floor(Date.now() / 1000);
      const payload = Object.fromEntries(
        Object.entries({ iss: clientId, sub: clientId, aud: tokenEndpoint, jti: randomUUID(), iat: now, exp: now + 60, ...claims }).filter(([, v]) => v !== undefined),
      );
      const protectedHeader = Object.fromEntries(Object.entries({ alg: 'RS256', kid, typ: 'JWT', ...header }).filter(([, v]) => v !== undefined));
      return new SignJWT(payload).setProtectedHeader(protectedHeader as { alg: string }).sign(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A token request as the interface describes it, with the form fields given (undefined removes one). */
export async function postToken(rp: RelyingParty, fields: Record<string, string | undefined>): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(name, value);
  const response = await fetch(rp.tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
