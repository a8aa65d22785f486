import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { IdentityError } from './identity-error.js';
import type { IdentityMethod } from './identity-method.js';
import { SMART_ID_IDENTITIES } from './sandbox-identities.js';
import { sandboxUser } from './sandbox-user.js';
import type { SandboxTimings } from './sandbox-timings.js';
import { verificationCode } from './verification-code.js';

/** Smart-ID-type app login, simulated: start shows a 4-digit code, the demo account confirms after a delay. */
export function smartIdSimulator(timings: SandboxTimings): IdentityMethod {
  return {
    code: 'smartid',
    label: 'Smart-ID (sandbox)',
    kind: 'sandbox',
    inputs: ['idcode'],
    async begin(request) {
      if (!request.idcode) throw new InvalidInputError('Smart-ID needs the personal identification code.', { idcode: ['required'] });
      const country = (request.country ?? 'EE').toUpperCase();
      const identity = SMART_ID_IDENTITIES.find((candidate) => candidate.person.idcode === request.idcode && candidate.person.country === country);
      if (!identity) {
        throw new IdentityError('ERR_IDENTITY_ACCOUNT_NOT_FOUND', `No Smart-ID sandbox account for ${country} ${request.idcode} (see docs/sandbox-identities.md).`, { status: 404 });
      }
      return sandboxUser(identity.behaviour, timings, () => ({ ...identity.person, current_login_method: 'smartid' }), { challenge: verificationCode() });
    },
  };
}
