import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import { ocspAnswerOf } from '../pki/ocsp-status.js';
import { askOcspResponder, downloadCrl, revocationUrls } from '../pki/revocation-data.js';
import { x509 } from '../pki/x509.js';
import type { VerdictFinding } from './verdict-finding.js';

/** Revocation data a signature embeds: DER CRLs and whole OCSP responses. */
export interface EmbeddedRevocationData {
  crls: readonly Uint8Array[];
  ocsps: readonly Uint8Array[];
}

export interface RevocationQuestion {
  certificate: x509.X509Certificate;
  /** The certificate's issuer as the chain found it; without it no revocation data can be checked. */
  issuer: x509.X509Certificate | undefined;
  embedded: EmbeddedRevocationData;
  /** The time the signature is judged at, and whether a timestamp proves it (revocation after it then does not count). */
  judgedAt: Date;
  proven: boolean;
  /** The validation time: fetched data must be current then. */
  now: Date;
  /** Whether the verdict needs the status: an untrusted chain is indeterminate already, so nothing is fetched for it. */
  required: boolean;
  /** Ask the certificate's OCSP responders and CRL distribution points when nothing embedded decides. */
  fetch: boolean;
}

export interface RevocationResult {
  status: SignatureVerification['revocation'];
  /** Which evidence decided ("embedded OCSP response", "OCSP http://…"), null when none. */
  source: string | null;
  /** What it means for the verdict, when it holds the signature back. */
  finding: VerdictFinding | undefined;
  problems: string[];
}

interface Evidence {
  status: 'good' | 'revoked';
  revokedAt: Date | null;
  thisUpdate: Date;
  nextUpdate: Date | null;
  source: string;
}

/** Clocks of a signer, its TSA and its responder differ: evidence this much older than the signing time still counts. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The signer certificate's status at the time the signature is judged at: first from what the signature embeds
 * (CRLs and OCSP responses its issuer, or a responder the issuer delegated, signed, issued no earlier than the
 * signing time), then, when allowed, fetched (OCSP, then CRL; current now). Revoked at or before the signing time
 * fails the signature; revoked after a time a timestamp proves does not. A certificate that names where to ask,
 * with nothing embedded and nothing fetched, is INDETERMINATE/TRY_LATER; one that names nowhere is not held back.
 */
export async function checkRevocation(question: RevocationQuestion): Promise<RevocationResult> {
  const { certificate, issuer } = question;
  if (!issuer) return { status: 'not embedded', source: null, finding: undefined, problems: [] };
  const embedded = await embeddedEvidence(question, issuer);
  const decisive = embedded.find((e) => e.status === 'revoked') ?? embedded.find((e) => e.thisUpdate.getTime() >= question.judgedAt.getTime() - CLOCK_SKEW_MS);
  if (decisive) return judged(decisive, question);
  const where = revocationUrls(certificate);
  if (!question.required || where.ocsp.length + where.crl.length === 0) return { status: 'not embedded', source: null, finding: undefined, problems: [] };
  if (!question.fetch) {
    const reason = 'revocation was not checked: the signature embeds no current revocation data and verification is offline';
    return unavailable(reason, 'go online to check revocation (verify without --offline)');
  }
  const failures: string[] = [];
  for (const url of where.ocsp) {
    const fetched = await fetchedEvidence(url, 'OCSP', () => askOcspResponder(url, new Uint8Array(certificate.rawData), new Uint8Array(issuer.rawData)), question, issuer).catch((error: Error) => error);
    if (!(fetched instanceof Error)) return judged(fetched, question);
    failures.push(fetched.message);
  }
  for (const url of where.crl) {
    const fetched = await fetchedEvidence(url, 'CRL', () => downloadCrl(url), question, issuer).catch((error: Error) => error);
    if (!(fetched instanceof Error)) return judged(fetched, question);
    failures.push(fetched.message);
  }
  return unavailable(`revocation could not be checked: ${failures.join('; ')}`, 'try again later');
}

