import { createSign, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pkcs11js from 'pkcs11js';
import { encodeDigestInfo } from '../../../../src/station/pki/digest-info.js';
import { ecdsaDerToRaw, ecdsaRawToDer } from '../../../../src/station/pki/ecdsa-raw-to-der.js';
import { pinStatusFromFlags } from '../../../../src/station/tokens/pkcs11/pin-status-from-flags.js';
import { toTokenError } from '../../../../src/station/tokens/pkcs11/pkcs11-errors.js';
import { PinIncorrectError, PinLockedError, TokenRemovedError, UserCancelledError } from '../../../../src/station/tokens/token-errors.js';

// RFC 8017 §9.2, note 1: the DER of DigestInfo before the hash value.
const RFC_PREFIX = {
  'SHA-256': '3031300d060960864801650304020105000420',
  'SHA-384': '3041300d060960864801650304020205000430',
  'SHA-512': '3051300d060960864801650304020305000440',
} as const;

describe('signature encodings', () => {
  it.each(Object.entries(RFC_PREFIX))('DigestInfo for %s is the RFC 8017 encoding', (algorithm, prefix) => {
    const length = { 'SHA-256': 32, 'SHA-384': 48, 'SHA-512': 64 }[algorithm as keyof typeof RFC_PREFIX];
    const hash = Buffer.alloc(length, 0xab);
    expect(Buffer.from(encodeDigestInfo(algorithm as keyof typeof RFC_PREFIX, hash)).toString('hex')).toBe(prefix + hash.toString('hex'));
    expect(() => encodeDigestInfo(algorithm as keyof typeof RFC_PREFIX, hash.subarray(1))).toThrow(TypeError);
  });

  it('r||s to DER and back matches what OpenSSL produces and verifies, over many signatures (high bits, short r/s)', () => {
    for (const namedCurve of ['P-256', 'P-384'] as const) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve });
      for (let i = 0; i < 128; i++) {
        const data = Buffer.from(`message ${i}`);
        const der = createSign('sha256').update(data).sign(privateKey);
        const raw = createSign('sha256').update(data).sign({ key: privateKey, dsaEncoding: 'ieee-p1363' });
        expect(Buffer.from(ecdsaRawToDer(ecdsaDerToRaw(der, namedCurve)))).toEqual(der);
        expect(verify('sha256', data, publicKey, ecdsaRawToDer(raw))).toBe(true);
      }
    }
    expect(() => ecdsaRawToDer(new Uint8Array(63))).toThrow(TypeError);
  });

  it('maps the PKCS#11 PIN flags', () => {
    expect(pinStatusFromFlags(pkcs11js.CKF_USER_PIN_COUNT_LOW)).toEqual({ countLow: true, finalTry: false, locked: false, pinpad: false });
    expect(pinStatusFromFlags(pkcs11js.CKF_USER_PIN_COUNT_LOW | pkcs11js.CKF_USER_PIN_FINAL_TRY)).toEqual({
      retriesLeft: 1,
      countLow: true,
      finalTry: true,
      locked: false,
      pinpad: false,
    });
    expect(pinStatusFromFlags(pkcs11js.CKF_USER_PIN_LOCKED | pkcs11js.CKF_PROTECTED_AUTHENTICATION_PATH)).toEqual({
      retriesLeft: 0,
      countLow: false,
      finalTry: false,
      locked: true,
      pinpad: true,
    });
  });

  it('maps module return values to typed, retriable-or-not token errors', () => {
    const error = (code: number) => new pkcs11js.Pkcs11Error('x', code, 'C_Login');
    const context = { tokenLabel: 'T' };
    expect(toTokenError(error(pkcs11js.CKR_PIN_INCORRECT), { ...context, finalTry: true })).toEqual(expect.any(PinIncorrectError));
    expect((toTokenError(error(pkcs11js.CKR_PIN_INCORRECT), { ...context, finalTry: true }) as PinIncorrectError).retriesLeft).toBe(1);
    expect(toTokenError(error(pkcs11js.CKR_PIN_LOCKED), context)).toMatchObject({ constructor: PinLockedError, retriable: false });
    expect(toTokenError(error(pkcs11js.CKR_TOKEN_NOT_PRESENT), context)).toMatchObject({ constructor: TokenRemovedError, retriable: true });
    expect(toTokenError(error(pkcs11js.CKR_DEVICE_REMOVED), context)).toBeInstanceOf(TokenRemovedError);
    expect(toTokenError(error(pkcs11js.CKR_FUNCTION_CANCELED), context)).toBeInstanceOf(UserCancelledError);
    expect(toTokenError(error(pkcs11js.CKR_PIN_LEN_RANGE), context)).toMatchObject({ code: 'ERR_TOKEN_PIN_FORMAT', retriable: true });
    expect(toTokenError(error(pkcs11js.CKR_DEVICE_ERROR), context)).toMatchObject({ code: 'ERR_TOKEN_UNAVAILABLE', retriable: true });
  });
});
