import { createHash } from 'node:crypto';
import type { ChainCheck } from '../../core/schemas/verification-report.js';
import { x509 } from '../pki/x509.js';
import type { TrustAnchor, TrustServiceType, TrustSource } from '../ports/trust-source.js';
import type { VerdictFinding } from './verdict-finding.js';

const MAX_CHAIN_LENGTH = 10;

/** A chain check and, when it does not pass, the finding for the verdict. */
export interface CertificateChainResult {
  chain: ChainCheck;
  /** The certificates from the leaf up, as found. */
  path: readonly x509.X509Certificate[];
  finding: VerdictFinding | undefined;
  /** The anchor the chain ends in, when it does (its trusted list's words decide the qualified status). */
  anchor?: TrustAnchor;
}

/**
 * Builds the chain from `leaf` up through `pool` (what the signature embeds) to an anchor `trust` gives for
 * `serviceType` at `at` (the best proof of existence, else now), checking each link's signature and each
 * certificate's validity at `at`. No anchor is INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND (the issuer is unknown
 * here, not wrong); a certificate outside its validity then is INDETERMINATE/OUT_OF_BOUNDS_NO_POE.
 */
export async function checkCertificateChain(leaf: x509.X509Certificate, pool: readonly x509.X509Certificate[], trust: TrustSource, serviceType: TrustServiceType, at: Date): Promise<CertificateChainResult> {
  const anchors = await trust.anchorsAt(serviceType, at);
  const chain: x509.X509Certificate[] = [leaf];
  const expired: string[] = [];
  for (let current = leaf; chain.length <= MAX_CHAIN_LENGTH; ) {
    if (current.notBefore > at || current.notAfter < at) expired.push(`${current.subject} was not valid at ${at.toISOString()}`);
    const anchor = anchors.find((a) => a.certificate.equal(current));
    if (anchor) return result(chain, anchor, expired, undefined);
    const issuer = await findIssuer(current, [...anchors.map((a) => a.certificate), ...pool]);
    if (!issuer) return result(chain, undefined, expired, `no trusted certificate issued ${current.subject} (issuer ${current.issuer})`);
    if (issuer.equal(current)) return result(chain, undefined, expired, `${current.subject} is self-signed and not a trust anchor`);
    chain.push(issuer);
    current = issuer;
  }
  return result(chain, undefined, expired, 'the certificate chain is too long');
}

async function findIssuer(certificate: x509.X509Certificate, candidates: readonly x509.X509Certificate[]): Promise<x509.X509Certificate | undefined> {
  for (const candidate of candidates.filter((c) => c.subject === certificate.issuer)) {
    if (await certificate.verify({ publicKey: candidate.publicKey, signatureOnly: true }).catch(() => false)) return candidate;
  }
  return undefined;
}

function result(chain: x509.X509Certificate[], anchor: TrustAnchor | undefined, expired: string[], untrusted: string | undefined): CertificateChainResult {
  const problems = [...(untrusted ? [untrusted] : []), ...expired];
  const check: ChainCheck = { trusted: anchor !== undefined && problems.length === 0, anchor: anchor?.certificate.subject ?? null, anchorSource: anchor?.source ?? null, certificates: chain.map((c) => c.subject), problems };
  const ended = anchor ? { anchor } : {};
  if (untrusted) {
    const top = chain[chain.length - 1]!;
    const der = Buffer.from(top.rawData);
    check.untrustedTop = { subject: top.subject, sha256: createHash('sha256').update(der).digest('hex'), certificate: der.toString('base64') };
    const advice = `to accept it, trust its issuer's certificate (${top.issuer})`;
    return { chain: check, path: chain, finding: { indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND', reason: `the certificate chain ends in no trusted issuer: ${untrusted}`, advice } };
  }
  if (expired.length > 0) return { chain: check, path: chain, finding: { indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE', reason: `${expired[0]}, and nothing proves the signature existed while it was` }, ...ended };
  return { chain: check, path: chain, finding: undefined, ...ended };
}
