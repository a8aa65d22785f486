import { randomBytes } from 'node:crypto';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { IdentityError } from './identity-error.js';
import type { IdentityMethod } from './identity-method.js';
import { REDIRECT_PROVIDER_IDENTITY } from './sandbox-identities.js';

/** Identifications waiting for the user's answer on the simulated provider page, by the start's nonce. */
export class ProviderDecisions {
  readonly #waiting = new Map<string, (approved: boolean) => void>();

  wait(nonce: string, settle: (approved: boolean) => void): void {
    this.#waiting.set(nonce, settle);
  }

  /** False when nothing waits for this nonce (answered already, expired, or never started). */
  decide(nonce: string, approved: boolean): boolean {
    const settle = this.#waiting.get(nonce);
    this.#waiting.delete(nonce);
    settle?.(approved);
    return settle !== undefined;
  }

  forget(nonce: string): void {
    this.#waiting.delete(nonce);
  }
}

/**
 * A redirect-based identification provider (bank ID, itsme, MitID, ...), simulated: start opens a session whose
 * nonce names it on the provider page; Approve identifies the sandbox redirect person, Deny refuses. The session
 * token is the `code` the integrator gets back on its redirect URI and completes through the identity API.
 */
export function redirectProviderSimulator(code: string, decisions: ProviderDecisions): IdentityMethod {
  return {
    code,
    label: `${code} (sandbox provider page)`,
    kind: 'sandbox',
    inputs: [],
    onLoginPage: false,
    async begin() {
      const nonce = randomBytes(24).toString('base64url');
      let refuse: ((error: IdentityError) => void) | undefined;
      const outcome = new Promise<IdentifiedPerson>((resolve, reject) => {
        refuse = reject;
        decisions.wait(nonce, (approved) =>
          approved ? resolve({ ...REDIRECT_PROVIDER_IDENTITY.person, current_login_method: code }) : reject(new IdentityError('ERR_IDENTITY_USER_REFUSED', 'The user denied the request at the provider.', { status: 400 })),
        );
      });
      return {
        response: { nonce },
        outcome,
        cancel: () => {
          decisions.forget(nonce);
          refuse?.(new IdentityError('ERR_IDENTITY_SESSION_EXPIRED', 'The identification session expired.', { status: 400, retriable: true }));
        },
      };
    },
  };
}
