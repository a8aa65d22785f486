import { x509 } from './x509.js';

const OID = { serialNumber: '2.5.4.5', givenName: '2.5.4.42', surname: '2.5.4.4', country: '2.5.4.6', commonName: '2.5.4.3' } as const;

/** The natural person a certificate names; a field the certificate does not carry is undefined. */
export interface CertificatePerson {
  idcode: string | undefined;
  firstname: string | undefined;
  lastname: string | undefined;
  country: string | undefined;
  /** ISO date, for personal codes that encode it (EE, LT); otherwise null. */
  birthDate: string | null;
}

/**
 * Reads the person from an eID certificate: ETSI EN 319 412-1 semantics identifier in serialNumber
 * (`PNOEE-38001085718` → country EE, idcode 38001085718), given name and surname; the common name
 * `SURNAME,GIVENNAME,IDCODE` as a fallback, as national ID cards write it.
 */
export function certificatePerson(certificate: x509.X509Certificate | Uint8Array): CertificatePerson {
  const parsed = certificate instanceof Uint8Array ? new x509.X509Certificate(new Uint8Array(certificate)) : certificate;
  const field = (oid: string): string | undefined => parsed.subjectName.getField(oid)[0];
  const serial = field(OID.serialNumber);
  const commonName = field(OID.commonName)?.split(',');
  const semantics = serial ? /^(?:PNO|IDC)([A-Z]{2})-(.+)$/.exec(serial) : null;
  const country = semantics?.[1] ?? field(OID.country);
  const idcode = semantics?.[2] ?? serial ?? commonName?.[2];
  return {
    idcode,
    firstname: field(OID.givenName) ?? commonName?.[1],
    lastname: field(OID.surname) ?? commonName?.[0],
    country,
    birthDate: country && idcode ? birthDateFromIdcode(country, idcode) : null,
  };
}

/** Estonian and Lithuanian personal codes encode the birth date: GYYMMDD..., G giving century and sex. */
function birthDateFromIdcode(country: string, idcode: string): string | null {
  if (!['EE', 'LT'].includes(country) || !/^[1-6]\d{10}$/.test(idcode)) return null;
  const century = 1800 + Math.floor((Number(idcode[0]) - 1) / 2) * 100;
  const date = `${century + Number(idcode.slice(1, 3))}-${idcode.slice(3, 5)}-${idcode.slice(5, 7)}`;
  return Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ? null : date;
}
