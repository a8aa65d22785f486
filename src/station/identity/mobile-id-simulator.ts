import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { IdentityError } from './identity-error.js';
import type { IdentityMethod } from './identity-method.js';
import { MOBILE_ID_IDENTITIES } from './sandbox-identities.js';
import { sandboxUser } from './sandbox-user.js';
import type { SandboxTimings } from './sandbox-timings.js';
import { verificationCode } from './verification-code.js';

/**
 * Mobile-ID login, simulated: the idcode and phone must belong together (as the operator checks), start shows the
 * 4-digit code sent to the phone, the demo SIM answers after a delay.
 */
export function mobileIdSimulator(timings: SandboxTimings): IdentityMethod {
  return {
    code: 'mid-login',
    label: 'Mobile-ID (sandbox)',
    kind: 'sandbox',
    inputs: ['idcode', 'phone'],
    async begin(request) {
      const missing: Record<string, string[]> = {};
      if (!request.idcode) missing.idcode = ['required'];
      if (!request.phone) missing.phone = ['required'];
      if (Object.keys(missing).length) throw new InvalidInputError('Mobile-ID needs the personal identification code and the phone number.', missing);
      const identity = MOBILE_ID_IDENTITIES.find((candidate) => candidate.person.idcode === request.idcode && candidate.phone === request.phone);
      if (!identity) {
        throw new IdentityError('ERR_IDENTITY_NOT_MID_CLIENT', 'This phone number and identification code are not a Mobile-ID sandbox account (see docs/sandbox-identities.md).', { status: 404 });
      }
      return sandboxUser(identity.behaviour, timings, () => ({ ...identity.person, current_login_method: 'mid-login' }), { challenge: verificationCode() });
    },
  };
}
