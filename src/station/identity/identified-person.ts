import type { x509 } from '../pki/x509.js';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { IdentityError } from './identity-error.js';

/** The identified person of a login: every field is required, else the certificate cannot log anyone in. */
export async function identifiedPerson(certificate: x509.X509Certificate, method: string): Promise<IdentifiedPerson> {
  // certificate-person.ts brings @peculiar/x509: loaded with the first login, not with the station.
  const { certificatePerson } = await import('../pki/certificate-person.js');
  const { idcode, firstname, lastname, country, birthDate } = certificatePerson(certificate);
  if (!country || !idcode || !firstname || !lastname) {
    throw new IdentityError('ERR_IDENTITY_CERTIFICATE_UNSUPPORTED', 'The authentication certificate does not name a person (serial number, given name and surname).', { status: 400 });
  }
  return { idcode, firstname, lastname, country, birth_date: birthDate, current_login_method: method };
}
