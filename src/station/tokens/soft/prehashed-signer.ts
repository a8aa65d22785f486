import { constants, createHash, createPrivateKey, privateEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import { AsnConvert } from '@peculiar/asn1-schema';
import { PrivateKeyInfo } from '@peculiar/asn1-pkcs8';
import { ECPrivateKey } from '@peculiar/asn1-ecc';
import type { SignatureScheme } from '../token.js';
import { TokenError } from '../token-errors.js';
import { assertHashLength, encodeDigestInfo } from '../../pki/digest-info.js';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../../pki/hash-algorithms.js';

/** By node:crypto's curve names. */
const CURVES: Readonly<Record<string, typeof p256>> = { prime256v1: p256, secp384r1: p384, secp521r1: p521 };

/**
 * Signs an already computed hash with a software key (PKCS#8 DER: the station's certificate store, a PKCS#12 file
 * given to `sign`, tests), giving exactly what a PKCS#11 token gives:
 * PKCS#1 v1.5 or PSS bytes for RSA, r||s for ECDSA. node:crypto only signs messages (it hashes them itself), so
 * RSA goes through the raw private-key operation and ECDSA through @noble/curves without its prehash.
 */
export function signPrehashed(pkcs8: Uint8Array, scheme: SignatureScheme, hashAlgorithm: HashAlgorithm, hash: Uint8Array): Uint8Array {
  assertHashLength(hash, hashAlgorithm);
  const key = createPrivateKey({ key: Buffer.from(pkcs8.buffer, pkcs8.byteOffset, pkcs8.byteLength), format: 'der', type: 'pkcs8' });
  const isRsa = key.asymmetricKeyType === 'rsa';
  if ((scheme === 'ECDSA') === isRsa || (!isRsa && key.asymmetricKeyType !== 'ec')) {
    throw new TokenError('ERR_TOKEN_SCHEME_MISMATCH', `${scheme} cannot be used with this ${key.asymmetricKeyType ?? 'unknown'} key.`, { status: 400 });
  }
  switch (scheme) {
    case 'RSASSA-PKCS1-v1_5':
      // Block type 1 padding over the DigestInfo: RSASSA-PKCS1-v1_5 with the hashing already done (RFC 8017 §8.2.1).
      return new Uint8Array(privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, encodeDigestInfo(hashAlgorithm, hash)));
    case 'RSA-PSS':
      return new Uint8Array(privateEncrypt({ key, padding: constants.RSA_NO_PADDING }, emsaPssEncode(key, hashAlgorithm, hash)));
    case 'ECDSA':
      return ecdsaSign(key, pkcs8, hash);
  }
}

function ecdsaSign(key: KeyObject, pkcs8: Uint8Array, hash: Uint8Array): Uint8Array {
  const namedCurve = key.asymmetricKeyDetails?.namedCurve ?? 'unknown';
  const curve = CURVES[namedCurve];
  if (!curve) throw new TokenError('ERR_TOKEN_KEY_UNSUPPORTED', `EC keys on ${namedCurve} are not supported (P-256, P-384, P-521).`, { status: 400 });
  // The scalar is read from the DER as bytes (a JWK export would put it in a string, which cannot be zeroed).
  const info = AsnConvert.parse(pkcs8, PrivateKeyInfo);
  const ecKey = AsnConvert.parse(info.privateKey, ECPrivateKey);
  const secret = new Uint8Array(ecKey.privateKey.buffer);
  try {
    // lowS off: X.509/CMS verifiers accept either s, and a PKCS#11 token does not normalise it either.
    return curve.sign(hash, secret, { prehash: false, lowS: false });
  } finally {
    secret.fill(0);
    new Uint8Array(info.privateKey.buffer).fill(0);
  }
}

/**
 * EMSA-PSS-ENCODE (RFC 8017 §9.1.1) with MGF1 over the same hash and a salt as long as the hash, the parameters
 * the Token interface promises. Written here because node:crypto has no PSS over a precomputed hash.
 */
function emsaPssEncode(key: KeyObject, hashAlgorithm: HashAlgorithm, mHash: Uint8Array): Buffer {
  const { nodeName: hashName, length: hLen } = HASH_ALGORITHMS[hashAlgorithm];
  const modBits = key.asymmetricKeyDetails?.modulusLength;
  if (!modBits) throw new TypeError('RSA key without a modulus length');
  const emBits = modBits - 1;
  const emLen = Math.ceil(emBits / 8);
  if (emLen < 2 * hLen + 2) {
    throw new TokenError('ERR_TOKEN_SCHEME_MISMATCH', `A ${modBits}-bit RSA key is too small for PSS with ${hashAlgorithm}.`, { status: 400 });
  }
  const salt = randomBytes(hLen);
  const h = createHash(hashName).update(Buffer.alloc(8)).update(mHash).update(salt).digest();
  const db = Buffer.alloc(emLen - hLen - 1);
  db[emLen - 2 * hLen - 2] = 0x01;
  salt.copy(db, emLen - 2 * hLen - 1);
  const mask = mgf1(hashName, h, db.length);
  for (let i = 0; i < db.length; i++) db[i]! ^= mask[i]!;
  db[0]! &= 0xff >> (8 * emLen - emBits);
  // RSA_NO_PADDING wants exactly the modulus length; EM is one byte shorter when modBits ≡ 1 (mod 8).
  const modLen = Math.ceil(modBits / 8);
  return Buffer.concat([Buffer.alloc(modLen - emLen), db, h, Buffer.from([0xbc])]);
}

function mgf1(hashName: string, seed: Buffer, length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let counter = 0; blocks.length * seed.length < length; counter++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    blocks.push(createHash(hashName).update(seed).update(c).digest());
  }
  return Buffer.concat(blocks).subarray(0, length);
}
