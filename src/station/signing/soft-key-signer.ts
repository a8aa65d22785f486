import { createPrivateKey, privateEncrypt, constants, type KeyObject } from 'node:crypto';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import type { HashAlgorithm } from '../tokens/token.js';
import { digestAlgorithms } from './digest-algorithms.js';
import type { HashSigner } from './hash-signer.js';

const curves = { 'P-256': p256, 'P-384': p384, 'P-521': p521 } as const;

/**
 * A HashSigner over a private key held in this process (PKCS#12 file, tests): the raw primitives a token applies
 * with CKM_RSA_PKCS / CKM_ECDSA. node:crypto only signs messages it hashes itself, so RSA uses the private-key
 * operation with PKCS#1 type 1 padding over DigestInfo||hash, and ECDSA uses @noble/curves over the hash.
 */
export function softKeySigner(key: KeyObject | Uint8Array): HashSigner {
  const privateKey = key instanceof Uint8Array ? createPrivateKey({ key: Buffer.from(key), format: 'der', type: 'pkcs8' }) : key;
  if (privateKey.type !== 'private') throw new TypeError('softKeySigner needs a private key');
  const type = privateKey.asymmetricKeyType;
  let ecSign: ((hash: Uint8Array) => Uint8Array) | undefined;
  if (type === 'ec') {
    const jwk = privateKey.export({ format: 'jwk' });
    const curve = curves[jwk.crv as keyof typeof curves];
    if (!curve || !jwk.d) throw new TypeError(`softKeySigner: unsupported curve ${jwk.crv}`);
    const secret = new Uint8Array(Buffer.from(jwk.d, 'base64url'));
    ecSign = (hash) => curve.sign(hash, secret, { prehash: false });
  } else if (type !== 'rsa') {
    throw new TypeError(`softKeySigner: unsupported key type ${type}`);
  }
  return async (hash: Uint8Array, hashAlgorithm: HashAlgorithm) => {
    const digest = digestAlgorithms[hashAlgorithm];
    if (hash.length !== digest.length) throw new TypeError(`hash length ${hash.length} does not match ${hashAlgorithm}`);
    if (ecSign) return ecSign(hash);
    const digestInfo = Buffer.concat([digest.digestInfoPrefix, hash]);
    return new Uint8Array(privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, digestInfo));
  };
}
