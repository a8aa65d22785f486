import { StationError } from '../../core/errors/station-error.js';
import type { SandboxBehaviour } from '../identity/sandbox-identities.js';
import type { SandboxTimings } from '../identity/sandbox-timings.js';
import type { HashSigningCompleted } from './hash-signing-service.js';

/**
 * The simulated person holding the phone: after the sandbox delay, confirms (the signature is made), refuses, or
 * never answers (the provider's session times out). `abandon` drops the prepared signature when nothing is signed.
 */
export function simulatedSigner(
  behaviour: SandboxBehaviour,
  timings: SandboxTimings,
  act: { sign(): Promise<HashSigningCompleted>; abandon(): Promise<void> },
): { outcome: Promise<HashSigningCompleted>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stop: ((error: StationError) => void) | undefined;
  const outcome = new Promise<HashSigningCompleted>((resolve, reject) => {
    stop = reject;
    timer = setTimeout(
      () => {
        if (behaviour === 'OK') return void act.sign().then(resolve, reject);
        reject(
          behaviour === 'USER_REFUSED'
            ? new StationError('ERR_SIGNING_USER_REFUSED', 'The user refused the signing request in the app.', { status: 400 })
            : new StationError('ERR_SIGNING_TIMEOUT', 'The user did not answer the signing request in time.', { status: 400, retriable: true }),
        );
      },
      behaviour === 'TIMEOUT' ? timings.userTimeoutMs : timings.userActionMs,
    );
    timer.unref();
  });
  outcome.catch(() => act.abandon());
  return {
    outcome,
    cancel: () => {
      clearTimeout(timer);
      stop?.(new StationError('ERR_SIGNING_SESSION_EXPIRED', 'The signing session expired.', { status: 400, retriable: true }));
    },
  };
}
