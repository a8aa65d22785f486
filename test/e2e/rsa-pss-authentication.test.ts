import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pkcs11js from 'pkcs11js';
import type { Browser } from 'playwright-core';
import { askHelper, helperMessages, pageWithHelper, startShopTestbed, type Integrator, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { startOidcTestStation, type OidcTestStation } from '../support/oidc/oidc-test-station.js';
import { identityApi } from '../support/oidc/oidc-identity-api.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm, type SoftHsmKey } from '../support/pkcs11/pkcs11-softhsm.js';
import { openssl } from '../support/tsa/tsa-openssl.js';
import { verifyWebEidAuthToken } from '../../src/station/identity/verify-web-eid-auth-token.js';
import { webEidSignedData } from '../../src/station/identity/web-eid-auth-token.js';
import type { WebEidAuthToken } from '../../src/core/schemas/iframe-protocol.js';

const SECRET = 'shop-api-secret-0123456789';

// An authentication key its token lets sign with CKM_RSA_PKCS_PSS only (SoftHSM2 refuses every other mechanism
// at C_SignInit): the station's own uses of an authentication key, a login challenge and a Web eID token, have it
// sign RSA-PSS, and say so (PS256).
describe('authentication with an RSA key its token lets sign RSA-PSS only', () => {
  let softhsm: SoftHsm;
  let key: SoftHsmKey;
  let station: OidcTestStation;
  let shop: ShopTestbed;
  let integrator: Integrator;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rsa-pss-authentication-'));
    softhsm = await createSoftHsm();
    key = (
      await softhsm.createToken('PSS card', '1234', [
        {
          id: '01',
          algorithm: 'RSA-2048',
          usage: 'authentication',
          allowedMechanisms: [pkcs11js.CKM_RSA_PKCS_PSS],
          subject: 'CN=TAMM\\,MARI\\,48912319876,2.5.4.4=TAMM,2.5.4.42=MARI,2.5.4.5=PNOEE-48912319876,C=EE',
        },
      ])
    )[0]!;
    const issuers = join(dir, 'issuers.pem');
    await writeFile(issuers, softhsm.ca.pem);
    station = await startOidcTestStation(
      { config: { mode: 'production', identity: { trustedIssuers: [issuers] }, pcsc: { enabled: false, atrMap: [] } } },
      { tokenSources: [softHsmTokenSource({ loginIdleMs: 0 })] },
    );
    shop = await startShopTestbed(station, SECRET);
    ({ integrator, browser } = shop);
  });
  afterAll(async () => {
    await shop?.close();
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => Object.assign(station.prompt, { agree: true, choice: 0, pin: '1234' }));

  it('logs the holder in: the token signs the challenge with PSS and the station verifies it', async () => {
    const api = identityApi(station.baseUrl, 'shop', SECRET);
    const started = await api.start('local-token-login', { country: 'EE' });
    const done = await api.complete('local-token-login', String(started.body.token), 5);
    expect(done.body).toMatchObject({ status: 'OK', idcode: '48912319876', firstname: 'MARI', lastname: 'TAMM', current_login_method: 'local-token-login' });
  });

  it('makes a PS256 Web eID token that the station and openssl verify, and that fails as RS256', async () => {
    const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop/ee-web-eid-login?doc_id=`);
    await expect.poll(async () => (await helperMessages(page)).length, { timeout: 10_000 }).toBe(1);
    const nonce = 'bm9uY2UgZm9yIGEgcHNzIGxvZ2lu';
    await askHelper(page, station.baseUrl, { operation: 'getAuthToken', nonce });
    await expect.poll(async () => (await helperMessages(page)).length, { timeout: 10_000 }).toBe(2);
    const reply = (await helperMessages(page)).at(-1)!.data as { status: string; token: WebEidAuthToken };
    await page.close();
    expect(reply).toMatchObject({ status: 'OK', token: { format: 'web-eid:1.0', algorithm: 'PS256' } });
    expect(verifyWebEidAuthToken(reply.token, { nonce, origins: [integrator.origin], now: new Date() }).subject).toBe(key.certificate.certificate.subject);
    expect(() => verifyWebEidAuthToken({ ...reply.token, algorithm: 'RS256' }, { nonce, origins: [integrator.origin], now: new Date() })).toThrow(/allowed origin/);

    // openssl: RSASSA-PSS, SHA-256 with MGF1-SHA-256 and a 32-byte salt (JWA's PS256), over hash(origin) || hash(nonce)
    await writeFile(join(dir, 'signed.bin'), webEidSignedData(integrator.origin, nonce, 'SHA-256'));
    await writeFile(join(dir, 'signature.bin'), Buffer.from(reply.token.signature, 'base64'));
    await writeFile(join(dir, 'key.pem'), key.certificate.certificate.publicKey.toString('pem'));
    const pss = ['-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:32', '-sigopt', 'rsa_mgf1_md:sha256'];
    const checked = await openssl(['dgst', '-sha256', ...pss, '-verify', join(dir, 'key.pem'), '-signature', join(dir, 'signature.bin'), join(dir, 'signed.bin')]);
    expect(checked.code, checked.stderr).toBe(0);
  });
});
