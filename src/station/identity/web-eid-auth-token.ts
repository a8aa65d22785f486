import { createHash, createPublicKey, verify } from 'node:crypto';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { WebEidAuthToken } from '../../core/schemas/iframe-protocol.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';
import { x509 } from '../pki/x509.js';
import { IdentityError } from './identity-error.js';

/** The token's JWS-style algorithm name and the hash it implies, from the authentication key. */
export function webEidAlgorithmFor(certificate: Pick<TokenCertificate, 'keyAlgorithm' | 'keyParameters'>): { algorithm: WebEidAuthToken['algorithm']; hash: HashAlgorithm } {
  if (certificate.keyAlgorithm === 'RSA') return { algorithm: 'RS256', hash: 'SHA-256' };
  return certificate.keyParameters === 'P-384' ? { algorithm: 'ES384', hash: 'SHA-384' } : { algorithm: 'ES256', hash: 'SHA-256' };
}

/**
 * What the authentication key signs (Web eID's `web-eid:1.0`): hash(origin) || hash(nonce), with the algorithm's
 * hash. Binding the origin makes a token made for one web page useless to any other.
 */
export function webEidSignedData(origin: string, nonce: string, hash: HashAlgorithm): Buffer {
  const digest = (text: string): Buffer => createHash(hash.replace('-', '').toLowerCase()).update(text, 'utf8').digest();
  return Buffer.concat([digest(origin), digest(nonce)]);
}

/**
 * Checks a `web-eid:1.0` token against the nonce the station issued and the origins allowed to ask for it;
 * returns the authentication certificate. The caller decides whether its issuer is trusted.
 */
export function verifyWebEidAuthToken(token: WebEidAuthToken, expected: { nonce: string; origins: readonly string[]; now: Date }): x509.X509Certificate {
  let certificate: x509.X509Certificate;
  try {
    certificate = new x509.X509Certificate(Buffer.from(token.unverifiedCertificate, 'base64'));
  } catch {
    throw new IdentityError('ERR_IDENTITY_TOKEN_INVALID', 'The authentication token carries no valid certificate.', { status: 400 });
  }
  if (expected.now < certificate.notBefore || expected.now > certificate.notAfter) {
    throw new IdentityError('ERR_IDENTITY_CERTIFICATE_EXPIRED', 'The authentication certificate is not valid at this time.', { status: 400 });
  }
  const key = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' });
  const hash = token.algorithm.endsWith('384') ? 'SHA-384' : 'SHA-256';
  const signature = Buffer.from(token.signature, 'base64');
  const options = token.algorithm.startsWith('ES') ? { key, dsaEncoding: 'ieee-p1363' as const } : key;
  const matches = expected.origins.some((origin) => verify(hash.replace('-', '').toLowerCase(), webEidSignedData(origin, expected.nonce, hash), options, signature));
  if (!matches) {
    throw new IdentityError('ERR_IDENTITY_TOKEN_INVALID', 'The authentication token was not made for this nonce by a page of an allowed origin.', { status: 400 });
  }
  return certificate;
}
