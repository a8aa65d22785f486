import pkcs11js from 'pkcs11js';
import { nssDatabaseModule } from '../tokens/pkcs11/nss-database-module.js';
import { nssSoftokenPaths } from '../tokens/pkcs11/known-pkcs11-modules.js';
import { firstExisting } from '../tokens/pkcs11/resolve-pkcs11-modules.js';
import { x509 } from '../pki/x509.js';
import { VerificationError } from './verification-error.js';

const MAX_CERTIFICATES = 10_000;

/**
 * The certificates of an NSS database (a browser profile's trust store), read through NSS's own softoken over
 * PKCS#11, read-only: what `verify --nss-db` trusts. The station's token registry lists keys and their
 * certificates; trust anchors have no key, so they are read here.
 */
export async function readNssCertificates(databaseDir: string): Promise<x509.X509Certificate[]> {
  const softoken = await firstExisting(nssSoftokenPaths());
  if (!softoken) throw new VerificationError('NSS (libsoftokn3) is not installed, so --nss-db cannot be read; give the CAs as a PEM file with --trust.');
  const spec = nssDatabaseModule(softoken, databaseDir);
  const library = new pkcs11js.PKCS11();
  library.load(softoken);
  try {
    library.C_Initialize(spec.initialize);
  } catch (cause) {
    library.close();
    throw new VerificationError(`${databaseDir} cannot be opened as an NSS database (${(cause as Error).message}).`, { cause });
  }
  try {
    return library.C_GetSlotList(true).flatMap((slot) => certificatesIn(library, slot));
  } finally {
    library.C_Finalize();
    library.close();
  }
}

function certificatesIn(library: pkcs11js.PKCS11, slot: Buffer): x509.X509Certificate[] {
  const session = library.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
  try {
    library.C_FindObjectsInit(session, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_CERTIFICATE }]);
    const handles = library.C_FindObjects(session, MAX_CERTIFICATES);
    library.C_FindObjectsFinal(session);
    return handles.map((handle) => new x509.X509Certificate(Uint8Array.from(library.C_GetAttributeValue(session, handle, [{ type: pkcs11js.CKA_VALUE }])[0]!.value as Buffer)));
  } finally {
    library.C_CloseSession(session);
  }
}
