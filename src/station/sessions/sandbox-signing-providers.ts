import { StationError } from '../../core/errors/station-error.js';
import { anySandboxAccount, MOBILE_ID_IDENTITIES, SMART_ID_IDENTITIES } from '../identity/sandbox-identities.js';
import type { AppSigningProvider } from './app-signing-simulator.js';

/**
 * The app-based signing providers the station simulates, with the codes the published browser client sends
 * (smartIdSignature sends `smart-id` and polls `sk-smart-id`; mobileIdSignature `mobile-id` and `sk-mobile-id`) and
 * the method codes of the interface. Accounts: docs/sandbox-identities.md.
 */
export const SANDBOX_SIGNING_PROVIDERS: readonly AppSigningProvider[] = [
  {
    method: 'smart-id-signature',
    signTypes: ['smart-id', 'smart-id-signature'],
    completePaths: ['sk-smart-id', 'smart-id-signature'],
    account(request) {
      const country = (request.country ?? 'EE').toUpperCase();
      const account = SMART_ID_IDENTITIES.find((candidate) => candidate.person.idcode === request.idcode && candidate.person.country === country);
      if (account) return account;
      throw new StationError('ERR_SIGNING_ACCOUNT_NOT_FOUND', `No Smart-ID sandbox account for ${country} ${request.idcode ?? '(no idcode)'} (see docs/sandbox-identities.md).`, { status: 404 });
    },
  },
  {
    method: 'mid-signature',
    signTypes: ['mobile-id', 'mid-signature', 'lt-mid-signature'],
    completePaths: ['sk-mobile-id', 'mid-signature', 'lt-mid-signature'],
    account(request) {
      const account = MOBILE_ID_IDENTITIES.find((candidate) => candidate.person.idcode === request.idcode && candidate.phone === request.phone);
      if (account) return account;
      throw new StationError('ERR_SIGNING_NOT_MID_CLIENT', 'This phone number and identification code are not a Mobile-ID sandbox account (see docs/sandbox-identities.md).', { status: 404 });
    },
  },
  // The other challenge or transaction providers of the published client: the same simulated app (accounts:
  // anySandboxAccount).
  ...['evrotrust-signature', 'freja-simple-signature', 'halcom-qes-signature', 'swiss-id-qes-signature', 'swiss-com-qes-signature', 'lt-id-qes-signature', 'b-trust-qes-signature', 'harica-qes-signature'].map(
    (method): AppSigningProvider => ({ method, signTypes: [method], completePaths: [method], account: anySandboxAccount }),
  ),
  // Those whose user opens the session from a QR code (the client's `started` callback receives qr_code and
  // redirect_uri).
  ...['es-lleida-advanced-signature', 'diia-qes-signature'].map(
    (method): AppSigningProvider => ({ method, signTypes: [method], completePaths: [method], account: anySandboxAccount, showsQr: true }),
  ),
  { method: 'audkenni-qes-signature', signTypes: ['audkenni-qes-signature'], completePaths: ['audkenni-qes-signature'], account: anySandboxAccount, hasContinue: true },
];
