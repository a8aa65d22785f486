import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { identityApi } from '../../support/oidc/oidc-identity-api.js';
import { SoftToken } from '../../support/oidc/oidc-soft-token.js';
import { createTestCa, type TestCa } from '../../support/pki/test-pki.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStation } from '../../support/station/test-station.js';
import type { StationConfigInput } from '../../../src/station/config/station-config.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'trusted-issuers-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A trust list file (identity.trustedIssuers) with these PEM texts. */
async function trustList(name: string, ...pems: string[]): Promise<string> {
  const file = join(scratch, name);
  await writeFile(file, pems.join('\n'));
  return file;
}

const SECRET = 'integrator-secret-0123456789';

describe('local ID card / USB token login (identity API, method local-token-login)', () => {
  let station: OidcTestStation;
  let api: ReturnType<typeof identityApi>;
  let card: SoftToken;
  let usbToken: SoftToken;
  beforeAll(async () => {
    const ca = await createTestCa();
    card = await SoftToken.create(ca, 'card', { subject: 'CN=TAMM\\,MARI\\,48912319876,2.5.4.4=TAMM,2.5.4.42=MARI,2.5.4.5=PNOEE-48912319876,C=EE' });
    usbToken = await SoftToken.create(ca, 'usb', { subject: 'CN=KASK\\,JÜRI\\,39001010002,C=LT' });
    const liar = await SoftToken.create(ca, 'liar', { subject: 'CN=VALE\\,VALLY\\,38001010008,2.5.4.4=VALE,2.5.4.42=VALLY,2.5.4.5=PNOEE-38001010008,C=EE', wrongKey: true });
    // Anyone can make a CA and put any name on a token: its certificates are not offered.
    const stranger = await SoftToken.create(await createTestCa('CN=Home-made CA,C=EE'), 'stranger', { subject: 'CN=TAMM\\,MARI\\,48912319876,C=EE' });
    station = await startOidcTestStation({
      config: { mode: 'production', identity: { trustedIssuers: [await trustList('issuers.pem', ca.pem)] } },
      tokens: [card, usbToken, stranger, liar],
    });
    await station.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
    api = identityApi(station.baseUrl, 'shop', SECRET);
  });
  afterAll(() => station?.dispose());
  beforeEach(() => {
    Object.assign(station.prompt, { agree: true, pin: '1234', choice: 0 });
  });

  async function login() {
    const started = await api.start('local-token-login', { country: 'EE' });
    expect(started.status).toBe(200);
    return { nonce: String(started.body.nonce), done: await api.complete('local-token-login', String(started.body.token), 3) };
  }

  it('is real in production mode: the chosen token signs the challenge with its authentication key', async () => {
    const signedBefore = card.signed.length;
    const { nonce, done } = await login();
    expect(Buffer.from(nonce, 'base64').length).toBe(32);
    expect(done.body).toEqual({ status: 'OK', idcode: '48912319876', firstname: 'MARI', lastname: 'TAMM', country: 'EE', birth_date: '1989-12-31', current_login_method: 'local-token-login' });
    const request = card.signed.at(-1)!;
    expect(card.signed.length).toBe(signedBefore + 1);
    expect(request.purpose).toBe('authenticate');
    expect(Buffer.from(request.hash).equals(createHash('sha256').update(Buffer.from(nonce, 'base64')).digest())).toBe(true);

    const choice = station.prompt.choices.at(-1)!;
    expect(choice.purpose).toBe('authenticate');
    expect(choice.candidates.map((candidate) => candidate.tokenId)).toEqual(['card', 'usb', 'liar']);
    expect(station.prompt.confirms.at(-1)).toMatchObject({ purpose: 'authenticate', clientId: 'shop', requester: 'shop' });
    expect(station.prompt.pins.at(-1)).toMatchObject({ tokenLabel: card.label, requester: 'shop' });
  });

  it('takes the identity from the certificate the user chose (common-name form)', async () => {
    station.prompt.choice = 1;
    const { done } = await login();
    expect(done.body).toMatchObject({ status: 'OK', idcode: '39001010002', firstname: 'JÜRI', lastname: 'KASK', country: 'LT', birth_date: '1990-01-01' });
  });

  it('refuses a token whose signature does not verify with its certificate', async () => {
    station.prompt.choice = 2;
    const { done } = await login();
    expect(done.status).toBe(400);
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_SIGNATURE_INVALID' });
  });

  it('a wrong PIN is asked again in place; cancelling then is an error, not a login', async () => {
    const asked = station.prompt.pins.length;
    station.prompt.pinAnswers.push('0000', null);
    const { done } = await login();
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_USER_CANCELLED' });
    expect(station.prompt.pins.length - asked).toBe(2);
  });

  it('declining the station’s consent prompt signs nothing', async () => {
    station.prompt.agree = false;
    const signedBefore = card.signed.length;
    const { done } = await login();
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_USER_CANCELLED' });
    expect(card.signed.length).toBe(signedBefore);
  });

  it('cancelling the certificate choice or the PIN prompt ends the login', async () => {
    station.prompt.choice = null;
    expect((await login()).done.body).toMatchObject({ code: 'ERR_TOKEN_USER_CANCELLED' });
    station.prompt.choice = 0;
    station.prompt.pin = null;
    expect((await login()).done.body).toMatchObject({ code: 'ERR_TOKEN_USER_CANCELLED' });
  });
});

