// The station under the oidc-token benchmark, in its own process so its CPU time can be measured apart from the
// load generator. With OIDC_BENCH_PROFILE=<dir> it writes a CPU profile of the timed run only (between the two
// "cpu" messages) there. It prepares the authorization codes (through the login pages) and the relying party's client
// assertions, sends them as "ready", answers "cpu" with its process.cpuUsage() and exits on "stop".
import * as client from 'openid-client';
import { startOidcTestStation } from './oidc-test-station.js';
import { ASSERTION_TYPE, createRelyingParty } from './oidc-relying-party.js';
import { loginOverHttp } from './oidc-http-login.js';
import { serveDefaultLogger } from '../bench/serve-logger.js';
import { timedRunProfiler } from '../bench/timed-run-profiler.js';
import { answerBenchMessages } from '../bench/answer-bench-messages.js';

const codes = Number(process.argv[2]);
// Codes live longer than the default 60 s here only because they are all prepared before the timed run.
const station = await startOidcTestStation({ tuning: { sandboxTimings: { userActionMs: 0 }, oidcLifetimes: { authorizationCode: 600 } } }, { logger: serveDefaultLogger() });
const rp = await createRelyingParty(station);
const work: Array<{ code: string; assertion: string }> = [];
for (let i = 0; i < codes; i++) {
  const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: rp.redirectUri, scope: 'openid profile', state: `s${i}`, nonce: `n${i}` });
  const { callback } = await loginOverHttp(station.baseUrl, url, { method: 'smartid', idcode: '30303039914', country: 'EE' });
  // Assertions are made beforehand: the RP's own signing is not the station's cost.
  work.push({ code: callback.searchParams.get('code')!, assertion: await rp.assertion({ exp: Math.floor(Date.now() / 1000) + 280 }) });
}
const profiler = timedRunProfiler(process.env.OIDC_BENCH_PROFILE || undefined, 'oidc-token.cpuprofile');
answerBenchMessages({ cpu: () => process.cpuUsage(), stop: () => Promise.all([rp.close(), station.dispose()]), profiler });
process.send?.({ ready: { work, tokenEndpoint: rp.tokenEndpoint, redirectUri: rp.redirectUri, clientId: rp.clientId, assertionType: ASSERTION_TYPE } });
