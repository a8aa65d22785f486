import { certificatePerson } from '../pki/certificate-person.js';
import type { SignerIdentity } from './signing-sessions.js';

/**
 * The signer as download-signed-file reports it. A certificate that names no natural person (an organisation's
 * seal) still signs; the fields it lacks are empty.
 */
export function signerIdentity(certificateDer: Uint8Array, signingMethod: string): SignerIdentity {
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
