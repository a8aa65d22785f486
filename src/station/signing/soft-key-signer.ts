import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { HashSigner } from './hash-signer.js';

/**
 * A HashSigner over a private key held in this process (a PKCS#12 file given to `sign`, tests): PKCS#1 v1.5 for
 * RSA (PSS when the certificate asks for it), r||s for ECDSA, the same raw primitives a token applies with CKM_RSA_PKCS / CKM_ECDSA.
 */
export function softKeySigner(key: KeyObject | Uint8Array): HashSigner {
  const privateKey = key instanceof Uint8Array ? createPrivateKey({ key: Buffer.from(key), format: 'der', type: 'pkcs8' }) : key;
  if (privateKey.type !== 'private') throw new TypeError('softKeySigner needs a private key');
  const pkcs8 = key instanceof Uint8Array ? key : new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' }));
  const usual = privateKey.asymmetricKeyType === 'rsa' ? 'RSASSA-PKCS1-v1_5' : 'ECDSA';
  return async (hash, hashAlgorithm, scheme) => {
    // Loaded with the first signature: it brings @noble/curves and the ASN.1 stack, which a start does not need.
    const { signPrehashed } = await import('../tokens/soft/prehashed-signer.js');
    return signPrehashed(pkcs8, scheme ?? usual, hashAlgorithm, hash);
  };
}
