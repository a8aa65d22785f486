import { createHash, generateKeyPairSync, verify, constants } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPrehashed } from '../../../../src/station/tokens/soft/prehashed-signer.js';

const message = Buffer.from('prehashed');

describe('signing a precomputed hash with a software key', () => {
  it.each([2048, 2049, 1025, 1031])('RSA-PSS with a %i-bit modulus verifies (EM one byte short when bits ≡ 1 mod 8)', (modulusLength) => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
    const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
    const hashes = modulusLength > 2000 ? ([['SHA-256', 'sha256'], ['SHA-512', 'sha512']] as const) : ([['SHA-256', 'sha256']] as const);
    for (const [hashAlgorithm, node] of hashes) {
      const signature = signPrehashed(pkcs8, 'RSA-PSS', hashAlgorithm, createHash(node).update(message).digest());
      expect(
        verify(node, message, { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, signature),
      ).toBe(true);
      // A salt as long as the hash, not the maximum: a verifier that insists on it accepts the signature.
      expect(verify(node, message, { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: createHash(node).digest().length }, signature)).toBe(true);
    }
  });

  it('refuses PSS when the key is too small for the hash and its salt (RFC 8017 encoding error)', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1025 });
    expect(() => signPrehashed(privateKey.export({ format: 'der', type: 'pkcs8' }), 'RSA-PSS', 'SHA-512', new Uint8Array(64))).toThrow(/too small/);
  });

  it('ECDSA P-384 over a SHA-512 hash (longer than the curve) and P-256 over SHA-384 verify', () => {
    for (const [namedCurve, hashAlgorithm, node] of [['P-384', 'SHA-512', 'sha512'], ['P-256', 'SHA-384', 'sha384']] as const) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve });
      const signature = signPrehashed(privateKey.export({ format: 'der', type: 'pkcs8' }), 'ECDSA', hashAlgorithm, createHash(node).update(message).digest());
      expect(verify(node, message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    }
  });

  it('refuses an unsupported curve and a hash of the wrong length', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    expect(() => signPrehashed(privateKey.export({ format: 'der', type: 'pkcs8' }), 'ECDSA', 'SHA-256', new Uint8Array(32))).toThrow(/not supported/);
    expect(() => signPrehashed(privateKey.export({ format: 'der', type: 'pkcs8' }), 'ECDSA', 'SHA-256', new Uint8Array(31))).toThrow(TypeError);
  });
});
