import type { IdentifiedPerson, VerifiedClaims } from '../../core/schemas/identity-api.js';

/**
 * What the simulated user does: confirm, refuse, or never answer. Mirrors the outcome-scripted demo accounts of
 * the real providers' sandboxes. Documented in docs/sandbox-identities.md; keep the two in step.
 */
export type SandboxBehaviour = 'OK' | 'USER_REFUSED' | 'TIMEOUT';

export interface SandboxIdentity {
  person: Omit<IdentifiedPerson, 'current_login_method' | 'verified_claims'>;
  behaviour: SandboxBehaviour;
  /** Mobile-ID: the phone number registered with the idcode. */
  phone?: string;
  /** Wallet: the PID attributes the sandbox wallet presents. */
  pid?: VerifiedClaims['claims'];
}

const person = (country: string, idcode: string, firstname: string, lastname: string, birth_date: string) => ({
  country,
  idcode,
  firstname,
  lastname,
  birth_date,
});

export const SMART_ID_IDENTITIES: readonly SandboxIdentity[] = [
  // The demo account the service's own documentation and integrators' test code use.
  { person: person('EE', '10101010005', 'DEMO', 'SMART-ID', '1801-01-01'), behaviour: 'OK' },
  { person: person('EE', '30303039914', 'OK', 'TESTNUMBER', '1903-03-03'), behaviour: 'OK' },
  { person: person('LT', '30303039914', 'OK', 'TESTNUMBER', '1903-03-03'), behaviour: 'OK' },
  { person: person('EE', '30403039917', 'REFUSED', 'TESTNUMBER', '1904-03-03'), behaviour: 'USER_REFUSED' },
  { person: person('EE', '30403039928', 'TIMEOUT', 'TESTNUMBER', '1904-03-03'), behaviour: 'TIMEOUT' },
];

export const MOBILE_ID_IDENTITIES: readonly SandboxIdentity[] = [
  { person: person('EE', '60001019906', 'MARY ÄNN', 'O’CONNEŽ-ŠUSLIK TESTNUMBER', '2000-01-01'), behaviour: 'OK', phone: '+37200000766' },
  { person: person('EE', '60001019947', 'CANCELLED', 'TESTNUMBER', '2000-01-01'), behaviour: 'USER_REFUSED', phone: '+37207110066' },
  { person: person('EE', '60001019950', 'TIMEOUT', 'TESTNUMBER', '2000-01-01'), behaviour: 'TIMEOUT', phone: '+37201100266' },
];

export const WALLET_IDENTITIES: readonly SandboxIdentity[] = [
  {
    person: person('AT', 'ATSBX0001', 'ERIKA', 'MUSTERFRAU', '1964-08-12'),
    behaviour: 'OK',
    pid: {
      given_name: 'Erika',
      family_name: 'Musterfrau',
      birthdate: '1964-08-12',
      nationalities: ['AT'],
      place_of_birth: { country: 'AT', locality: 'Wien' },
      personal_administrative_number: 'ATSBX0001',
      document_number: 'SBX-PID-0001',
      id_expiry_date: '2030-12-31',
    },
  },
  {
    person: person('AT', 'ATSBX0002', 'DECLINED', 'TESTPERSON', '1990-01-01'),
    behaviour: 'USER_REFUSED',
    pid: { given_name: 'Declined', family_name: 'Testperson', birthdate: '1990-01-01', nationalities: ['AT'] },
  },
];

/** Whom the simulated redirect providers (bank IDs, itsme, MitID, ...) identify or sign as, on Approve. */
export const REDIRECT_PROVIDER_IDENTITY: SandboxIdentity = { person: person('EE', '38001085718', 'REDIRECT', 'TESTPERSON', '1980-01-08'), behaviour: 'OK' };

/**
 * The account of a provider without demo accounts of its own: the Smart-ID and Mobile-ID accounts keep their
 * behaviour (matched by idcode or phone), so the refusing and silent ones refuse and time out there too; anyone
 * else is the sandbox redirect person.
 */
export function anySandboxAccount(request: { idcode?: string | undefined; phone?: string | undefined }): SandboxIdentity {
  const matches = (candidate: SandboxIdentity): boolean =>
    (request.idcode !== undefined && candidate.person.idcode === request.idcode) || (request.phone !== undefined && candidate.phone === request.phone);
  return [...SMART_ID_IDENTITIES, ...MOBILE_ID_IDENTITIES].find(matches) ?? REDIRECT_PROVIDER_IDENTITY;
}
