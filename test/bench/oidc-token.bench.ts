// Token endpoint throughput (authorization_code + private_key_jwt, RS256 ID token) against the raw RSA-2048 sign
// rate of this machine, both measured in this run. Target: at least 25% of the raw sign rate.
import { generateKeyPairSync, sign } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import * as client from 'openid-client';
import { startOidcTestStation } from '../support/oidc-test-station.js';
import { ASSERTION_TYPE, createRelyingParty } from '../support/oidc-relying-party.js';
import { loginOverHttp } from '../support/oidc-http-login.js';

const CODES = Number(process.env.BENCH_CODES ?? 1000);
/** Exchanges before the timed run, so the JIT has warmed up the whole path. */
const WARM_UP = Math.floor(CODES / 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const LOAD_GENERATOR = `
const { parentPort, workerData } = require('node:worker_threads');
const { work, concurrency, tokenEndpoint, redirectUri, clientId, assertionType } = workerData;
let next = 0;
let failures = 0;
const started = performance.now();
Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < work.length) {
    const item = work[next++];
    const response = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: item.code, redirect_uri: redirectUri, client_id: clientId, client_assertion_type: assertionType, client_assertion: item.assertion }),
    });
    const body = await response.json();
    if (response.status !== 200 || !body.id_token) failures++;
  }
})).then(() => parentPort.postMessage({ seconds: (performance.now() - started) / 1000, failures }));
`;

function rsaSignRate(): number {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const data = Buffer.alloc(64, 7);
  for (let i = 0; i < 200; i++) sign('sha256', data, privateKey); // warm-up
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < 2_000) {
    sign('sha256', data, privateKey);
    count++;
  }
  return count / ((performance.now() - start) / 1000);
}

// Codes live longer than the default 60 s here only because they are all prepared before the timed run.
const station = await startOidcTestStation({ tuning: { sandboxTimings: { userActionMs: 0 }, oidcLifetimes: { authorizationCode: 600 } } });
const rp = await createRelyingParty(station);
try {
  console.log(`preparing ${CODES} authorization codes through the login pages…`);
  const work: Array<{ code: string; assertion: string }> = [];
  for (let i = 0; i < CODES; i++) {
    const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: rp.redirectUri, scope: 'openid profile', state: `s${i}`, nonce: `n${i}` });
    const { callback } = await loginOverHttp(station.baseUrl, url, { method: 'smartid', idcode: '30303039914', country: 'EE' });
    // Assertions are made beforehand: the RP's own signing is not the station's cost.
    work.push({ code: callback.searchParams.get('code')!, assertion: await rp.assertion({ exp: Math.floor(Date.now() / 1000) + 280 }) });
  }

  // The load comes from a worker thread, so the station's event loop has its core to itself, as it would with
  // its relying parties on other processes.
  const run = (batch: typeof work) =>
    new Promise<{ seconds: number; failures: number }>((resolve, reject) => {
      const worker = new Worker(LOAD_GENERATOR, { eval: true, workerData: { work: batch, concurrency: CONCURRENCY, tokenEndpoint: rp.tokenEndpoint, redirectUri: rp.redirectUri, clientId: rp.clientId, assertionType: ASSERTION_TYPE } });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const warmUp = await run(work.slice(0, WARM_UP));
  const timed = work.slice(WARM_UP);
  const { seconds, failures: timedFailures } = await run(timed);
  const failures = warmUp.failures + timedFailures;
  const tokenRate = timed.length / seconds;
  const baseline = rsaSignRate();
  console.log(`token endpoint: ${timed.length} exchanges (after ${WARM_UP} warm-up) in ${seconds.toFixed(2)} s = ${tokenRate.toFixed(0)}/s (concurrency ${CONCURRENCY}, ${failures} failed)`);
  console.log(`baseline: raw RSA-2048 sign (Node crypto.sign, KeyObject) = ${baseline.toFixed(0)}/s`);
  console.log(`ratio: ${((tokenRate / baseline) * 100).toFixed(1)}% of the raw sign rate (target >= 25%)`);
  if (failures > 0) process.exitCode = 1;
} finally {
  await rp.close();
  await station.dispose();
}