describe('local ID card / USB token login: the certificate issuer must be trusted', () => {
  let ca: TestCa;
  let card: SoftToken;
  beforeAll(async () => {
    ca = await createTestCa();
    card = await SoftToken.create(ca, 'card', { subject: 'CN=TAMM\\,MARI\\,48912319876,2.5.4.4=TAMM,2.5.4.42=MARI,2.5.4.5=PNOEE-48912319876,C=EE' });
  });

  async function startWith(config: Partial<StationConfigInput>) {
    const station = await startOidcTestStation({ config, tokens: [card] });
    await station.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
    Object.assign(station.prompt, { agree: true, pin: '1234', choice: 0 });
    return { station, api: identityApi(station.baseUrl, 'shop', SECRET) };
  }

  it('in production mode, without a trust list, refuses before asking or signing anything', async () => {
    const { station, api } = await startWith({ mode: 'production' });
    try {
      const signedBefore = card.signed.length;
      const started = await api.start('local-token-login', { country: 'EE' });
      expect(started.status).toBe(503);
      expect(started.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_TRUST_NOT_CONFIGURED', message: expect.stringContaining('identity.trustedIssuers') });
      expect(station.prompt.confirms).toHaveLength(0);
      expect(card.signed.length).toBe(signedBefore);
    } finally {
      await station.dispose();
    }
  });

  it('refuses, naming the issuer, when no connected certificate comes from a trusted CA', async () => {
    const other = await createTestCa('CN=Another Issuing CA,C=EE');
    const { station, api } = await startWith({ mode: 'sandbox', identity: { trustedIssuers: [await trustList('other.pem', other.pem)] } });
    try {
      const started = await api.start('local-token-login', { country: 'EE' });
      expect(started.status).toBe(403);
      expect(started.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_ISSUER_NOT_TRUSTED', message: expect.stringContaining('Signing Station Test Root') });
    } finally {
      await station.dispose();
    }
  });

  it('does not start with a trust list that is not PEM, or holds a certificate that is not a CA', async () => {
    const notPem = await trustList('not.pem', 'hello');
    await expect(startTestStation({ identity: { trustedIssuers: [notPem] } })).rejects.toMatchObject({ code: 'ERR_CONFIG_TRUSTED_ISSUERS', message: expect.stringContaining(notPem) });
    const leaf = (await card.listCertificates())[0]!;
    const leafFile = await trustList('leaf.pem', `-----BEGIN CERTIFICATE-----\n${leaf.certificate}\n-----END CERTIFICATE-----`);
    await expect(startTestStation({ identity: { trustedIssuers: [leafFile] } })).rejects.toMatchObject({ code: 'ERR_CONFIG_TRUSTED_ISSUERS', message: expect.stringContaining('is not a CA certificate') });
  });
});
