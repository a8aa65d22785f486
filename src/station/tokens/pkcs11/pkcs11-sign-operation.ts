import pkcs11js from 'pkcs11js';
import type { HashAlgorithm, SignatureScheme } from '../token.js';
import { assertHashLength, encodeDigestInfo } from '../../pki/digest-info.js';
import { HASH_ALGORITHMS } from '../../pki/hash-algorithms.js';
import { TokenError } from '../token-errors.js';

const PSS_HASH: Readonly<Record<HashAlgorithm, { hashAlg: number; mgf: number }>> = {
  'SHA-256': { hashAlg: pkcs11js.CKM_SHA256, mgf: pkcs11js.CKG_MGF1_SHA256 },
  'SHA-384': { hashAlg: pkcs11js.CKM_SHA384, mgf: pkcs11js.CKG_MGF1_SHA384 },
  'SHA-512': { hashAlg: pkcs11js.CKM_SHA512, mgf: pkcs11js.CKG_MGF1_SHA512 },
};

export interface SignOperation {
  mechanism: pkcs11js.Mechanism;
  /** What C_Sign gets: the DigestInfo for PKCS#1 v1.5, the bare hash for PSS and ECDSA. */
  data: Buffer;
}

/**
 * The hash is already computed, so only the "raw" mechanisms apply (CKM_RSA_PKCS, CKM_RSA_PKCS_PSS, CKM_ECDSA);
 * the hash-and-sign ones (CKM_SHA256_RSA_PKCS, ...) would hash it a second time.
 */
export function pkcs11SignOperation(keyType: number, scheme: SignatureScheme, hashAlgorithm: HashAlgorithm, hash: Uint8Array): SignOperation {
  assertHashLength(hash, hashAlgorithm);
  const isRsa = keyType === pkcs11js.CKK_RSA;
  const isEc = keyType === pkcs11js.CKK_EC;
  if ((scheme === 'ECDSA' && !isEc) || (scheme !== 'ECDSA' && !isRsa)) {
    throw new TokenError('ERR_TOKEN_SCHEME_MISMATCH', `${scheme} cannot be used with ${isEc ? 'an EC' : isRsa ? 'an RSA' : 'this'} key.`, { status: 400 });
  }
  switch (scheme) {
    case 'RSASSA-PKCS1-v1_5':
      return { mechanism: { mechanism: pkcs11js.CKM_RSA_PKCS }, data: Buffer.from(encodeDigestInfo(hashAlgorithm, hash)) };
    case 'RSA-PSS':
      return {
        mechanism: {
          mechanism: pkcs11js.CKM_RSA_PKCS_PSS,
          parameter: { type: pkcs11js.CK_PARAMS_RSA_PSS, ...PSS_HASH[hashAlgorithm], saltLen: HASH_ALGORITHMS[hashAlgorithm].length } as pkcs11js.RsaPSS,
        },
        data: Buffer.from(hash),
      };
    case 'ECDSA':
      return { mechanism: { mechanism: pkcs11js.CKM_ECDSA }, data: Buffer.from(hash) };
    default:
      throw new TypeError(`Unsupported signature scheme ${String(scheme)}`);
  }
}
