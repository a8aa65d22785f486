import type { ChainCheck } from '../../core/schemas/verification-report.js';
import { x509 } from '../pki/x509.js';

const MAX_CHAIN_LENGTH = 10;

/**
 * Builds the chain from `leaf` up through `pool` (what the signature embeds) to one of `anchors`, checking each
 * link's signature and each certificate's validity at `at` (the trusted time when there is one, else now).
 */
export async function checkCertificateChain(leaf: x509.X509Certificate, pool: readonly x509.X509Certificate[], anchors: readonly x509.X509Certificate[], at: Date): Promise<ChainCheck> {
  const chain: x509.X509Certificate[] = [leaf];
  const problems: string[] = [];
  for (let current = leaf; chain.length <= MAX_CHAIN_LENGTH; ) {
    if (current.notBefore > at || current.notAfter < at) problems.push(`${current.subject} was not valid at ${at.toISOString()}`);
    const anchor = anchors.find((a) => a.equal(current));
    if (anchor) return result(chain, anchor, problems);
    const issuer = await findIssuer(current, [...anchors, ...pool]);
    if (!issuer) {
      problems.push(`no trusted certificate issued ${current.subject} (issuer ${current.issuer}); give its CA with --trust or --nss-db`);
      return result(chain, undefined, problems);
    }
    if (issuer.equal(current)) {
      problems.push(`${current.subject} is self-signed and not a trust anchor`);
      return result(chain, undefined, problems);
    }
    chain.push(issuer);
    current = issuer;
  }
  problems.push('the certificate chain is too long');
  return result(chain, undefined, problems);
}

async function findIssuer(certificate: x509.X509Certificate, candidates: readonly x509.X509Certificate[]): Promise<x509.X509Certificate | undefined> {
  for (const candidate of candidates.filter((c) => c.subject === certificate.issuer)) {
    if (await certificate.verify({ publicKey: candidate.publicKey, signatureOnly: true }).catch(() => false)) return candidate;
  }
  return undefined;
}

function result(chain: x509.X509Certificate[], anchor: x509.X509Certificate | undefined, problems: string[]): ChainCheck {
  return { trusted: anchor !== undefined && problems.length === 0, anchor: anchor?.subject ?? null, certificates: chain.map((c) => c.subject), problems };
}
