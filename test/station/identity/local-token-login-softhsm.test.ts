import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { identityApi } from '../../support/oidc/oidc-identity-api.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../../support/pkcs11/pkcs11-softhsm.js';

// Login with real PKCS#11 tokens (SoftHSM2): an ID card with an RSA authentication key and a USB token with an
// EC P-256 one, keys generated on the token, certificates from the test CA. The token signs the challenge through
// the station's PKCS#11 bridge; the station checks the signature with the certificate before it names anyone.
const SECRET = 'integrator-secret-0123456789';

describe('local token login with SoftHSM2 tokens (RSA and EC keys)', () => {
  let softhsm: SoftHsm;
  let scratch: string;
  let station: OidcTestStation;
  let api: ReturnType<typeof identityApi>;

  beforeAll(async () => {
    softhsm = await createSoftHsm();
    await softhsm.createToken('ID card', '1234', [
      { id: '01', algorithm: 'RSA-2048', usage: 'authentication', subject: 'CN=TAMM\\,MARI\\,48912319876,2.5.4.4=TAMM,2.5.4.42=MARI,2.5.4.5=PNOEE-48912319876,C=EE' },
    ]);
    await softhsm.createToken('USB token', '5678', [{ id: '02', algorithm: 'P-256', usage: 'authentication', subject: 'CN=KASK\\,JÜRI\\,39001010002,C=LT' }]);
    scratch = await mkdtemp(join(tmpdir(), 'softhsm-login-'));
    const issuers = join(scratch, 'issuers.pem');
    await writeFile(issuers, softhsm.ca.pem);
    // Log out as soon as each login's signature is made, so every test's PIN reaches the token.
    const tokens = softHsmTokenSource({ loginIdleMs: 0 });
    station = await startOidcTestStation({ config: { mode: 'production', identity: { trustedIssuers: [issuers] } } }, { tokenSources: [tokens] });
    await station.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
    api = identityApi(station.baseUrl, 'shop', SECRET);
  });
  afterAll(async () => {
    await station?.dispose();
    await softhsm?.dispose();
    await rm(scratch, { recursive: true, force: true });
  });
  beforeEach(() => {
    station.prompt.pinAnswers.length = 0;
    Object.assign(station.prompt, { agree: true, choice: 0, pin: '1234' });
  });

  it('offers both tokens’ authentication certificates', async () => {
    station.prompt.choice = null;
    const started = await api.start('local-token-login', { country: 'EE' });
    const done = await api.complete('local-token-login', String(started.body.token), 5);
    expect(done.body).toMatchObject({ code: 'ERR_TOKEN_USER_CANCELLED' });
    expect(station.prompt.choices.at(-1)!.candidates.map((candidate) => candidate.subject).sort()).toEqual([
      expect.stringContaining('KASK'),
      expect.stringContaining('TAMM'),
    ]);
  });

  it.each([
    ['the ID card’s RSA key', 'TAMM', '1234', { idcode: '48912319876', firstname: 'MARI', lastname: 'TAMM', country: 'EE' }],
    ['the USB token’s EC P-256 key (ECDSA)', 'KASK', '5678', { idcode: '39001010002', firstname: 'JÜRI', lastname: 'KASK', country: 'LT' }],
  ])('identifies the holder with %s', async (_name, surname, pin, person) => {
    station.prompt.pin = pin;
    station.prompt.choice = surname;
    const started = await api.start('local-token-login', { country: 'EE' });
    const done = await api.complete('local-token-login', String(started.body.token), 5);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'OK', ...person, current_login_method: 'local-token-login' });
    expect(station.prompt.pins.at(-1)).toMatchObject({ tokenLabel: surname === 'TAMM' ? 'ID card' : 'USB token', requester: 'shop' });
  });

  it('a wrong PIN is refused by the token itself, and the station asks again in place, saying so', async () => {
    station.prompt.choice = 'TAMM';
    station.prompt.pinAnswers.push('0000', '1234');
    const asked = station.prompt.pins.length;
    const started = await api.start('local-token-login', { country: 'EE' });
    const done = await api.complete('local-token-login', String(started.body.token), 5);
    expect(done.body).toMatchObject({ status: 'OK', idcode: '48912319876' });
    expect(station.prompt.pins.slice(asked)).toEqual([
      expect.objectContaining({ tokenLabel: 'ID card', previousAttemptFailed: false }),
      expect.objectContaining({ tokenLabel: 'ID card', previousAttemptFailed: true }),
    ]);
  });

});
