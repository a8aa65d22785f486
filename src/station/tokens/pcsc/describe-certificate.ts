import { X509Certificate } from 'node:crypto';
import type { TokenCertificate } from '../../../core/schemas/token-description.js';
import { x509 } from '../../pki/x509.js';

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** A certificate read from a card as the UI, the CLI and web pages list it. */
export function describeCertificate(der: Uint8Array, id: string, usage: TokenCertificate['usage'], now = new Date()): TokenCertificate {
  const certificate = new x509.X509Certificate(new Uint8Array(der));
  const key = new X509Certificate(der).publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const keyAlgorithm = key.asymmetricKeyType === 'ec' ? 'EC' : 'RSA';
  return {
    id,
    certificate: Buffer.from(der).toString('base64'),
    usage,
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    notBefore: certificate.notBefore.toISOString(),
    notAfter: certificate.notAfter.toISOString(),
    keyAlgorithm,
    keyParameters: keyAlgorithm === 'EC' ? (CURVES[details.namedCurve ?? ''] ?? details.namedCurve ?? 'unknown') : String(details.modulusLength ?? 0),
    valid: certificate.notBefore <= now && now <= certificate.notAfter,
  };
}
