import { createHash } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { TSTInfo, id_ct_tstInfo } from '@peculiar/asn1-tsp';
import type { TimestampCheck } from '../../core/schemas/verification-report.js';
import type { x509 } from '../pki/x509.js';
import { checkCertificateChain, type CertificateChainResult } from './check-certificate-chain.js';
import { checkCmsSignature, type ContentDigest } from './check-cms-signature.js';
import { checkRevocation, type RevocationResult } from './check-revocation.js';
import { decideVerdict } from './decide-verdict.js';
import type { VerdictFinding } from './verdict-finding.js';
import type { VerificationContext } from './verification-context.js';
import { verificationDigestOf, type VerificationDigest } from './verification-digests.js';

/** What a timestamp covers: its bytes (a signature value), or a function hashing them (a file, PDF byte ranges) so big data is streamed. */
export type TimestampedData = Uint8Array | ContentDigest;

/** A timestamp as the report shows it, and its TSTInfo when the token holds one. */
export interface TimestampTokenCheck {
  check: TimestampCheck;
  tstInfo?: TSTInfo;
  /** The TSA certificate's revocation status, when the token was checked on its own (`standalone`). */
  revocation?: RevocationResult;
}

/** The organisation every Signing Station names in its own TSA's certificates. */
const STATION_TSA_ORGANISATION = 'O=Signing Station';

/**
 * An RFC 3161 token: its TSA signature, its chain to an anchor trusted for timestamps at its own time, and, when
 * `covered` is given, that its message imprint is the hash of that data; judged as ETSI EN 319 102-1 judges a
 * timestamp (a changed imprint is TOTAL-FAILED/HASH_FAILURE, an unknown TSA INDETERMINATE). A `standalone` token
 * (a .tsr, an ASiC-S timestamp), which is the evidence itself rather than a signature's, also has its TSA
 * certificate's revocation checked as a signer's is, at its own time; nothing proves that time but the token, so
 * a revocation at any time fails it.
 */
export async function checkTimestampToken(token: Uint8Array, context: VerificationContext, covered?: TimestampedData, standalone = false): Promise<TimestampTokenCheck> {
  const cms = await checkCmsSignature(token);
  const problems = [...cms.problems];
  if (cms.eContentType !== id_ct_tstInfo || !cms.eContent) {
    const reason = 'not a timestamp token';
    const verdict = decideVerdict([{ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason }], context.now, 'validation time');
    return { check: { time: '', authority: '', valid: false, trusted: false, problems: [...problems, reason], verdict } };
  }
  const tstInfo = AsnConvert.parse(cms.eContent, TSTInfo);
  const imprint = tstInfo.messageImprint;
  const algorithm = verificationDigestOf(imprint.hashAlgorithm.algorithm);
  let imprintFinding: VerdictFinding | undefined;
  if (covered && (!algorithm || !Buffer.from(imprint.hashedMessage.buffer).equals(await digestOf(covered, algorithm)))) {
    imprintFinding = { indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE', reason: 'the timestamp is over other data (its message imprint does not match)' };
    problems.push(imprintFinding.reason);
  }
  const authority = cms.signerCertificate;
  const chain = authority ? await checkCertificateChain(authority, cms.certificates, context.trust, 'TSA', tstInfo.genTime) : undefined;
  const revocation =
    standalone && authority && chain
      ? await checkRevocation({ certificate: authority, issuer: chain.path[1], embedded: { crls: [], ocsps: [] }, judgedAt: tstInfo.genTime, proven: false, now: context.now, required: chain.chain.trusted, fetch: context.fetchRevocation })
      : undefined;
  const check: TimestampCheck = {
    time: tstInfo.genTime.toISOString(),
    authority: authority?.subject ?? 'unknown (the token carries no TSA certificate)',
    valid: cms.intact && problems.length === 0,
    trusted: chain?.chain.trusted ?? false,
    problems: [...problems, ...(chain?.chain.problems.map((p) => `timestamp: ${p}`) ?? []), ...(revocation?.problems ?? [])],
    verdict: decideVerdict([cms.finding, imprintFinding, chain && tsaChainFinding(chain, authority), revocation?.finding], tstInfo.genTime, 'timestamp'),
  };
  return { check, tstInfo, ...(revocation ? { revocation } : {}) };
}

/** An unknown TSA of another Signing Station is said so, with what to do, rather than as any unknown issuer. */
function tsaChainFinding(chain: CertificateChainResult, authority: x509.X509Certificate | undefined): VerdictFinding | undefined {
  if (chain.finding?.subIndication !== 'NO_CERTIFICATE_CHAIN_FOUND' || !authority?.subject.includes(STATION_TSA_ORGANISATION)) return chain.finding;
  return { ...chain.finding, reason: 'timestamp by another Signing Station; trust its certificate to accept it', advice: `trust the certificate of ${authority.issuer}` };
}

async function digestOf(covered: TimestampedData, algorithm: VerificationDigest): Promise<Buffer> {
  return Buffer.from(typeof covered === 'function' ? await covered(algorithm) : createHash(algorithm.nodeName).update(covered).digest());
}
