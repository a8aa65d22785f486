import { StationError } from '../../core/errors/station-error.js';
import type { x509 as X509 } from './x509.js';
import { readPemCertificates } from './read-pem-certificates.js';

/**
 * The CA certificates whose certificates the station accepts as proof of identity (config
 * `identity.trustedIssuers`: PEM files, each with one or more certificates). A certificate is trusted when one of
 * them issued it: the issuer's name and key identifier match and its signature verifies, and every CA on the way is
 * valid at the time of the check. List the CAs that issue the cards' certificates (their roots may be listed too).
 */
export class TrustedIssuers {
  readonly #certificates: X509.X509Certificate[];

  private constructor(certificates: X509.X509Certificate[]) {
    this.#certificates = certificates;
  }

  static async load(files: readonly string[]): Promise<TrustedIssuers> {
    const certificates: X509.X509Certificate[] = [];
    for (const file of files) {
      const invalid = (reason: string, cause?: unknown): StationError =>
        new StationError('ERR_CONFIG_TRUSTED_ISSUERS', `identity.trustedIssuers ${file}: ${reason}`, cause === undefined ? {} : { cause });
      const found = await readPemCertificates(file).catch((error: Error) => {
        throw invalid(error.message, error.cause);
      });
      const { x509 } = await import('./x509.js');
      for (const certificate of found) {
        if (!certificate.getExtension(x509.BasicConstraintsExtension)?.ca) throw invalid(`${certificate.subject} is not a CA certificate.`);
      }
      certificates.push(...found);
    }
    return new TrustedIssuers(certificates);
  }

  /** The CA certificates (DER): candidate issuers for the chain a signature embeds. */
  get certificates(): Uint8Array[] {
    return this.#certificates.map((certificate) => new Uint8Array(certificate.rawData));
  }

  get configured(): boolean {
    return this.#certificates.length > 0;
  }

  /** Whether one of the trusted CAs issued `certificate` (DER), with every CA on the way valid at `at`. */
  async issued(certificate: Uint8Array, at: Date): Promise<boolean> {
    // @peculiar/x509 loads when a trust list is read or used, not with every station start.
    const { x509 } = await import('./x509.js');
    const chain = await new x509.X509ChainBuilder({ certificates: this.#certificates }).build(new x509.X509Certificate(Uint8Array.from(certificate)));
    const issuers = chain.slice(1);
    return issuers.length > 0 && issuers.every((issuer) => issuer.notBefore <= at && at <= issuer.notAfter);
  }
}
