import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** RFC 6960 CertStatus: good, revoked, or unknown to the responder. */
export type OcspCertificateStatus = 'good' | 'revoked' | 'unknown';

/** What a verified OCSP response says of one certificate, with the times that say how fresh it is. */
export interface OcspAnswer {
  status: OcspCertificateStatus;
  /** When the certificate was revoked (status revoked only). */
  revokedAt: Date | null;
  thisUpdate: Date;
  nextUpdate: Date | null;
}

const STATUS: Record<number, OcspCertificateStatus> = { 0: 'good', 1: 'revoked', 2: 'unknown' };

/**
 * What a whole OCSPResponse (RFC 6960) says of `certificate`, issued by `issuer`: its status when the response is
 * successful, signed by the issuer or by a responder the issuer delegated, and about this certificate; undefined
 * when it is none of those (another certificate's answer, a forged or refused one), so it proves nothing.
 */
export async function ocspStatusOf(response: Uint8Array, certificate: Uint8Array, issuer: Uint8Array): Promise<OcspCertificateStatus | undefined> {
  return (await ocspAnswerOf(response, certificate, issuer))?.status;
}

/** As ocspStatusOf, with the revocation time and the response's thisUpdate/nextUpdate. */
export async function ocspAnswerOf(response: Uint8Array, certificate: Uint8Array, issuer: Uint8Array): Promise<OcspAnswer | undefined> {
  try {
    const parsed = pkijs.OCSPResponse.fromBER(Uint8Array.from(response));
    const bytes = parsed.responseBytes?.response;
    if (parsed.responseStatus.valueBlock.valueDec !== 0 || !bytes) return undefined;
    const basic = pkijs.BasicOCSPResponse.fromBER(Uint8Array.from(bytes.valueBlock.valueHexView));
    const [cert, issuerCert] = [pkijs.Certificate.fromBER(Uint8Array.from(certificate)), pkijs.Certificate.fromBER(Uint8Array.from(issuer))];
    if (!(await basic.verify({ trustedCerts: [issuerCert], issuerCerts: [issuerCert] }))) return undefined;
    const { isForCertificate, status } = await basic.getCertificateStatus(cert, issuerCert);
    if (!isForCertificate) return undefined;
    const single = await singleResponseFor(basic, cert, issuerCert);
    if (!single) return undefined;
    return { status: STATUS[status] ?? 'unknown', revokedAt: status === 1 ? revocationTime(single.certStatus) : null, thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate ?? null };
  } catch {
    return undefined; // not DER, not an OCSP response: no evidence
  }
}

async function singleResponseFor(basic: pkijs.BasicOCSPResponse, cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<pkijs.SingleResponse | undefined> {
  for (const single of basic.tbsResponseData.responses) {
    const algorithm = pkijs.getCrypto(true).getAlgorithmByOID(single.certID.hashAlgorithm.algorithmId, true, 'CertID.hashAlgorithm');
    const id = new pkijs.CertID();
    await id.createForCertificate(cert, { hashAlgorithm: algorithm.name, issuerCertificate: issuer });
    if (single.certID.isEqual(id)) return single;
  }
  return undefined;
}

/** RevokedInfo ::= [1] { revocationTime GeneralizedTime, ... }. */
function revocationTime(certStatus: unknown): Date | null {
  const first = (certStatus as asn1js.Constructed).valueBlock?.value?.[0];
  return first instanceof asn1js.GeneralizedTime ? first.toDate() : null;
}
