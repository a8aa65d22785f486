import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import type { CmsSignatureCheck } from './check-cms-signature.js';
import { checkTimestampToken } from './check-timestamp-token.js';
import { judgeTimestampedSignature } from './judge-timestamped-signature.js';
import type { VerificationContext } from './verification-context.js';

export interface CmsSignatureContext {
  kind: SignatureVerification['kind'];
  verification: VerificationContext;
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
 * One CAdES-based signature (PAdES, a .p7s) in plain terms and as an ETSI verdict: intact, chained to an anchor
 * trusted at the time it is judged at, not revoked then, timestamp holding; its level by what it
 * embeds.
 */
export async function reportCmsSignature(check: CmsSignatureCheck, context: CmsSignatureContext): Promise<SignatureVerification> {
  const timestamp = check.timestampToken ? (await checkTimestampToken(check.timestampToken, context.verification, check.signatureValue)).check : undefined;
  const signer = check.signerCertificate;
  const crls = [...check.crls, ...(context.extraCrls ?? [])];
  const ocsps = [...check.ocsps, ...(context.extraOcsps ?? [])];
  const { chain, revocation, verdict, qualification } = await judgeTimestampedSignature({ integrity: check.finding, signer, pool: check.certificates, context: context.verification, timestamp, revocationData: { crls, ocsps }, digest: check.digestAlgorithm });
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
    revocation: revocation.status,
    revocationSource: revocation.source,
    timestamp: timestamp ?? null,
    verdict,
    problems: [...check.problems, ...chain.problems, ...revocation.problems, ...(timestamp?.problems ?? [])],
    ...(qualification ? { qualification } : {}),
  };
}

function levelOf(timestamped: boolean, validationData: boolean, archived: boolean): SignatureVerification['level'] {
  if (!timestamped) return 'B-B';
  if (!validationData) return 'B-T';
  return archived ? 'B-LTA' : 'B-LT';
}
