import { executionAsyncId } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import type { OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import type { RelyingParty } from '../../support/oidc/oidc-relying-party.js';
import { startStationWithRelyingParty, stopStationWithRelyingParty } from '../../support/oidc/oidc-station-with-relying-party.js';
import { loginOverHttp } from '../../support/oidc/oidc-http-login.js';

/**
 * Whether promise hooks are installed in this process. Node tracks promise executions only then ("Promise
 * execution tracking" in the async_hooks docs): two reactions get async ids of their own, else both run under
 * the id of whatever drained the microtask queue.
 */
async function promiseHooksInstalled(): Promise<boolean> {
  const [first, second] = await Promise.all([Promise.resolve().then(executionAsyncId), Promise.resolve().then(executionAsyncId)]);
  return first !== second;
}

async function loginCallback(station: OidcTestStation, rp: RelyingParty): Promise<{ callback: URL; nonce: string; state: string }> {
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: rp.redirectUri, scope: 'openid', state, nonce });
  const { callback } = await loginOverHttp(station.baseUrl, url, { method: 'smartid', idcode: '30303039914', country: 'EE' });
  return { callback, nonce, state };
}

describe("oidc-provider's request context (provider-context-scope)", () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  let provider: Provider;
  beforeAll(async () => {
    ({ station, rp } = await startStationWithRelyingParty());
    provider = await station.oidc.provider();
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  it('is the serving request’s context in every token request, alone, overlapping, and after the storage was switched off', async () => {
    const logins = await Promise.all(Array.from({ length: 4 }, () => loginCallback(station, rp)));
    const contextSeen: boolean[] = [];
    const onGrant = (ctx: KoaContextWithOIDC): void => void contextSeen.push((Provider as unknown as { ctx?: object }).ctx === ctx);
    provider.on('grant.success', onGrant);
    try {
      const exchange = ({ callback, nonce, state }: (typeof logins)[number]) =>
        client.authorizationCodeGrant(rp.config, callback, { expectedNonce: nonce, expectedState: state, idTokenExpected: true });
      // alone: the storage is switched off when it is answered, and the next request switches it on again
      await exchange(logins[0]!);
      await exchange(logins[1]!);
      // overlapping: the first answered must not switch it off under the other
      await Promise.all([exchange(logins[2]!), new Promise((resolve) => setTimeout(resolve, 2)).then(() => exchange(logins[3]!))]);
    } finally {
      provider.off('grant.success', onGrant);
    }
    expect(contextSeen).toEqual([true, true, true, true]);
  });

  it('leaves no promise hooks behind once the provider has answered, so the other routes do not pay them', async () => {
    const { callback, nonce, state } = await loginCallback(station, rp);
    await client.authorizationCodeGrant(rp.config, callback, { expectedNonce: nonce, expectedState: state, idTokenExpected: true });
    expect((await fetch(`${station.baseUrl}/.well-known/openid-configuration`)).status).toBe(200);
    expect(await promiseHooksInstalled()).toBe(false);
  });
});
