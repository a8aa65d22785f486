import type { SignerIdentity } from './signing-sessions.js';

/**
 * The signer as download-signed-file reports it. A certificate that names no natural person (an organisation's
 * seal) still signs; the fields it lacks are empty.
 */
export async function signerIdentity(certificateDer: Uint8Array, signingMethod: string): Promise<SignerIdentity> {
  // certificate-person.ts reads the name with @peculiar/x509: loaded with the first signature, not with the station.
  const { certificatePerson } = await import('../pki/certificate-person.js');
  const person = certificatePerson(certificateDer);
  return {
    idcode: person.idcode ?? '',
    firstname: person.firstname ?? '',
    lastname: person.lastname ?? '',
    country: person.country ?? '',
    signingMethod,
    certificate: Buffer.from(certificateDer).toString('base64'),
  };
}
