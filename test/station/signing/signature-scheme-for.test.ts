import pkcs11js from 'pkcs11js';
import { describe, expect, it } from 'vitest';
import { signatureSchemeFor } from '../../../src/station/signing/signature-scheme-for.js';
import { rsaKeySchemes } from '../../../src/station/tokens/pkcs11/rsa-key-schemes.js';

const RSA = { keyAlgorithm: 'RSA', pssOnly: false } as const;
const RSA_PSS_KEY = { keyAlgorithm: 'RSA', pssOnly: true } as const;

/** CKA_ALLOWED_MECHANISMS as a Linux x86-64 module returns it: CK_ULONGs, 8 bytes little-endian. */
const mechanisms = (...list: number[]): Buffer => Buffer.concat(list.map((m) => Buffer.from(new BigUint64Array([BigInt(m)]).buffer)));

describe('the signature scheme: certificate and token decide together', () => {
  it('keeps PKCS#1 v1.5 for an rsaEncryption key the token does not restrict, and ECDSA for EC keys', () => {
    expect(signatureSchemeFor(RSA)).toBe('RSASSA-PKCS1-v1_5');
    expect(signatureSchemeFor(RSA, ['RSASSA-PKCS1-v1_5', 'RSA-PSS'])).toBe('RSASSA-PKCS1-v1_5');
    expect(signatureSchemeFor({ keyAlgorithm: 'ECDSA', pssOnly: false })).toBe('ECDSA');
  });

  it('signs PSS where the certificate (id-RSASSA-PSS) or the token (PSS only) leaves nothing else', () => {
    expect(signatureSchemeFor(RSA_PSS_KEY)).toBe('RSA-PSS');
    expect(signatureSchemeFor(RSA, ['RSA-PSS'])).toBe('RSA-PSS');
  });

  it('refuses, naming both sides, when the certificate wants PSS and the token allows the key only PKCS#1 v1.5, or nothing', () => {
    expect(() => signatureSchemeFor(RSA_PSS_KEY, ['RSASSA-PKCS1-v1_5'])).toThrow(expect.objectContaining({ code: 'ERR_SIGNING_UNSUPPORTED_SIGNER', message: expect.stringMatching(/RSA-PSS.*only RSASSA-PKCS1-v1_5/) }));
    expect(() => signatureSchemeFor(RSA, [])).toThrow(expect.objectContaining({ message: expect.stringMatching(/allows it no mechanism the station can sign a precomputed hash with/) }));
  });

  it('reads a PKCS#11 key’s schemes from its CKA_ALLOWED_MECHANISMS and the slot’s mechanisms, reporting only a restriction', () => {
    const both = new Set([pkcs11js.CKM_RSA_PKCS, pkcs11js.CKM_RSA_PKCS_PSS]);
    expect(rsaKeySchemes(undefined, both)).toBeUndefined();
    expect(rsaKeySchemes(Buffer.alloc(0), both)).toBeUndefined();
    expect(rsaKeySchemes(mechanisms(pkcs11js.CKM_RSA_PKCS_PSS), both)).toEqual(['RSA-PSS']);
    expect(rsaKeySchemes(mechanisms(pkcs11js.CKM_SHA256_RSA_PKCS_PSS), both)).toEqual([]);
    // A module without CKM_RSA_PKCS: PSS only, whatever the key allows.
    expect(rsaKeySchemes(undefined, new Set([pkcs11js.CKM_RSA_PKCS_PSS]))).toEqual(['RSA-PSS']);
  });
});
