import type { Qualification, QualificationAtTime } from '../../../core/schemas/verification-report.js';
import type { x509 } from '../../pki/x509.js';
import type { TrustAnchor } from '../../ports/trust-source.js';
import { qualifiedStatus } from './qualified-status.js';

/**
 * The qualified status of a signature as ETSI TS 119 615 judges it, at two times: when the certificate was issued
 * (its notBefore, by the anchor its chain ended in then) and when the signature was made (the best proof of
 * existence, by the anchor then). A certificate is qualified for the signature only when it was at both: one
 * qualified when issued whose service was withdrawn before the signing time is not; one not qualified when issued
 * does not become so later. Both results are kept beside the final one.
 */
export function qualificationAtTwoTimes(signer: x509.X509Certificate, atIssuance: TrustAnchor | undefined, atSigning: TrustAnchor | undefined, signingTime: Date): Qualification {
  const issued = qualifiedStatus(signer, atIssuance);
  const signed = withdrawnReason(qualifiedStatus(signer, atSigning), atIssuance, atSigning);
  const times = { atIssuance: atTime(issued, signer.notBefore), atSigning: atTime(signed, signingTime) };
  if (!atIssuance?.trustedList && !atSigning?.trustedList) return { ...signed, ...times };
  const day = (date: Date): string => date.toISOString().slice(0, 10);
  if (!issued.qualifiedCertificate) return { ...issued, ...times, reason: `not qualified when issued (${day(signer.notBefore)}): ${issued.reason}` };
  if (!signed.qualifiedCertificate) return { ...signed, ...times, reason: `qualified when issued (${day(signer.notBefore)}), but not at the signing time (${day(signingTime)}): ${signed.reason}` };
  return { ...signed, ...times };
}

/** A service listed when the certificate was issued and not at the signing time was withdrawn (or delisted) since. */
function withdrawnReason(result: Qualification, atIssuance: TrustAnchor | undefined, atSigning: TrustAnchor | undefined): Qualification {
  if (atSigning?.trustedList || !atIssuance?.trustedList) return result;
  return { ...result, reason: "its issuer's trust service was no longer granted then (withdrawn, or no longer listed)" };
}

function atTime(result: Qualification, time: Date): QualificationAtTime {
  return { time: time.toISOString(), level: result.level, qualifiedCertificate: result.qualifiedCertificate, qscd: result.qscd, trustedList: result.trustedList, reason: result.reason };
}
