import { x509 } from '../pki/x509.js';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { IdentityError } from './identity-error.js';

const OID = { serialNumber: '2.5.4.5', givenName: '2.5.4.42', surname: '2.5.4.4', country: '2.5.4.6', commonName: '2.5.4.3' } as const;

/**
 * The person named by an eID authentication certificate: ETSI EN 319 412-1 semantics identifier in serialNumber
 * (`PNOEE-38001085718`), given name and surname; the common name `SURNAME,GIVENNAME,IDCODE` as a fallback, as
 * national ID cards write it.
 */
export function certificatePerson(certificate: x509.X509Certificate, method: string): IdentifiedPerson {
  const field = (oid: string): string | undefined => certificate.subjectName.getField(oid)[0];
  const serial = field(OID.serialNumber);
  const commonName = field(OID.commonName)?.split(',');
  const semantics = serial ? /^(?:PNO|IDC)([A-Z]{2})-(.+)$/.exec(serial) : null;
  const country = semantics?.[1] ?? field(OID.country);
  const idcode = semantics?.[2] ?? serial ?? commonName?.[2];
  const firstname = field(OID.givenName) ?? commonName?.[1];
  const lastname = field(OID.surname) ?? commonName?.[0];
  if (!country || !idcode || !firstname || !lastname) {
    throw new IdentityError('ERR_IDENTITY_CERTIFICATE_UNSUPPORTED', 'The authentication certificate does not name a person (serial number, given name and surname).', { status: 400 });
  }
  return { idcode, firstname, lastname, country, birth_date: birthDateFromIdcode(country, idcode), current_login_method: method };
}

/** Estonian and Lithuanian personal codes encode the birth date: GYYMMDD..., G giving century and sex. */
function birthDateFromIdcode(country: string, idcode: string): string | null {
  if (!['EE', 'LT'].includes(country) || !/^[1-6]\d{10}$/.test(idcode)) return null;
  const century = 1800 + Math.floor((Number(idcode[0]) - 1) / 2) * 100;
  const date = `${century + Number(idcode.slice(1, 3))}-${idcode.slice(3, 5)}-${idcode.slice(5, 7)}`;
  return Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ? null : date;
}
