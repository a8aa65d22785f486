import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPcscTokenSource } from '../../../src/station/tokens/pcsc/pcsc-token-source.js';
import { CardProcess } from '../../cards/card-process.js';
import { startPcscd, waitFor, waitUntilNoCard } from '../../support/pcsc/pcsc-test-env.js';
import type { PcscDaemon } from '../../support/pcsc/pcsc-daemon.js';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { identityApi } from '../../support/oidc/oidc-identity-api.js';

// Login with the emulated national ID card (EC P-256 keys, so the card signs with ECDSA) behind the real pcscd,
// through the station's direct-APDU driver. Wrong PINs are counted by the card itself, which locks PIN1 after
// three; the station then refuses before asking for a PIN.
const SECRET = 'integrator-secret-0123456789';
const PIN1 = 0x01;

describe('local token login with the emulated ECDSA ID card over pcscd', () => {
  let daemon: PcscDaemon;
  let card: CardProcess;
  let scratch: string;
  let station: OidcTestStation;
  let api: ReturnType<typeof identityApi>;

  beforeAll(async () => {
    daemon = await startPcscd();
    card = await CardProcess.start({
      kind: 'national-id',
      nationalId: { algorithm: 'P-256', subject: 'CN=MÄNNIK\\,MARI-LIIS\\,48010010000,2.5.4.4=MÄNNIK,2.5.4.42=MARI-LIIS,2.5.4.5=PNOEE-48010010000,C=EE' },
    });
    scratch = await mkdtemp(join(tmpdir(), 'card-login-'));
    const issuers = join(scratch, 'issuers.pem');
    await writeFile(issuers, card.caPem);
    station = await startOidcTestStation({ config: { mode: 'production', identity: { trustedIssuers: [issuers] } } }, { tokenSources: [createPcscTokenSource()] });
    await station.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
    api = identityApi(station.baseUrl, 'shop', SECRET);
    await station.tokens.start(); // the sources start on first use; the card appears once they run
    await card.insert();
    await waitFor('the card as a token', () => station.tokens.tokens().some((token) => token.kind === 'pcsc'));
  });
  afterAll(async () => {
    await station?.dispose();
    await card?.stop();
    await waitUntilNoCard().catch(() => undefined);
    await daemon?.stop();
    await rm(scratch, { recursive: true, force: true });
  });
  beforeEach(() => {
    station.prompt.pinAnswers.length = 0;
    Object.assign(station.prompt, { agree: true, choice: 0, pin: '1234' });
  });

  async function login() {
    const started = await api.start('local-token-login', { country: 'EE' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return api.complete('local-token-login', String(started.body.token), 10);
  }

  it('identifies the holder: the card signs the challenge with its ECDSA authentication key', async () => {
    const done = await login();
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: 'OK', idcode: '48010010000', firstname: 'MARI-LIIS', lastname: 'MÄNNIK', country: 'EE' });
    expect(station.prompt.pins.at(-1)).toMatchObject({ pinLabel: 'PIN1', requester: 'shop' });
    expect(await card.pinTries(PIN1)).toBe(3);
  });

  it('a wrong PIN costs a try on the card and the station asks again, saying so, until the user gives up', async () => {
    station.prompt.pinAnswers.push('0000', null);
    const done = await login();
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_USER_CANCELLED' });
    expect(await card.pinTries(PIN1)).toBe(2);
    expect(station.prompt.pins.at(-1)).toMatchObject({ pinLabel: 'PIN1', previousAttemptFailed: true, retriesLeft: 2, finalTry: false });
  });

  it('locks PIN1 on the card after the last try, warning before it, then refuses without asking', async () => {
    station.prompt.pin = '0000';
    const asked = station.prompt.pins.length;
    const locked = await login();
    expect(locked.body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_PIN_LOCKED', retriable: false });
    expect(await card.pinTries(PIN1)).toBe(0);
    expect(station.prompt.pins.slice(asked).map(({ retriesLeft, finalTry }) => ({ retriesLeft, finalTry }))).toEqual([
      { retriesLeft: 2, finalTry: false },
      { retriesLeft: 1, finalTry: true },
    ]);

    station.prompt.pin = '1234';
    const before = station.prompt.pins.length;
    expect((await login()).body).toMatchObject({ status: 'error', code: 'ERR_TOKEN_PIN_LOCKED' });
    expect(station.prompt.pins.length).toBe(before);
  });
});
