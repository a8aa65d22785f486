import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/pkcs11-token-source.js';
import { Pkcs11Token } from '../../../../src/station/tokens/pkcs11/pkcs11-token.js';
import { createSoftHsm, type SoftHsm, softHsmTokenSource } from '../../../support/pkcs11/pkcs11-softhsm.js';
import { scriptedPins } from '../../../support/pkcs11/pkcs11-pin-source.js';

let softhsm: SoftHsm;
let source: Pkcs11TokenSource;

beforeAll(async () => {
  softhsm = await createSoftHsm();
  await softhsm.createToken('Present', '1234', [{ id: '01', algorithm: 'P-256', usage: 'signing' }]);
  source = softHsmTokenSource({ pollIntervalMs: 50, reinitializeIntervalMs: 100, loginIdleMs: 150 });
  await source.start();
});

afterAll(async () => {
  await source?.stop();
  await softhsm?.dispose();
});

/** Resolves at the first change notification after which `predicate` holds on the token labels. */
function changeWhere(predicate: (labels: string[]) => boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no matching change; tokens: ${labels().join(', ')}`)), 5_000);
    const unsubscribe = source.onChange(() => {
      if (!predicate(labels())) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(labels());
    });
  });
}

const labels = () => source.tokens().map((token) => token.label).sort();

describe('PKCS#11 hot-plug', () => {
  it('sees a token added and then removed while running, without a restart', async () => {
    expect(labels()).toEqual(['Present']);
    const before = source.tokens()[0]!;

    const added = changeWhere((l) => l.includes('Plugged'));
    await softhsm.createToken('Plugged', '1234', []);
    expect(await added).toEqual(['Plugged', 'Present']);
    // The token that stayed is the same object: a caller holding it keeps a working reference.
    expect(source.tokens().find((t) => t.label === 'Present')).toBe(before);
    expect((await source.tokens().find((t) => t.label === 'Plugged')!.describe()).certificates).toEqual([]);

    const removed = changeWhere((l) => !l.includes('Plugged'));
    await softhsm.deleteToken('Plugged');
    expect(await removed).toEqual(['Present']);
  });

  it('logs out after the idle time: the next signature asks for the PIN again', async () => {
    const token = source.tokens().find((t) => t.label === 'Present')!;
    if (!(token instanceof Pkcs11Token)) throw new TypeError('a PKCS#11 source gives PKCS#11 tokens');
    const pins = scriptedPins('1234', '1234');
    const sign = () =>
      token.sign({ certificateId: '01', hash: new Uint8Array(32), hashAlgorithm: 'SHA-256', scheme: 'ECDSA', pin: pins.source, purpose: 'sign' });
    await sign();
    await sign();
    expect(pins.requests).toHaveLength(1);
    // A logged-in token is busy; the idle timer's logout ends that.
    expect(token.busy).toBe(true);
    await expect.poll(() => token.busy, { timeout: 5_000, interval: 20 }).toBe(false);
    await sign();
    expect(pins.requests).toHaveLength(2);
  });
});
