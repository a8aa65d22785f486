import type { AccountClaims } from 'oidc-provider';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { EUDI_WALLET_METHOD } from '../identity/eudi-wallet-simulator.js';

/** Methods whose result is government-issued data with verification metadata (2.4 item 4). */
const VERIFIED_DATA_METHODS = new Set([EUDI_WALLET_METHOD]);

/**
 * The claims of one login. verified_claims only when the login that produced this code was a wallet method
 * (the authentication's amr), never from data kept from an earlier wallet login. oidc-provider then filters by
 * the granted scopes; verified_claims passes or not as one claim.
 */
export function personClaims(sub: string, person: IdentifiedPerson, amr: readonly string[] | undefined): AccountClaims {
  const verified = person.verified_claims && amr?.some((method) => VERIFIED_DATA_METHODS.has(method)) && VERIFIED_DATA_METHODS.has(person.current_login_method);
  return {
    sub,
    name: `${person.firstname} ${person.lastname}`,
    given_name: person.firstname,
    family_name: person.lastname,
    ...(person.birth_date ? { birthdate: person.birth_date } : {}),
    ...(verified ? { verified_claims: person.verified_claims } : {}),
  };
}
