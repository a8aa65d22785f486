import type { Qualification, SignatureVerification, TimestampCheck, Verdict } from '../../core/schemas/verification-report.js';
import type { x509 } from '../pki/x509.js';
import { checkCertificateChain, type CertificateChainResult } from './check-certificate-chain.js';
import { checkRevocation, type EmbeddedRevocationData, type RevocationResult } from './check-revocation.js';
import { decideVerdict } from './decide-verdict.js';
import type { VerdictFinding } from './verdict-finding.js';
import type { VerificationContext } from './verification-context.js';
import type { VerificationDigest } from './verification-digests.js';
import { qualificationAtTwoTimes } from './trusted-lists/qualification-at-two-times.js';

export interface SignatureJudgement {
  chain: CertificateChainResult['chain'];
  revocation: RevocationResult;
  verdict: Verdict;
  /** Qualified status, by the trusted list (if any) that vouched for the signer's issuer when it was issued and at the time judged at. */
  qualification?: Qualification;
}

/**
 * The verdict on a signature from its integrity finding, its timestamp and revocation: the time it is judged at is
 * its timestamp's when that timestamp passed (the best proof of existence), else now; its signer's chain is checked
 * at that time against the anchors trusted for signatures then, and the signer's revocation status at that time
 * (embedded first, fetched when the context allows). A timestamp that does not pass leaves the
 * signature indeterminate, never failed: the signature itself may hold.
 */
export async function judgeTimestampedSignature(input: {
  integrity: VerdictFinding | undefined;
  signer: x509.X509Certificate | undefined;
  pool: readonly x509.X509Certificate[];
  context: VerificationContext;
  timestamp: TimestampCheck | undefined;
  revocationData: EmbeddedRevocationData;
  /** The digest it signs with, judged by its strength at the time the signature is judged at. */
  digest?: VerificationDigest | undefined;
}): Promise<SignatureJudgement> {
  const proven = input.timestamp?.verdict.indication === 'TOTAL-PASSED';
  const judgedAt = proven && input.timestamp ? new Date(input.timestamp.time) : input.context.now;
  const chain = input.signer
    ? await checkCertificateChain(input.signer, input.pool, input.context.trust, 'CA', judgedAt)
    : { chain: { trusted: false, anchor: null, anchorSource: null, certificates: [], problems: ['no signer certificate'] }, path: [], finding: undefined };
  const revocation = input.signer
    ? await checkRevocation({ certificate: input.signer, issuer: chain.path[1] ?? issuerIn(input.signer, input.pool), embedded: input.revocationData, judgedAt, proven, now: input.context.now, required: chain.chain.trusted, fetch: input.context.fetchRevocation })
    : { status: 'not embedded' as const, source: null, finding: undefined, problems: [] };
  const verdict = decideVerdict([input.integrity, chain.finding, revocation.finding, strengthFinding(input.digest, judgedAt), timestampFinding(input.timestamp)], judgedAt, proven ? 'timestamp' : 'validation time');
  if (!input.signer) return { chain: chain.chain, revocation, verdict };
  // The qualified status is also judged when the certificate was issued: the anchors trusted then.
  const issuance = await checkCertificateChain(input.signer, input.pool, input.context.trust, 'CA', input.signer.notBefore);
  return { chain: chain.chain, revocation, verdict, qualification: qualificationAtTwoTimes(input.signer, issuance.anchor, chain.anchor, judgedAt) };
}

/** An issuer the chain did not reach (an untrusted chain stops at the leaf): still the one whose CRLs speak of it. */
const issuerIn = (certificate: x509.X509Certificate, pool: readonly x509.X509Certificate[]): x509.X509Certificate | undefined => pool.find((c) => c.subject === certificate.issuer && !c.equal(certificate));

/**
 * An algorithm that was strong enough when the signature was made still proves it, if something proves that time:
 * SHA-1 after its end date without an earlier timestamp is INDETERMINATE/CRYPTO_CONSTRAINTS_FAILURE_NO_POE, never
 * "broken".
 */
function strengthFinding(digest: VerificationDigest | undefined, judgedAt: Date): VerdictFinding | undefined {
  if (!digest?.acceptableUntil || judgedAt <= digest.acceptableUntil) return undefined;
  const until = digest.acceptableUntil.toISOString().slice(0, 10);
  return { indication: 'INDETERMINATE', subIndication: 'CRYPTO_CONSTRAINTS_FAILURE_NO_POE', reason: `${digest.name} was strong enough for signatures until ${until}, and nothing proves this signature existed by then` };
}

function timestampFinding(timestamp: TimestampCheck | undefined): VerdictFinding | undefined {
  const verdict = timestamp?.verdict;
  if (!verdict || verdict.indication === 'TOTAL-PASSED') return undefined;
  if (verdict.indication === 'INDETERMINATE' && verdict.subIndication) return { indication: 'INDETERMINATE', subIndication: verdict.subIndication, reason: `its timestamp: ${verdict.reason}`, ...(verdict.advice ? { advice: verdict.advice } : {}) };
  return { indication: 'INDETERMINATE', subIndication: 'NO_POE', reason: `its timestamp does not hold (${verdict.reason}), so nothing proves when it was signed` };
}
