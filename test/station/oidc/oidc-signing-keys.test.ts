import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as client from 'openid-client';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { createRelyingParty, type RelyingParty } from '../../support/oidc/oidc-relying-party.js';
import { loginOverHttp } from '../../support/oidc/oidc-http-login.js';
import { startTestStation } from '../../support/station/test-station.js';

describe('ID token signing keys: vault storage, rotation, retirement', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  let offsetMs = 0;
  beforeAll(async () => {
    station = await startOidcTestStation({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
    rp = await createRelyingParty(station);
  });
  afterAll(async () => {
    await rp?.close();
    await station?.dispose();
  });

  const jwks = async (): Promise<JSONWebKeySet> => (await (await fetch(`${station.baseUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
  const idToken = async (): Promise<string> => {
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: rp.redirectUri, scope: 'openid', state, nonce });
    const { callback } = await loginOverHttp(station.baseUrl, url, { method: 'smartid', idcode: '30303039914', country: 'EE' });
    const tokens = await client.authorizationCodeGrant(rp.config, callback, { expectedNonce: nonce, expectedState: state });
    return tokens.id_token!;
  };

  it('keeps the private key only encrypted: the store file holds no private JWK member', async () => {
    const token = await idToken();
    const { kid } = decodeProtectedHeader(token);
    const secret = await station.data.vault.get(`oidc-signing-key:${kid}`);
    expect(secret).not.toBeNull();
    const jwk = JSON.parse(new TextDecoder().decode(secret!)) as { d: string; p: string };
    const files = await Promise.all(['station.sqlite', 'station.sqlite-wal'].map((name) => readFile(join(station.dataDir, name)).catch(() => Buffer.alloc(0))));
    for (const file of files) {
      expect(file.includes(Buffer.from(jwk.d))).toBe(false);
      expect(file.includes(Buffer.from(jwk.p))).toBe(false);
    }
  });

  it('rotates: new tokens use the new key, the old key stays published until its tokens expire, then leaves', async () => {
    const before = await idToken();
    const oldKid = decodeProtectedHeader(before).kid!;
    const newKid = await station.oidc.rotateSigningKey();
    expect(newKid).not.toBe(oldKid);

    const published = await jwks();
    expect(published.keys.map((key) => key.kid).sort()).toEqual([oldKid, newKid].sort());
    const after = await idToken();
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    // A relying party holding the earlier token still verifies it against the published set.
    await jwtVerify(before, createLocalJWKSet(published), { issuer: station.baseUrl, audience: rp.clientId });
    await jwtVerify(after, createLocalJWKSet(published), { issuer: station.baseUrl, audience: rp.clientId });

    offsetMs = (station.oidc.lifetimes.idToken + 300 + 1) * 1000;
    const later = await jwks();
    expect(later.keys.map((key) => key.kid)).toEqual([newKid]);
    expect(await station.data.vault.get(`oidc-signing-key:${oldKid}`)).toBeNull();
    offsetMs = 0;
  });
});

describe('ID token signing keys across a restart', () => {
  it('keeps the same key', async () => {
    const first = await startOidcTestStation();
    const kids = async (baseUrl: string) => ((await (await fetch(`${baseUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet).keys.map((key) => key.kid);
    const before = await kids(first.baseUrl);
    await first.close();
    const second = await startTestStation({ dataDir: first.dataDir });
    try {
      expect(await kids(second.baseUrl)).toEqual(before);
    } finally {
      await second.dispose();
    }
  });
});
