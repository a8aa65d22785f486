import type { StationConfig } from '../config/station-config.js';
import { readPemCertificates } from '../pki/read-pem-certificates.js';
import { x509 } from '../pki/x509.js';
import type { TrustAnchor, TrustSource } from '../ports/trust-source.js';
import { staticTrustSource } from './static-trust-source.js';
import { VerificationError } from './verification-error.js';
import { combinedTrustSource } from './trusted-lists/combined-trust-source.js';
import { ManagedTrust } from './trusted-lists/managed-trust.js';
import { trustedListTrustSource } from './trusted-lists/trusted-list-trust-source.js';
import { importWithPkcs11js } from '../tokens/pkcs11/import-with-pkcs11js.js';

export interface TrustInputs {
  /** PEM bundles given for this verification (`--trust`). */
  pemFiles?: readonly string[];
  /** NSS databases whose certificates are trusted (`--nss-db`). */
  nssDatabases?: readonly string[];
}

/** The report's words for an anchor of this station's own TSA. */
export const STATION_TSA_SOURCE = "this station's TSA";

/**
 * The trust a verification uses today: the station's trust list (the issuers it trusts for identification) and
 * the PEM bundles and NSS databases given, for signatures and timestamps alike; and the root of its own TSA's
 * chain (`tsaCertificates`), for timestamps only, so its own timestamps verify on this machine; the certificates
 * the person added, and the trusted lists cached in the data directory (parsed on the first anchor asked for).
 */
export async function loadTrustSource(config: Pick<StationConfig, 'identity' | 'dataDir'>, tsaCertificates: readonly Uint8Array[], inputs: TrustInputs = {}): Promise<TrustSource> {
  const files = [...(config.identity?.trustedIssuers ?? []), ...(inputs.pemFiles ?? [])];
  const fromFiles = await Promise.all(
    files.map(async (file) => {
      const certificates = await readPemCertificates(file).catch((error: Error) => {
        throw new VerificationError(`The trust file ${file} ${error.message}`, { cause: error });
      });
      return certificates.map((certificate) => configured(certificate, `trust file ${file}`));
    }),
  );
  const fromNss = await Promise.all((inputs.nssDatabases ?? []).map(async (dir) => (await readNssDatabase(dir)).map((certificate) => configured(certificate, `NSS database ${dir}`))));
  const tsaRoot = tsaCertificates[tsaCertificates.length - 1];
  const station: TrustAnchor[] = tsaRoot ? [{ certificate: new x509.X509Certificate(Uint8Array.from(tsaRoot)), serviceTypes: ['TSA'], status: 'granted', statusSince: null, source: STATION_TSA_SOURCE }] : [];
  const managed = await ManagedTrust.open(config.dataDir);
  return combinedTrustSource([staticTrustSource([...fromFiles.flat(), ...fromNss.flat(), ...managed.addedAnchors(), ...station]), trustedListTrustSource(() => managed.lists())]);
}

/** Reading an NSS database needs pkcs11js, an optional dependency: loaded only when one is given. */
async function readNssDatabase(dir: string): Promise<x509.X509Certificate[]> {
  const { readNssCertificates } = await importWithPkcs11js(() => import('./read-nss-certificates.js'));
  return readNssCertificates(dir);
}

function configured(certificate: x509.X509Certificate, source: string): TrustAnchor {
  return { certificate, serviceTypes: ['CA', 'TSA'], status: 'granted', statusSince: null, source };
}
