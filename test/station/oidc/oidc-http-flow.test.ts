import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import type { OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import type { RelyingParty } from '../../support/oidc/oidc-relying-party.js';
import { startStationWithRelyingParty, stopStationWithRelyingParty } from '../../support/oidc/oidc-station-with-relying-party.js';
import { loginOverHttp } from '../../support/oidc/oidc-http-login.js';

describe('OIDC code flow over HTTP with openid-client', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  beforeAll(async () => {
    ({ station, rp } = await startStationWithRelyingParty());
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  it('logs in with the Smart-ID simulator and validates the ID token', async () => {
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: rp.redirectUri, scope: 'openid profile', state, nonce });
    const { callback, callbackStatus, pages } = await loginOverHttp(station.baseUrl, url, { method: 'smartid', idcode: '30303039914', country: 'EE' });
    expect(callbackStatus).toBe(302);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(pages.some((page) => /class="challenge" id="challenge">\d{4}</.test(page))).toBe(true);
    const tokens = await client.authorizationCodeGrant(rp.config, callback, { expectedNonce: nonce, expectedState: state, idTokenExpected: true });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: station.baseUrl, aud: rp.clientId, nonce, sub: 'PNOEE-30303039914', given_name: 'OK', family_name: 'TESTNUMBER', name: 'OK TESTNUMBER', birthdate: '1903-03-03' });
    expect(claims.verified_claims).toBeUndefined();
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('openid profile');
  });
});
