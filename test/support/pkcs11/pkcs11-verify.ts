import { X509Certificate, constants, verify } from 'node:crypto';
import type { HashAlgorithm, SignatureScheme } from '../../../src/station/tokens/token.js';

const NODE_HASH: Record<HashAlgorithm, string> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** Independent check with node:crypto (OpenSSL) of a token's signature over `message`, against the certificate. */
export function verifyWithCertificate(
  certificateDer: Uint8Array,
  scheme: SignatureScheme,
  hashAlgorithm: HashAlgorithm,
  message: Uint8Array,
  signature: Uint8Array,
  ecdsaEncoding: 'ieee-p1363' | 'der' = 'ieee-p1363',
): boolean {
  const key = new X509Certificate(certificateDer).publicKey;
  return verify(
    NODE_HASH[hashAlgorithm],
    message,
    {
      key,
      ...(scheme === 'RSA-PSS' ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : {}),
      ...(scheme === 'ECDSA' ? { dsaEncoding: ecdsaEncoding } : {}),
    },
    signature,
  );
}
