import * as pkijs from 'pkijs';

/** RFC 6960 CertStatus: good, revoked, or unknown to the responder. */
export type OcspCertificateStatus = 'good' | 'revoked' | 'unknown';

const STATUS: Record<number, OcspCertificateStatus> = { 0: 'good', 1: 'revoked', 2: 'unknown' };

/**
 * What a whole OCSPResponse (RFC 6960) says of `certificate`, issued by `issuer`: its status when the response is
 * successful, signed by the issuer or by a responder the issuer delegated, and about this certificate; undefined
 * when it is none of those (another certificate's answer, a forged or refused one), so it proves nothing.
 */
export async function ocspStatusOf(response: Uint8Array, certificate: Uint8Array, issuer: Uint8Array): Promise<OcspCertificateStatus | undefined> {
  try {
    const parsed = pkijs.OCSPResponse.fromBER(Uint8Array.from(response));
    const bytes = parsed.responseBytes?.response;
    if (parsed.responseStatus.valueBlock.valueDec !== 0 || !bytes) return undefined;
    const basic = pkijs.BasicOCSPResponse.fromBER(Uint8Array.from(bytes.valueBlock.valueHexView));
    const [cert, issuerCert] = [pkijs.Certificate.fromBER(Uint8Array.from(certificate)), pkijs.Certificate.fromBER(Uint8Array.from(issuer))];
    if (!(await basic.verify({ trustedCerts: [issuerCert], issuerCerts: [issuerCert] }))) return undefined;
    const { isForCertificate, status } = await basic.getCertificateStatus(cert, issuerCert);
    return isForCertificate ? STATUS[status] : undefined;
  } catch {
    return undefined; // not DER, not an OCSP response: no evidence
  }
}
