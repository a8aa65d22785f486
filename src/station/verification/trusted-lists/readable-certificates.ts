import { x509 } from '../../pki/x509.js';

/** The certificates of a list that parse: one that does not names nothing, and the rest still count. */
export function readableCertificates(ders: readonly Uint8Array[]): x509.X509Certificate[] {
  return ders.flatMap((der) => {
    try {
      return [new x509.X509Certificate(Uint8Array.from(der))];
    } catch {
      return [];
    }
  });
}
