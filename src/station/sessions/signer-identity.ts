import * as pkijs from 'pkijs';
import type { SignerIdentity } from './signing-sessions.js';

const OID = { serialNumber: '2.5.4.5', givenName: '2.5.4.42', surname: '2.5.4.4', country: '2.5.4.6', commonName: '2.5.4.3' } as const;

/**
 * The signer as the service reports it (download-signed-file, audit): national ID certificates carry the
 * personal code in serialNumber (ETSI EN 319 412-1 semantics identifier, e.g. PNOEE-38001085718) and the names
 * in givenName/surname; other certificates fall back to the common name.
 */
export function signerIdentity(certificateDer: Uint8Array, signingMethod: string): SignerIdentity {
  const certificate = pkijs.Certificate.fromBER(new Uint8Array(certificateDer));
  const attribute = (oid: string): string | undefined => {
    const found = certificate.subject.typesAndValues.find((tv) => tv.type === oid);
    return found ? String(found.value.valueBlock.value) : undefined;
  };
  const commonName = attribute(OID.commonName) ?? '';
  const [fallbackFirst = '', ...rest] = commonName.split(/\s+/);
  return {
    idcode: attribute(OID.serialNumber) ?? '',
    firstname: attribute(OID.givenName) ?? fallbackFirst,
    lastname: attribute(OID.surname) ?? rest.join(' '),
    country: attribute(OID.country) ?? '',
    signingMethod,
    certificate: Buffer.from(certificateDer).toString('base64'),
  };
}

/** One-line subject for prompts and the audit log. */
export function subjectLine(certificateDer: Uint8Array): { subject: string; issuer: string; serialNumber: string } {
  const certificate = pkijs.Certificate.fromBER(new Uint8Array(certificateDer));
  const line = (name: pkijs.RelativeDistinguishedNames): string =>
    name.typesAndValues.map((tv) => `${SHORT_NAMES[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`).join(', ');
  return {
    subject: line(certificate.subject),
    issuer: line(certificate.issuer),
    serialNumber: Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString('hex'),
  };
}

const SHORT_NAMES: Record<string, string> = {
  [OID.commonName]: 'CN',
  [OID.serialNumber]: 'serialNumber',
  [OID.givenName]: 'GN',
  [OID.surname]: 'SN',
  [OID.country]: 'C',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
};