function unavailable(reason: string, advice: string): RevocationResult {
  return { status: 'unavailable', source: null, finding: { indication: 'INDETERMINATE', subIndication: 'TRY_LATER', reason, advice }, problems: [reason] };
}

function judged(evidence: Evidence, question: RevocationQuestion): RevocationResult {
  if (evidence.status === 'good') return { status: 'good', source: evidence.source, finding: undefined, problems: [] };
  const at = evidence.revokedAt;
  if (at && question.proven && at > question.judgedAt) {
    const note = `the signer certificate was revoked at ${at.toISOString()}, after the signature was made (its timestamp proves ${question.judgedAt.toISOString()})`;
    return { status: 'revoked after signing', source: evidence.source, finding: undefined, problems: [note] };
  }
  const reason = `the signer certificate is revoked${at ? ` since ${at.toISOString()}` : ''} (${evidence.source})`;
  return { status: 'revoked', source: evidence.source, finding: { indication: 'TOTAL-FAILED', subIndication: 'REVOKED', reason }, problems: [reason] };
}

async function embeddedEvidence(question: RevocationQuestion, issuer: x509.X509Certificate): Promise<Evidence[]> {
  const found: Evidence[] = [];
  for (const der of question.embedded.crls) {
    const crl = await crlEvidence(der, question.certificate, issuer, 'embedded CRL');
    if (crl) found.push(crl);
  }
  for (const der of question.embedded.ocsps) {
    const ocsp = await ocspEvidence(der, question.certificate, issuer, 'embedded OCSP response');
    if (ocsp) found.push(ocsp);
  }
  return found;
}

/** Fetched evidence must be about this certificate, signed by its issuer (or delegate) and current at validation time. */
async function fetchedEvidence(url: string, kind: 'OCSP' | 'CRL', get: () => Promise<Uint8Array>, question: RevocationQuestion, issuer: x509.X509Certificate): Promise<Evidence> {
  const der = await get();
  const source = `${kind} ${url}`;
  const evidence = kind === 'OCSP' ? await ocspEvidence(der, question.certificate, issuer, source) : await crlEvidence(der, question.certificate, issuer, source);
  if (!evidence) throw new Error(`${source} answered nothing signed by the issuer about this certificate`);
  if (evidence.nextUpdate && evidence.nextUpdate.getTime() < question.now.getTime() - CLOCK_SKEW_MS) throw new Error(`${source} is out of date (next update ${evidence.nextUpdate.toISOString()})`);
  if (evidence.thisUpdate.getTime() > question.now.getTime() + CLOCK_SKEW_MS) throw new Error(`${source} is dated in the future (${evidence.thisUpdate.toISOString()})`);
  return evidence;
}

async function ocspEvidence(der: Uint8Array, certificate: x509.X509Certificate, issuer: x509.X509Certificate, source: string): Promise<Evidence | undefined> {
  const answer = await ocspAnswerOf(der, new Uint8Array(certificate.rawData), new Uint8Array(issuer.rawData));
  if (!answer || answer.status === 'unknown') return undefined;
  return { status: answer.status, revokedAt: answer.revokedAt, thisUpdate: answer.thisUpdate, nextUpdate: answer.nextUpdate, source };
}

async function crlEvidence(der: Uint8Array, certificate: x509.X509Certificate, issuer: x509.X509Certificate, source: string): Promise<Evidence | undefined> {
  let crl: x509.X509Crl;
  try {
    crl = new x509.X509Crl(Uint8Array.from(der));
  } catch {
    return undefined; // not a CRL: no evidence
  }
  if (crl.issuer !== certificate.issuer || !(await crl.verify({ publicKey: issuer.publicKey }).catch(() => false))) return undefined;
  const entry = crl.findRevoked(certificate);
  return { status: entry ? 'revoked' : 'good', revokedAt: entry?.revocationDate ?? null, thisUpdate: crl.thisUpdate, nextUpdate: crl.nextUpdate ?? null, source };
}
