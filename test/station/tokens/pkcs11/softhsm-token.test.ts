import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Pkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/pkcs11-token-source.js';
import { ecdsaRawToDer } from '../../../../src/station/pki/ecdsa-raw-to-der.js';
import type { HashAlgorithm, SignatureScheme, Token } from '../../../../src/station/tokens/token.js';
import { PinIncorrectError, TokenError, UserCancelledError } from '../../../../src/station/tokens/token-errors.js';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm, type SoftHsmKey, softHsmTokenSource } from '../../../support/pkcs11/pkcs11-softhsm.js';
import { scriptedPins } from '../../../support/pkcs11/pkcs11-pin-source.js';
import { verifyWithCertificate } from '../../../support/pkcs11/pkcs11-verify.js';

const PIN = '1234';
const NODE_HASH = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

let softhsm: SoftHsm;
let keys: SoftHsmKey[];
let source: Pkcs11TokenSource;
let token: Token;

beforeAll(async () => {
  softhsm = await createSoftHsm();
  keys = await softhsm.createToken(
    'Station Test',
    PIN,
    [
      { id: '01', algorithm: 'RSA-2048', usage: 'signing' },
      { id: '02', algorithm: 'P-256', usage: 'authentication' },
      { id: '03', algorithm: 'P-384', usage: 'signing', alwaysAuthenticate: true },
      { id: '04', algorithm: 'P-256', usage: 'signing', notBefore: new Date(Date.now() - 3 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) },
    ],
    { caOnToken: true },
  );
  source = softHsmTokenSource();
  await source.start();
  const found = source.tokens().find((t) => t.label === 'Station Test');
  if (!found) throw new Error(`token not found; problems: ${JSON.stringify(source.problems())}`);
  token = found;
});

afterEach(async () => {
  await token.release();
});

afterAll(async () => {
  await source?.stop();
  await softhsm?.dispose();
});

function key(id: string): SoftHsmKey {
  const found = keys.find((k) => k.id === id);
  if (!found) throw new Error(`no key ${id}`);
  return found;
}

async function signAndVerify(id: string, scheme: SignatureScheme, hashAlgorithm: HashAlgorithm, pins = scriptedPins(PIN)) {
  const message = new TextEncoder().encode(`document signed with ${id} ${scheme} ${hashAlgorithm}`);
  const hash = createHash(NODE_HASH[hashAlgorithm]).update(message).digest();
  const signature = await token.sign({ certificateId: id, hash, hashAlgorithm, scheme, pin: pins.source, purpose: 'sign' });
  return { message, signature, pins, valid: verifyWithCertificate(key(id).certificate.der, scheme, hashAlgorithm, message, signature) };
}

