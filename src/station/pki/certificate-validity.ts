import type { TokenCertificate } from '../../core/schemas/token-description.js';

// Apart from certificate-summary.ts, which parses certificates with @peculiar/x509: token code checks validity on
// every signature and would otherwise load the PKI code with the station.

export function isValidAt(certificate: Pick<TokenCertificate, 'notBefore' | 'notAfter'>, now: Date): boolean {
  return Date.parse(certificate.notBefore) <= now.getTime() && now.getTime() <= Date.parse(certificate.notAfter);
}

/** The public TokenCertificate shape, with validity as of `now` (summaries are cached longer than a moment). */
export function toTokenCertificate({ isCa: _isCa, ...certificate }: TokenCertificate & { isCa: boolean }, now: Date): TokenCertificate {
  return { ...certificate, valid: isValidAt(certificate, now) };
}
