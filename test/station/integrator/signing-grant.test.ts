import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, type JWTPayload } from 'jose';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { minimalPdf } from '../../support/signing/signing-test-pdfs.js';

const ORIGIN = 'https://shop.example';
const PDF = minimalPdf();
const FILES = [{ fileName: 'contract.pdf', mimeType: 'application/pdf', fileContent: PDF.toString('base64') }];
const GRANTED_FILES = [{ name: 'contract.pdf', sha256: createHash('sha256').update(PDF).digest('hex') }];

// The signing grant of a server that cannot reach the station: checked at the page's prepare before any document
// is stored, each defence refusing on its own.
describe('signing grants: prepare and download from the page of a server that cannot reach the station', () => {
  let station: TestStation;
  let key: KeyObject;
  let stranger: KeyObject;
  let audience: string;

  const grant = ({ iat, exp, ...claims }: JWTPayload = {}, header: Record<string, unknown> = {}, signer: KeyObject = key): Promise<string> =>
    new SignJWT({ origin: ORIGIN, container_type: 'pdf', files: GRANTED_FILES, ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'signing-grant+jwt', ...header })
      .setIssuer('shop')
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(exp ?? '5m')
      .setJti(randomUUID())
      .sign(signer);
  const call = async (path: string, body: unknown, origin = ORIGIN): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${station.baseUrl}/integrator/shop/grant/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const prepare = async (jwt: string, files = FILES, origin = ORIGIN) => call('prepare', { grant: jwt, container_type: 'pdf', files }, origin);
  const documents = async (): Promise<number> => ((await station.data.database.get<{ n: number }>('SELECT count(*) AS n FROM signing_sessions'))!.n);

  beforeAll(async () => {
    station = await startTestStation();
    audience = `${station.baseUrl}/integrator`;
    key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const { d: _d, ...publicJwk } = await exportJWK(key);
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [ORIGIN, 'https://other.example'], jwks: { keys: [{ ...publicJwk, kty: 'EC' }] } });
  });
  afterAll(async () => {
    await station?.dispose();
  });

  it('prepares the granted files and lets only that page download the result, with the token it was given', async () => {
    const prepared = await prepare(await grant());
    expect(prepared).toMatchObject({ status: 200, body: { status: 'OK', doc_id: expect.any(String), download_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
    const { doc_id: docId, download_token: token } = prepared.body as { doc_id: string; download_token: string };
    // Not signed yet: the token is right, the document simply has no signature.
    expect(await call('download', { doc_id: docId, download_token: token })).toMatchObject({ status: 409, body: { code: 'ERR_SESSION_NOT_SIGNED' } });
    const wrongToken = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await call('download', { doc_id: docId, download_token: wrongToken })).toMatchObject({ status: 403, body: { code: 'ERR_INTEGRATOR_DOWNLOAD_DENIED' } });
    expect(await call('download', { doc_id: docId, download_token: token }, 'https://other.example')).toMatchObject({ status: 403, body: { code: 'ERR_INTEGRATOR_DOWNLOAD_DENIED' } });
  });

  it('refuses a grant used twice', async () => {
    const jwt = await grant();
    expect((await prepare(jwt)).status).toBe(200);
    expect(await prepare(jwt)).toMatchObject({ status: 401, body: { code: 'ERR_INTEGRATOR_GRANT_REUSED' } });
  });

  it('refuses files other than the granted ones, before storing anything', async () => {
    const before = await documents();
    const other = [{ ...FILES[0]!, fileContent: minimalPdf('another text').toString('base64') }];
    expect(await prepare(await grant(), other)).toMatchObject({ status: 400, body: { code: 'ERR_INTEGRATOR_GRANT_MISMATCH' } });
    const renamed = [{ ...FILES[0]!, fileName: 'other.pdf' }];
    expect(await prepare(await grant(), renamed)).toMatchObject({ status: 400, body: { code: 'ERR_INTEGRATOR_GRANT_MISMATCH' } });
    expect(await call('prepare', { grant: await grant(), container_type: 'asice', files: FILES })).toMatchObject({ status: 400, body: { code: 'ERR_INTEGRATOR_GRANT_MISMATCH' } });
    expect(await documents()).toBe(before);
  });

  it('refuses a grant made for another page of the same client', async () => {
    const answer = await prepare(await grant(), FILES, 'https://other.example');
    expect(answer).toMatchObject({ status: 401, body: { code: 'ERR_INTEGRATOR_GRANT_INVALID' } });
    expect(answer.body.message).toMatch(/made for https:\/\/shop\.example/);
  });

  it('refuses a grant signed with a key the client did not register', async () => {
    expect(await prepare(await grant({}, {}, stranger))).toMatchObject({ status: 401, body: { code: 'ERR_INTEGRATOR_GRANT_INVALID' } });
  });

  it('refuses a JWT without the grant type: a client assertion of the same client is not a grant', async () => {
    expect(await prepare(await grant({}, { typ: 'JWT' }))).toMatchObject({ status: 401, body: { code: 'ERR_INTEGRATOR_GRANT_INVALID' } });
  });

  it('refuses a grant for another audience, an expired one and one that lives longer than five minutes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forTokenEndpoint = await new SignJWT({ origin: ORIGIN, container_type: 'pdf', files: GRANTED_FILES })
      .setProtectedHeader({ alg: 'ES256', typ: 'signing-grant+jwt' })
      .setIssuer('shop')
      .setAudience(station.baseUrl)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomUUID())
      .sign(key);
    expect(await prepare(forTokenEndpoint)).toMatchObject({ status: 401, body: { code: 'ERR_INTEGRATOR_GRANT_INVALID' } });
    expect(await prepare(await grant({ iat: now - 400, exp: now - 100 }))).toMatchObject({ status: 401, body: { code: 'ERR_INTEGRATOR_GRANT_INVALID' } });
    const longLived = await prepare(await grant({ exp: now + 3600 }));
    expect(longLived).toMatchObject({ status: 401, body: { code: 'ERR_INTEGRATOR_GRANT_INVALID' } });
    expect(longLived.body.message).toMatch(/300 s at most/);
  });

  it('refuses a page of an origin the client did not register before reading the body', async () => {
    expect(await prepare(await grant(), FILES, 'https://evil.example')).toMatchObject({ status: 403 });
  });

  it('says when the client registered no key to check grants with', async () => {
    await station.data.clients.upsert({ clientId: 'keyless', allowedOrigins: [ORIGIN] });
    const response = await fetch(`${station.baseUrl}/integrator/keyless/grant/prepare`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ grant: await grant(), container_type: 'pdf', files: FILES }),
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'ERR_INTEGRATOR_NO_KEY', message: expect.stringMatching(/--jwks FILE/) });
  });

  it('takes the key from the client’s registered JWKS URL when it registered one instead of the keys', async () => {
    const { d: _d, ...publicJwk } = await exportJWK(key);
    let fetched = 0;
    const jwksServer = createServer((_request, response) => {
      fetched += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    try {
      await station.data.clients.upsert({ clientId: 'remote-keys', allowedOrigins: [ORIGIN], jwksUri: `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json` });
      const jwt = await new SignJWT({ origin: ORIGIN, container_type: 'pdf', files: GRANTED_FILES })
        .setProtectedHeader({ alg: 'ES256', typ: 'signing-grant+jwt' })
        .setIssuer('remote-keys')
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('5m')
        .setJti(randomUUID())
        .sign(key);
      const response = await fetch(`${station.baseUrl}/integrator/remote-keys/grant/prepare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ grant: jwt, container_type: 'pdf', files: FILES }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(fetched).toBe(1);
    } finally {
      await new Promise((resolve) => jwksServer.close(resolve));
    }
  });
});
