import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '../../../../src/core/schemas/admin-api.js';
import type { StationState } from '../../../../src/core/schemas/station-state.js';
import { createPkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import { promptPinSource } from '../../../../src/station/tokens/pkcs11/prompt-pin-source.js';
import { signWithPinRetries } from '../../../../src/station/tokens/sign-with-pin-retries.js';
import type { SignRequest, Token } from '../../../../src/station/tokens/token.js';
import { startTestStation, type TestStation } from '../../../support/station/test-station.js';
import { uiHeaders } from '../../../support/station/ui-credential.js';
import { openStationEvents } from '../../../support/station/station-events.js';
import { createSoftHsm, type SoftHsm, type SoftHsmKey, SOFTHSM_MODULE_SPEC } from '../../../support/pkcs11/pkcs11-softhsm.js';
import { verifyWithCertificate } from '../../../support/pkcs11/pkcs11-verify.js';

let softhsm: SoftHsm;
let keys: SoftHsmKey[];
let station: TestStation;
let ui: { authorization: string; origin: string };

beforeAll(async () => {
  softhsm = await createSoftHsm();
  keys = await softhsm.createToken('UI Token', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'signing' }]);
  const source = createPkcs11TokenSource({
    includeKnown: false,
    modules: [
      SOFTHSM_MODULE_SPEC,
      { path: '/nonexistent/vendor-pkcs11.so', name: 'Vendor token', kind: 'pkcs11', origin: 'user' },
    ],
    pollIntervalMs: 50,
    reinitializeIntervalMs: 100,
  });
  station = await startTestStation({}, { tokenSources: [source] });
  ui = await uiHeaders(station.uiUrl());
});

afterAll(async () => {
  await station?.dispose();
  await softhsm?.dispose();
});

async function admin<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${station.baseUrl}/admin/api${path}`, {
    ...init,
    headers: { ...ui, 'content-type': 'application/json', ...init.headers },
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The next state the station pushes to its window that `done` accepts: the condition, waited for as the window sees it. */
async function pushedState(done: (state: StationState) => boolean): Promise<StationState> {
  const events = await openStationEvents(station.baseUrl, ui);
  try {
    return await events.next(done);
  } finally {
    events.close();
  }
}

/** A signature of `message` with key 01, its PIN asked in the station's own prompt for a web page. */
function signRequest(token: Token, message: Uint8Array): SignRequest {
  return {
    certificateId: '01',
    hash: createHash('sha256').update(message).digest(),
    hashAlgorithm: 'SHA-256',
    scheme: 'RSASSA-PKCS1-v1_5',
    pin: promptPinSource(station.userPrompt, { tokenLabel: token.label, requester: 'https://shop.example' }),
    purpose: 'sign',
  };
}

describe('PKCS#11 tokens in the station', () => {
  it('the UI overview lists tokens with certificates, and says which module did not load and how to fix it', async () => {
    const overview = await admin<Overview>('/overview');
    expect(overview.tokens.map((t) => t.label)).toEqual(['UI Token']);
    expect(overview.tokens[0]!.certificates).toEqual([expect.objectContaining({ id: '01', usage: 'signing' })]);
    expect(overview.problems).toEqual([
      expect.objectContaining({ source: 'Vendor token', code: 'ERR_TOKEN_UNAVAILABLE', message: expect.stringMatching(/Cannot load the PKCS#11 module \/nonexistent/) }),
    ]);
  });

  it('the overview follows a token plugged in and pulled out while the station runs', async () => {
    await softhsm.createToken('Hot Token', '1234', []);
    await pushedState((o) => o.tokens.some((t) => t.label === 'Hot Token'));
    await softhsm.deleteToken('Hot Token');
    const after = await pushedState((o) => !o.tokens.some((t) => t.label === 'Hot Token'));
    expect(after.tokens.map((t) => t.label)).toEqual(['UI Token']);
  });

  it('asks the PIN in the station’s own UI and signs once it is typed there', async () => {
    const token = station.tokens.tokens().find((t) => t.label === 'UI Token')!;
    const message = new TextEncoder().encode('signed with the PIN typed in the station UI');
    const signing = token.sign(signRequest(token, message));
    const [prompt] = (await pushedState((state) => state.prompts.length > 0)).prompts;
    expect(prompt).toMatchObject({ kind: 'pin', request: { tokenLabel: 'UI Token', pinLabel: 'PIN', finalTry: false, previousAttemptFailed: false, requester: 'https://shop.example' } });
    await admin(`/prompts/${prompt!.id}`, { method: 'POST', body: JSON.stringify({ kind: 'pin', pin: '1234' }) });
    expect(verifyWithCertificate(keys[0]!.certificate.der, 'RSASSA-PKCS1-v1_5', 'SHA-256', message, await signing)).toBe(true);
    await token.release();
  });

  it('after wrong PINs typed in the station’s UI (two here), its next PIN prompts warn that the tries are running low', async () => {
    const token = station.tokens.tokens().find((t) => t.label === 'UI Token')!;
    const message = new TextEncoder().encode('signed after two wrong PINs');
    const signing = signWithPinRetries(token, signRequest(token, message));
    const asked: string[] = [];
    for (const pin of ['0000', '0000', '1234']) {
      const [prompt] = (await pushedState((state) => state.prompts.some((open) => !asked.includes(open.id)))).prompts.filter((open) => !asked.includes(open.id));
      asked.push(prompt!.id);
      expect(prompt, `prompt ${asked.length}`).toMatchObject({ kind: 'pin', request: { previousAttemptFailed: asked.length > 1 } });
      expect(prompt!.kind === 'pin' && prompt!.request.countLow === true, `prompt ${asked.length} warns`).toBe(asked.length > 1);
      await admin(`/prompts/${prompt!.id}`, { method: 'POST', body: JSON.stringify({ kind: 'pin', pin }) });
    }
    expect(verifyWithCertificate(keys[0]!.certificate.der, 'RSASSA-PKCS1-v1_5', 'SHA-256', message, await signing)).toBe(true);
    await token.release();
  });
});
