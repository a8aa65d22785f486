import * as pkijs from 'pkijs';
import { StationError } from '../../core/errors/station-error.js';
import { x509 } from './x509.js';
import { ocspStatusOf } from './ocsp-status.js';
import { readBoundedBody } from './read-bounded-body.js';

/** Revocation evidence for one certificate, as fetched: a whole OCSPResponse or a CRL (DER). */
export type RevocationEvidence = { kind: 'ocsp'; der: Uint8Array } | { kind: 'crl'; der: Uint8Array };

/** The certificate is revoked: signing with it, or extending a signature made with it, is refused. */
export class CertificateRevokedError extends StationError {
  constructor(subject: string, source: string) {
    super('ERR_SIGNING_CERTIFICATE_REVOKED', `The certificate of ${subject} is revoked (${source}).`, { status: 422, details: { subject } });
  }
}

/** No revocation evidence could be had for a certificate that names where to get it, or it names nowhere. */
export class RevocationUnavailableError extends StationError {
  constructor(subject: string, reason: string) {
    super('ERR_SIGNING_REVOCATION_UNAVAILABLE', `No revocation data for ${subject}: ${reason}`, { status: 502, retriable: true, details: { subject } });
  }
}

const OCSP_ACCESS_METHOD = '1.3.6.1.5.5.7.48.1';
const FETCH_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The http(s) OCSP responders (authorityInfoAccess) and CRL distribution points a certificate names. */
export function revocationUrls(certificate: x509.X509Certificate): { ocsp: string[]; crl: string[] } {
  const aia = certificate.getExtension(x509.AuthorityInfoAccessExtension);
  const cdp = certificate.getExtension(x509.CRLDistributionPointsExtension);
  const http = (value: string | undefined): value is string => value !== undefined && /^https?:\/\//.test(value);
  return {
    ocsp: (aia?.ocsp ?? []).map((name) => name.value).filter(http),
    crl: (cdp?.distributionPoints ?? []).flatMap((point) => point.distributionPoint?.fullName ?? []).map((name) => name.uniformResourceIdentifier).filter(http),
  };
}

/** A body read only up to the limit: a responder that sends more is cut off, not buffered whole. */
async function fetchBytes(url: string, init: RequestInit = {}): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const body = await readBoundedBody(response, MAX_RESPONSE_BYTES);
  if (!body) throw new Error(`${url} answered more than ${MAX_RESPONSE_BYTES} bytes`);
  return new Uint8Array(body);
}

/** Asks an OCSP responder about `certificate` (RFC 6960 over HTTP POST); the answer is not yet checked. */
export async function askOcspResponder(url: string, certificate: Uint8Array, issuer: Uint8Array): Promise<Uint8Array> {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(pkijs.Certificate.fromBER(Uint8Array.from(certificate)), { hashAlgorithm: 'SHA-256', issuerCertificate: pkijs.Certificate.fromBER(Uint8Array.from(issuer)) });
  return fetchBytes(url, { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: Buffer.from(request.toSchema(true).toBER()) });
}

/** Downloads a CRL (bounded in size and time); its signature is not yet checked. */
export const downloadCrl = (url: string): Promise<Uint8Array> => fetchBytes(url);

/** RFC 6960: asks the responder, checks its signature (the issuer or a responder it delegated) and the status. */
async function ocsp(url: string, certificate: Uint8Array, issuer: Uint8Array, subject: string): Promise<RevocationEvidence> {
  const der = await askOcspResponder(url, certificate, issuer);
  const status = await ocspStatusOf(der, certificate, issuer);
  if (status === undefined) throw new Error(`OCSP response from ${url} is refused, does not verify or is about another certificate`);
  if (status === 'revoked') throw new CertificateRevokedError(subject, `OCSP ${url}`);
  if (status !== 'good') throw new Error(`OCSP responder ${url} does not know the certificate`);
  return { kind: 'ocsp', der };
}

/** RFC 5280 CRL: fetched, its signature checked with the issuer's key, the serial looked up. */
async function crl(url: string, certificate: Uint8Array, issuer: Uint8Array, subject: string): Promise<RevocationEvidence> {
  const der = await fetchBytes(url);
  const list = new x509.X509Crl(der);
  if (!(await list.verify({ publicKey: new x509.X509Certificate(Uint8Array.from(issuer)).publicKey }))) throw new Error(`CRL ${url} does not verify with the issuer's key`);
  if (list.nextUpdate && list.nextUpdate < new Date()) throw new Error(`CRL ${url} is out of date`);
  if (list.findRevoked(new x509.X509Certificate(Uint8Array.from(certificate)))) throw new CertificateRevokedError(subject, `CRL ${url}`);
  return { kind: 'crl', der };
}

/**
 * Revocation evidence for `certificate`, issued by `issuer`: OCSP where the certificate names a responder, else a
 * CRL from its distribution points. A revoked certificate is a CertificateRevokedError whichever source says so.
 */
export async function fetchRevocationEvidence(certificate: Uint8Array, issuer: Uint8Array): Promise<RevocationEvidence> {
  const parsed = new x509.X509Certificate(Uint8Array.from(certificate));
  const where = revocationUrls(parsed);
  if (where.ocsp.length === 0 && where.crl.length === 0) throw new RevocationUnavailableError(parsed.subject, 'the certificate names no OCSP responder and no CRL.');
  const failures: string[] = [];
  for (const [url, get] of [...where.ocsp.map((u) => [u, ocsp] as const), ...where.crl.map((u) => [u, crl] as const)]) {
    try {
      return await get(url, certificate, issuer, parsed.subject);
    } catch (error) {
      if (error instanceof CertificateRevokedError) throw error;
      failures.push((error as Error).message);
    }
  }
  throw new RevocationUnavailableError(parsed.subject, failures.join('; '));
}

/** Whether the certificate names anywhere to ask about it (OCSP or CRL). */
export function namesRevocationSource(certificate: Uint8Array): boolean {
  const where = revocationUrls(new x509.X509Certificate(Uint8Array.from(certificate)));
  return where.ocsp.length + where.crl.length > 0;
}