describe('SoftHSM token through the PKCS#11 bridge', () => {
  it('lists the token with its certificates paired to keys, classified, CA certificates left out', async () => {
    const description = await token.describe();
    expect(description).toMatchObject({ kind: 'pkcs11', label: 'Station Test', driver: SOFTHSM_MODULE, manufacturer: 'SoftHSM project' });
    expect(description.pin).toEqual({ countLow: false, finalTry: false, locked: false, pinpad: false });
    const byId = new Map(description.certificates.map((c) => [c.id, c]));
    expect([...byId.keys()].sort()).toEqual(['01', '02', '03', '04']);
    expect(byId.get('01')).toMatchObject({ usage: 'signing', keyAlgorithm: 'RSA', keyParameters: '2048', valid: true });
    expect(byId.get('02')).toMatchObject({ usage: 'authentication', keyAlgorithm: 'EC', keyParameters: 'P-256', valid: true });
    expect(byId.get('03')).toMatchObject({ usage: 'signing', keyParameters: 'P-384' });
    expect(byId.get('04')).toMatchObject({ valid: false });
    const rsa = byId.get('01')!;
    const issued = key('01').certificate.certificate;
    expect(rsa.subject).toBe(issued.subject);
    expect(rsa.issuer).toBe(softhsm.ca.certificate.subject);
    expect(rsa.serialNumber).toBe(issued.serialNumber);
    expect(rsa.notAfter).toBe(issued.notAfter.toISOString());
    expect(Buffer.from(rsa.certificate, 'base64')).toEqual(Buffer.from(key('01').certificate.der));
  });

  it.each([
    ['RSASSA-PKCS1-v1_5', 'SHA-256'],
    ['RSASSA-PKCS1-v1_5', 'SHA-384'],
    ['RSASSA-PKCS1-v1_5', 'SHA-512'],
    ['RSA-PSS', 'SHA-256'],
    ['RSA-PSS', 'SHA-512'],
  ] as const)('signs with RSA %s over %s, verified by node:crypto', async (scheme, hashAlgorithm) => {
    const { valid, signature } = await signAndVerify('01', scheme, hashAlgorithm);
    expect(signature).toHaveLength(256);
    expect(valid).toBe(true);
  });

  it('signs ECDSA P-256 as r||s, and the DER helper gives what DER verifiers expect', async () => {
    const { valid, signature, message } = await signAndVerify('02', 'ECDSA', 'SHA-256');
    expect(signature).toHaveLength(64);
    expect(valid).toBe(true);
    expect(verifyWithCertificate(key('02').certificate.der, 'ECDSA', 'SHA-256', message, ecdsaRawToDer(signature), 'der')).toBe(true);
  });

  it('a signature over another message does not verify (the check can fail)', async () => {
    const { signature } = await signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256');
    expect(verifyWithCertificate(key('01').certificate.der, 'RSASSA-PKCS1-v1_5', 'SHA-256', new TextEncoder().encode('other'), signature)).toBe(false);
  });

  it('asks the PIN once per login, keeps the login for the next signature, and zeroes the PIN buffer', async () => {
    const pins = scriptedPins(PIN);
    await signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', pins);
    const second = await signAndVerify('02', 'ECDSA', 'SHA-256', pins);
    expect(second.valid).toBe(true);
    expect(pins.requests).toEqual([{ finalTry: false, countLow: false, previousAttemptFailed: false, pinLabel: 'PIN' }]);
    expect(pins.handedOut).toHaveLength(1);
    expect([...pins.handedOut[0]!].every((byte) => byte === 0)).toBe(true);
  });

  it('logs in again for every signature with a CKA_ALWAYS_AUTHENTICATE key (context-specific login)', async () => {
    const pins = scriptedPins(PIN, PIN, PIN);
    const first = await signAndVerify('03', 'ECDSA', 'SHA-384', pins);
    const second = await signAndVerify('03', 'ECDSA', 'SHA-256', pins);
    expect(first.valid && second.valid).toBe(true);
    expect(first.signature).toHaveLength(96);
    expect(pins.requests.map((r) => r.pinLabel)).toEqual(['PIN', 'signing PIN', 'signing PIN']);
    expect(pins.handedOut.every((pin) => pin.every((byte) => byte === 0))).toBe(true);
  });

  it('a wrong context-specific PIN fails the signature with a retriable PIN error', async () => {
    const pins = scriptedPins(PIN, '9999');
    await expect(signAndVerify('03', 'ECDSA', 'SHA-384', pins)).rejects.toBeInstanceOf(PinIncorrectError);
  });

  it('a wrong PIN is a retriable PinIncorrectError, and the next prompt says the last one failed', async () => {
    const wrong = scriptedPins('0000');
    const error = await signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PinIncorrectError);
    expect(error).toMatchObject({ code: 'ERR_TOKEN_PIN_INCORRECT', retriable: true, status: 403 });
    expect([...wrong.handedOut[0]!].every((byte) => byte === 0)).toBe(true);
    const right = scriptedPins(PIN);
    expect((await signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', right)).valid).toBe(true);
    expect(right.requests[0]).toMatchObject({ previousAttemptFailed: true });
  });

  it('after a wrong PIN the next PIN requests say the tries are running low (the token flags the count low)', async () => {
    for (const attempt of [1, 2]) {
      const wrong = scriptedPins('0000');
      await expect(signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', wrong), `wrong PIN ${attempt}`).rejects.toBeInstanceOf(PinIncorrectError);
      expect(wrong.requests[0]).toMatchObject({ countLow: attempt > 1 });
    }
    const right = scriptedPins(PIN);
    expect((await signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', right)).valid).toBe(true);
    expect(right.requests[0]).toMatchObject({ countLow: true, previousAttemptFailed: true });
  });

  it('cancelling the PIN prompt is a UserCancelledError', async () => {
    await expect(signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', scriptedPins(null))).rejects.toBeInstanceOf(UserCancelledError);
  });

  it('refuses an expired certificate before asking for the PIN', async () => {
    const pins = scriptedPins();
    await expect(signAndVerify('04', 'ECDSA', 'SHA-256', pins)).rejects.toMatchObject({ code: 'ERR_TOKEN_CERTIFICATE_NOT_VALID' });
    expect(pins.requests).toHaveLength(0);
  });

  it('refuses a scheme that does not fit the key, an unknown certificate and a hash of the wrong length', async () => {
    await expect(signAndVerify('01', 'ECDSA', 'SHA-256')).rejects.toMatchObject({ code: 'ERR_TOKEN_SCHEME_MISMATCH' });
    await expect(signAndVerify('ff', 'ECDSA', 'SHA-256', scriptedPins())).rejects.toMatchObject({ code: 'ERR_TOKEN_CERTIFICATE_NOT_FOUND' });
    await expect(signAndVerify('ca01', 'ECDSA', 'SHA-256', scriptedPins())).rejects.toBeInstanceOf(TokenError);
    await expect(
      token.sign({ certificateId: '01', hash: new Uint8Array(20), hashAlgorithm: 'SHA-256', scheme: 'RSASSA-PKCS1-v1_5', pin: scriptedPins().source, purpose: 'sign' }),
    ).rejects.toBeInstanceOf(TypeError);
  });

  it('release() logs out: the next signature asks for the PIN again', async () => {
    const pins = scriptedPins(PIN, PIN);
    await signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', pins);
    await token.release();
    await signAndVerify('01', 'RSASSA-PKCS1-v1_5', 'SHA-256', pins);
    expect(pins.requests).toHaveLength(2);
  });
});
