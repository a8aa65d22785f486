import type { IdentityMethod } from './identity-method.js';
import { localTokenLogin, type LocalTokenLoginDeps } from './local-token-login.js';

/** The ID-card identification codes of the published browser client 2.140.0 (its idCard module, by country). */
export const ID_CARD_LOGIN_METHODS = ['ee-id-login', 'lv-id-login', 'lt-id-login', 'fi-id-login', 'be-id-login', 'pt-id-login', 'rs-id-login'] as const;

/**
 * ID-card identification as the browser clients run it (`readCard`, then finish with the token): the same login
 * with the card on this computer as the station's own login page (certificate choice, consent and PIN in the
 * station's prompts, a fresh challenge signed with the authentication key), under the client's method code.
 */
export function cardLogin(code: string, deps: LocalTokenLoginDeps): IdentityMethod {
  const local = localTokenLogin(deps);
  return {
    ...local,
    code,
    label: `ID card (${code})`,
    onLoginPage: false,
    // The published client finishes an ID-card login once, without polling: complete waits for the PIN.
    completeWaitMs: 120_000,
    async begin(request, context) {
      const attempt = await local.begin(request, context);
      return { ...attempt, outcome: attempt.outcome.then((person) => ({ ...person, current_login_method: code })) };
    },
  };
}
