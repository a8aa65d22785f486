import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import type { x509 } from '../pki/x509.js';
import { checkCertificateChain } from './check-certificate-chain.js';
import type { CmsSignatureCheck } from './check-cms-signature.js';
import { checkRevocation } from './check-revocation.js';
import { checkTimestampToken } from './check-timestamp-token.js';

export interface CmsSignatureContext {
  kind: SignatureVerification['kind'];
  anchors: readonly x509.X509Certificate[];
  reason?: string | null;
  claimedTime?: Date | null;
  coversWholeDocument?: boolean | null;
  /** Validation data outside the CMS (a PDF's /DSS). */
  extraCrls?: readonly Uint8Array[];
  extraOcsps?: readonly Uint8Array[];
  /** An archive timestamp outside the CMS (a PDF document timestamp after this signature). */
  archived?: boolean;
}

/**
 * One CAdES-based signature (PAdES, a .p7s) in plain terms: intact, chained to a trust anchor at the trusted time,
 * not revoked by what is embedded, timestamp valid; its level by what it embeds.
 */
export async function reportCmsSignature(check: CmsSignatureCheck, context: CmsSignatureContext): Promise<SignatureVerification> {
  const timestamp = check.timestampToken ? await checkTimestampToken(check.timestampToken, context.anchors, check.signatureValue) : undefined;
  const trustedTime = timestamp?.valid ? new Date(timestamp.time) : new Date();
  const signer = check.signerCertificate;
  const chain = signer ? await checkCertificateChain(signer, check.certificates, context.anchors, trustedTime) : { trusted: false, anchor: null, certificates: [], problems: ['no signer certificate'] };
  const crls = [...check.crls, ...(context.extraCrls ?? [])];
  const ocsps = [...check.ocsps, ...(context.extraOcsps ?? [])];
  const issuer = signer ? check.certificates.find((c) => c.subject === signer.issuer) ?? context.anchors.find((c) => c.subject === signer.issuer) : undefined;
  const revocation = signer ? await checkRevocation(signer, issuer, { crls, ocsps }) : 'not embedded';
  const timestampReport = timestamp ? { time: timestamp.time, authority: timestamp.authority, valid: timestamp.valid, trusted: timestamp.trusted, problems: timestamp.problems } : null;
  const problems = [
    ...check.problems,
    ...chain.problems,
    ...(revocation === 'revoked' ? ['the signer certificate is revoked'] : []),
    ...(timestampReport?.problems ?? []),
  ];
  return {
    kind: context.kind,
    signer: signer?.subject ?? null,
    issuer: signer?.issuer ?? null,
    serialNumber: signer?.serialNumber ?? null,
    claimedTime: (context.claimedTime ?? check.signingTime)?.toISOString() ?? null,
    reason: context.reason ?? null,
    level: levelOf(timestamp !== undefined, crls.length + ocsps.length > 0, check.hasArchiveTimestamp || (context.archived ?? false)),
    intact: check.intact,
    coversWholeDocument: context.coversWholeDocument ?? null,
    chain,
    revocation,
    timestamp: timestampReport,
    valid: check.intact && chain.trusted && revocation !== 'revoked' && (!timestampReport || (timestampReport.valid && timestampReport.trusted)),
    problems,
  };
}

function levelOf(timestamped: boolean, validationData: boolean, archived: boolean): SignatureVerification['level'] {
  if (!timestamped) return 'B-B';
  if (!validationData) return 'B-T';
  return archived ? 'B-LTA' : 'B-LT';
}
