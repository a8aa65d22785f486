import { x509 } from './x509.js';

/**
 * The issuers of `certificate` found among `candidates` (a token's certificates, the station's trusted issuers, a
 * configured bundle, a PKCS#12 file's extra certificates), nearest first and up to the self-signed root when it is
 * among them. Each link is an issuer name match whose signature verifies (X509ChainBuilder); unrelated candidates
 * are left out.
 */
export async function issuerChain(certificate: Uint8Array, candidates: readonly Uint8Array[]): Promise<Uint8Array[]> {
  if (candidates.length === 0) return [];
  const builder = new x509.X509ChainBuilder({ certificates: candidates.map((der) => new x509.X509Certificate(Uint8Array.from(der))) });
  const chain = await builder.build(new x509.X509Certificate(Uint8Array.from(certificate)));
  return chain.slice(1).map((issuer) => new Uint8Array(issuer.rawData));
}
