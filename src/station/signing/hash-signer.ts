import type { HashAlgorithm, SignatureScheme } from '../tokens/token.js';

/**
 * Signs an already computed hash with the signer's private key: a soft key, a PKCS#11 token or an ID card plug in
 * here. Returns the raw signature: PKCS#1 v1.5 bytes for RSA, r||s (IEEE P1363) for ECDSA. The formats convert
 * where their encoding differs (CMS wants ECDSA as DER). `scheme` is what prepare chose from the certificate and
 * the key's token (signatureSchemeFor: RSA-PSS where either mandates it); absent, the key's usual scheme.
 */
export type HashSigner = (hash: Uint8Array, hashAlgorithm: HashAlgorithm, scheme?: SignatureScheme) => Promise<Uint8Array>;
