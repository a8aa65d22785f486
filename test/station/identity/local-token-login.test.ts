import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc-test-station.js';
import { identityApi } from '../../support/oidc-identity-api.js';
import { SoftToken } from '../../support/oidc-soft-token.js';
import { createTestCa } from '../../support/test-pki.js';

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
    station = await startOidcTestStation({ config: { mode: 'production' }, tokens: [card, usbToken, liar] });
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

  it('a wrong PIN is an error, not a login', async () => {
    station.prompt.pin = '0000';
    const { done } = await login();
    expect(done.status).toBe(403);
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_PIN_INCORRECT', retriable: true });
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
