import type { IdentityMethod } from './identity-method.js';
import { anySandboxAccount } from './sandbox-identities.js';
import { sandboxUser } from './sandbox-user.js';
import type { SandboxTimings } from './sandbox-timings.js';
import { verificationCode } from './verification-code.js';

/** App-based identification methods of the published client with no demo accounts of their own. */
export const APP_LOGIN_METHODS = ['freja-eid-login', 'evrotrust-login'] as const;

/**
 * An app-based identification (Freja eID, Evrotrust), simulated like Smart-ID: start shows a code, the app answers
 * after the sandbox delay, as the account anySandboxAccount finds.
 */
export function appLoginSimulator(code: string, timings: SandboxTimings): IdentityMethod {
  return {
    code,
    label: `${code} (sandbox)`,
    kind: 'sandbox',
    inputs: [],
    onLoginPage: false,
    async begin(request) {
      const identity = anySandboxAccount(request);
      return sandboxUser(identity.behaviour, timings, () => ({ ...identity.person, current_login_method: code }), { challenge: verificationCode() });
    },
  };
}
