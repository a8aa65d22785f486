import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { identityApi } from '../../support/oidc/oidc-identity-api.js';
import { createTestCa, createTestSigner } from '../../support/pki/test-pki.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../../support/pkcs11/pkcs11-softhsm.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStation } from '../../support/station/test-station.js';
import type { StationConfigInput } from '../../../src/station/config/station-config.js';

// The identity decisions of local-token-login (consent, choice, PIN, possession, trust) with real SoftHSM2 tokens.
// test/station/identity/local-token-login-softhsm.test.ts covers RSA and EC keys and the token's own PIN refusal.
let scratch: string;
let softhsm: SoftHsm;
const CARD_SUBJECT = 'CN=TAMM\\,MARI\\,48912319876,2.5.4.4=TAMM,2.5.4.42=MARI,2.5.4.5=PNOEE-48912319876,C=EE';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'trusted-issuers-'));
  softhsm = await createSoftHsm();
  await softhsm.createToken('ID card', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'authentication', subject: CARD_SUBJECT }]);
  await softhsm.createToken('USB token', '1234', [{ id: '02', algorithm: 'P-256', usage: 'authentication', subject: 'CN=KASK\\,JÜRI\\,39001010002,C=LT' }]);
  await softhsm.createToken('Liar', '1234', [
    { id: '03', algorithm: 'RSA-2048', usage: 'authentication', certifiesAnotherKey: true, subject: 'CN=VALE\\,VALLY\\,38001010008,2.5.4.4=VALE,2.5.4.42=VALLY,2.5.4.5=PNOEE-38001010008,C=EE' },
  ]);
  // Anyone can make a CA and put any name on a token: its certificates are not offered.
  const homeMade = await createTestCa('CN=Home-made CA,C=EE');
  await softhsm.createToken('Stranger', '1234', [{ id: '04', algorithm: 'RSA-2048', usage: 'authentication', issuer: homeMade, subject: 'CN=TAMM\\,MARI\\,48912319876,C=EE' }]);
});
afterAll(async () => {
  await softhsm?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

/** A trust list file (identity.trustedIssuers) with these PEM texts. */
async function trustList(name: string, ...pems: string[]): Promise<string> {
  const file = join(scratch, name);
  await writeFile(file, pems.join('\n'));
  return file;
}

/** A station over the SoftHSM tokens; a login's token session ends with it, so every test's PIN reaches the token. */
function startStation(config: Partial<StationConfigInput>): Promise<OidcTestStation> {
  return startOidcTestStation({ config }, { tokenSources: [softHsmTokenSource({ loginIdleMs: 0 })] });
}

const SECRET = 'integrator-secret-0123456789';

describe('local ID card / USB token login (identity API, method local-token-login)', () => {
  let station: OidcTestStation;
  let api: ReturnType<typeof identityApi>;
  beforeAll(async () => {
    station = await startStation({ mode: 'production', identity: { trustedIssuers: [await trustList('issuers.pem', softhsm.ca.pem)] } });
    await station.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
    api = identityApi(station.baseUrl, 'shop', SECRET);
  });
  afterAll(() => station?.dispose());
  beforeEach(() => {
    station.prompt.pinAnswers.length = 0;
    Object.assign(station.prompt, { agree: true, pin: '1234', choice: 'TAMM' });
  });

  async function login() {
    const started = await api.start('local-token-login', { country: 'EE' });
    expect(started.status).toBe(200);
    return { nonce: String(started.body.nonce), done: await api.complete('local-token-login', String(started.body.token), 5) };
  }

  it('is real in production mode: the chosen token signs the challenge with its authentication key', async () => {
    const { nonce, done } = await login();
    expect(Buffer.from(nonce, 'base64').length).toBe(32);
    expect(done.body).toEqual({ status: 'OK', idcode: '48912319876', firstname: 'MARI', lastname: 'TAMM', country: 'EE', birth_date: '1989-12-31', current_login_method: 'local-token-login' });

    const choice = station.prompt.choices.at(-1)!;
    expect(choice.purpose).toBe('authenticate');
    // The stranger's certificate (a home-made CA) is not offered.
    expect(choice.candidates).toHaveLength(3);
    for (const candidate of choice.candidates) expect(candidate.issuer).toContain('Signing Station Test Root');
    expect(station.prompt.confirms.at(-1)).toMatchObject({ purpose: 'authenticate', clientId: 'shop', requester: 'shop' });
    expect(station.prompt.pins.at(-1)).toMatchObject({ tokenLabel: 'ID card', requester: 'shop' });
  });

  it('takes the identity from the certificate the user chose (common-name form)', async () => {
    station.prompt.choice = 'KASK';
    const { done } = await login();
    expect(done.body).toMatchObject({ status: 'OK', idcode: '39001010002', firstname: 'JÜRI', lastname: 'KASK', country: 'LT', birth_date: '1990-01-01' });
  });

  it('refuses a token whose signature does not verify with its certificate', async () => {
    station.prompt.choice = 'VALE';
    const { done } = await login();
    expect(done.status).toBe(400);
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_SIGNATURE_INVALID' });
  });

  it('a wrong PIN is asked again in place; cancelling then is an error, not a login', async () => {
    const asked = station.prompt.pins.length;
    station.prompt.pinAnswers.push('0000', null);
    const { done } = await login();
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_USER_CANCELLED' });
    expect(station.prompt.pins.slice(asked)).toEqual([
      expect.objectContaining({ tokenLabel: 'ID card', previousAttemptFailed: false }),
      expect.objectContaining({ tokenLabel: 'ID card', previousAttemptFailed: true }),
    ]);
  });

  it('declining the station’s consent prompt signs nothing: the token is never unlocked', async () => {
    station.prompt.agree = false;
    const asked = station.prompt.pins.length;
    const { done } = await login();
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_USER_CANCELLED' });
    expect(station.prompt.pins.length).toBe(asked);
  });

  it('cancelling the certificate choice or the PIN prompt ends the login', async () => {
    station.prompt.choice = null;
    expect((await login()).done.body).toMatchObject({ code: 'ERR_TOKEN_USER_CANCELLED' });
    station.prompt.choice = 'TAMM';
    station.prompt.pin = null;
    expect((await login()).done.body).toMatchObject({ code: 'ERR_TOKEN_USER_CANCELLED' });
  });
});

describe('local ID card / USB token login: the certificate issuer must be trusted', () => {
  async function startWith(config: Partial<StationConfigInput>) {
    const station = await startStation(config);
    await station.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
    Object.assign(station.prompt, { agree: true, pin: '1234', choice: 'TAMM' });
    return { station, api: identityApi(station.baseUrl, 'shop', SECRET) };
  }

  it('in production mode, without a trust list, refuses before asking or signing anything', async () => {
    const { station, api } = await startWith({ mode: 'production' });
    try {
      const started = await api.start('local-token-login', { country: 'EE' });
      expect(started.status).toBe(503);
      expect(started.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_TRUST_NOT_CONFIGURED', message: expect.stringContaining('identity.trustedIssuers') });
      expect(station.prompt.choices).toHaveLength(0);
      expect(station.prompt.confirms).toHaveLength(0);
      expect(station.prompt.pins).toHaveLength(0);
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
    const leaf = await createTestSigner(softhsm.ca, CARD_SUBJECT, 'RSA-2048', 'authentication');
    const leafFile = await trustList('leaf.pem', leaf.pem);
    await expect(startTestStation({ identity: { trustedIssuers: [leafFile] } })).rejects.toMatchObject({ code: 'ERR_CONFIG_TRUSTED_ISSUERS', message: expect.stringContaining('is not a CA certificate') });
  });
});
