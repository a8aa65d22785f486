import type { MessageKey } from '../i18n/messages-en.js';
import type { Translate } from '../i18n/i18n.js';

/** Attribute types as they appear in the station's distinguished names (short names or dotted OIDs), named for people. */
const ATTRIBUTES: Record<string, MessageKey> = {
  CN: 'name.CN',
  '2.5.4.3': 'name.CN',
  SERIALNUMBER: 'name.serialNumber',
  '2.5.4.5': 'name.serialNumber',
  G: 'name.givenName',
  GN: 'name.givenName',
  GIVENNAME: 'name.givenName',
  '2.5.4.42': 'name.givenName',
  SN: 'name.surname',
  SURNAME: 'name.surname',
  '2.5.4.4': 'name.surname',
  O: 'name.O',
  '2.5.4.10': 'name.O',
  OU: 'name.OU',
  '2.5.4.11': 'name.OU',
  C: 'name.C',
  '2.5.4.6': 'name.C',
  L: 'name.L',
  '2.5.4.7': 'name.L',
  ORGANIZATIONIDENTIFIER: 'name.organizationIdentifier',
  '2.5.4.97': 'name.organizationIdentifier',
};

export interface NamePart {
  label: string;
  value: string;
}

/** "CN=Jõeorg\, Jaak, 2.5.4.5=PNOEE-38001085718" → labelled parts in the user's language; unknown types keep their code. */
export function humaneName(dn: string, t: Translate): NamePart[] {
  return splitDn(dn).map(([type, value]) => {
    const key = ATTRIBUTES[type.toUpperCase()];
    return { label: key ? t(key) : type, value };
  });
}

/** The person or thing a name is about: its common name, else the whole name. */
export function commonName(dn: string): string {
  return splitDn(dn).find(([type]) => type.toUpperCase() === 'CN' || type === '2.5.4.3')?.[1] ?? dn;
}

function splitDn(dn: string): Array<[string, string]> {
  const parts: Array<[string, string]> = [];
  // Commas escaped with a backslash belong to the value (RFC 4514).
  for (const rdn of dn.split(/(?<!\\),\s*/)) {
    const at = rdn.indexOf('=');
    if (at > 0) parts.push([rdn.slice(0, at).trim(), rdn.slice(at + 1).replace(/\\(.)/g, '$1')]);
  }
  return parts;
}
