import type { StationMode } from '../../core/schemas/station-mode.js';
import { StationError } from '../../core/errors/station-error.js';

/** The OIDC flow is the service's sandbox-only beta (docs/service-interface.md#sandbox-and-production): refused in production mode. */
export function assertSandbox(mode: () => StationMode): void {
  if (mode() !== 'sandbox') {
    throw new StationError('ERR_OIDC_SANDBOX_ONLY', 'The OpenID Connect provider is a beta available in sandbox mode only.', {
      status: 404,
      details: { oauthError: 'invalid_request' },
    });
  }
}
