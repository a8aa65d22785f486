import { readFile } from 'node:fs/promises';
import type { x509 as X509 } from './x509.js';

/** The certificates in a PEM file; throws, saying why, when it cannot be read as PEM or holds none. */
export async function readPemCertificates(file: string): Promise<X509.X509Certificate[]> {
  // Loaded here, not with the station: most starts read no certificate file.
  const { x509 } = await import('./x509.js');
  let certificates: X509.X509Certificate[];
  try {
    certificates = x509.PemConverter.decode(await readFile(file, 'utf8')).map((der) => new x509.X509Certificate(der));
  } catch (error) {
    throw new Error(`cannot be read as PEM certificates (${(error as Error).message}).`, { cause: error });
  }
  if (certificates.length === 0) throw new Error('holds no PEM certificate.');
  return certificates;
}
