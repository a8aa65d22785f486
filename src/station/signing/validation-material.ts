import { issuerChain } from '../pki/issuer-chain.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { fetchRevocationEvidence, namesRevocationSource } from '../pki/revocation-data.js';
import { x509 } from '../pki/x509.js';
import { UnsupportedSignerError } from './signing-errors.js';

/** What a long-term (B-LT) signature carries so it can be validated after certificates expire or services go. */
export interface ValidationMaterial {
  certificates: Uint8Array[];
  ocsps: Uint8Array[];
  crls: Uint8Array[];
}

/**
 * Certificates and revocation evidence for the signer's chain and the timestamp authorities' chains (each chain
 * leaf first). The signer's certificate must have evidence (a revoked one stops the signature); other certificates
 * get it where they name a source. Roots need none: they are trusted as they are.
 */
export async function collectValidationMaterial(signerChain: readonly Uint8Array[], otherChains: readonly (readonly Uint8Array[])[]): Promise<ValidationMaterial> {
  const material: ValidationMaterial = { certificates: [], ocsps: [], crls: [] };
  const seen = new Set<string>();
  if (signerChain.length < 2) throw new UnsupportedSignerError("A long-term (B-LT) signature needs the signer certificate's issuer: give the chain or configure the issuers.");
  for (const [index, chain] of [signerChain, ...otherChains].entries()) {
    for (const [i, certificate] of chain.entries()) {
      const key = Buffer.from(certificate).toString('base64');
      if (seen.has(key)) continue;
      seen.add(key);
      material.certificates.push(certificate);
      const issuer = chain[i + 1];
      const required = index === 0 && i === 0;
      if (!issuer || (!required && !namesRevocationSource(certificate))) continue;
      const evidence = await fetchRevocationEvidence(certificate, issuer);
      (evidence.kind === 'ocsp' ? material.ocsps : material.crls).push(evidence.der);
    }
  }
  return material;
}

/** A timestamp token's TSA certificates ordered leaf first (the one that issued none of the others). */
export async function timestampTokenChain(token: Uint8Array): Promise<Uint8Array[]> {
  const certificates = signedDataCertificates(token);
  const leaf = certificates.find((candidate) => !certificates.some((other) => other !== candidate && issuedBy(other, candidate)));
  if (!leaf) return certificates;
  return [leaf, ...(await issuerChain(leaf, certificates.filter((c) => c !== leaf)))];
}

function issuedBy(certificate: Uint8Array, issuer: Uint8Array): boolean {
  const [child, parent] = [new x509.X509Certificate(Uint8Array.from(certificate)), new x509.X509Certificate(Uint8Array.from(issuer))];
  return child.issuer === parent.subject && child.subject !== parent.subject;
}

/** The certificates of a CMS SignedData (a timestamp token's TSA chain), DER. */
function signedDataCertificates(cms: Uint8Array): Uint8Array[] {
  const parsed = asn1js.fromBER(Uint8Array.from(cms));
  const signedData = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: parsed.result }).content });
  return (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate).map((c) => new Uint8Array(c.toSchema().toBER()));
}
