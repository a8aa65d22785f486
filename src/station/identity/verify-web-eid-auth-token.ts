import { createPublicKey } from 'node:crypto';
import type { WebEidAuthToken } from '../../core/schemas/iframe-protocol.js';
import { x509 } from '../pki/x509.js';
import { IdentityError } from './identity-error.js';
import { webEidAlgorithm, webEidSignedData } from './web-eid-auth-token.js';
import { verifyRawSignature } from '../pki/verify-raw-signature.js';

// Apart from web-eid-auth-token.ts, which the iframe helper loads with the station: this one parses the
// certificate with @peculiar/x509, loaded with the first Web eID login.

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
  const { hash, scheme } = webEidAlgorithm(token.algorithm);
  const signature = Buffer.from(token.signature, 'base64');
  const matches = expected.origins.some((origin) => verifyRawSignature(key, scheme, hash, webEidSignedData(origin, expected.nonce, hash), signature));
  if (!matches) {
    throw new IdentityError('ERR_IDENTITY_TOKEN_INVALID', 'The authentication token was not made for this nonce by a page of an allowed origin.', { status: 400 });
  }
  return certificate;
}
