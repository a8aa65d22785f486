import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { IdentityError } from './identity-error.js';
import type { IdentityAttempt } from './identity-method.js';
import type { SandboxBehaviour } from './sandbox-identities.js';
import type { SandboxTimings } from './sandbox-timings.js';

/** The simulated person at the other end of a sandbox provider: acts on the request after a realistic delay. */
export function sandboxUser(
  behaviour: SandboxBehaviour,
  timings: SandboxTimings,
  result: () => IdentifiedPerson,
  response: IdentityAttempt['response'],
): IdentityAttempt {
  let timer: NodeJS.Timeout | undefined;
  let cancelled: ((error: IdentityError) => void) | undefined;
  const outcome = new Promise<IdentifiedPerson>((resolve, reject) => {
    cancelled = reject;
    const delay = behaviour === 'TIMEOUT' ? timings.userTimeoutMs : timings.userActionMs;
    timer = setTimeout(() => {
      if (behaviour === 'OK') resolve(result());
      else if (behaviour === 'USER_REFUSED') reject(new IdentityError('ERR_IDENTITY_USER_REFUSED', 'The user refused the authentication request.', { status: 400 }));
      else reject(new IdentityError('ERR_IDENTITY_TIMEOUT', 'The user did not answer the authentication request in time.', { status: 400, retriable: true }));
    }, delay);
    timer.unref();
  });
  return {
    response,
    outcome,
    cancel: () => {
      clearTimeout(timer);
      cancelled?.(new IdentityError('ERR_IDENTITY_SESSION_EXPIRED', 'The identification session expired.', { status: 400, retriable: true }));
    },
  };
}
