import type { StationConfig } from '../config/station-config.js';
import { readPemCertificates } from '../pki/read-pem-certificates.js';
import { x509 } from '../pki/x509.js';
import { readNssCertificates } from './read-nss-certificates.js';
import { VerificationError } from './verification-error.js';

export interface TrustSources {
  /** PEM bundles given for this verification (`--trust`). */
  pemFiles?: readonly string[];
  /** NSS databases whose certificates are trusted (`--nss-db`). */
  nssDatabases?: readonly string[];
}

/**
 * The trust anchors a verification uses: the station's trust list (the issuers it trusts for identification and
 * the root of its own TSA's chain, `tsaCertificates`, so its own timestamps verify), plus the PEM bundles and NSS
 * databases given.
 */
export async function loadTrustAnchors(config: Pick<StationConfig, 'identity'>, tsaCertificates: readonly Uint8Array[], sources: TrustSources = {}): Promise<x509.X509Certificate[]> {
  const files = [...(config.identity?.trustedIssuers ?? []), ...(sources.pemFiles ?? [])];
  const fromFiles = await Promise.all(
    files.map((file) =>
      readPemCertificates(file).catch((error: Error) => {
        throw new VerificationError(`The trust file ${file} ${error.message}`, { cause: error });
      }),
    ),
  );
  const fromNss = await Promise.all((sources.nssDatabases ?? []).map((dir) => readNssCertificates(dir)));
  const tsaRoot = tsaCertificates[tsaCertificates.length - 1];
  return [...fromFiles.flat(), ...fromNss.flat(), ...(tsaRoot ? [new x509.X509Certificate(Uint8Array.from(tsaRoot))] : [])];
}
