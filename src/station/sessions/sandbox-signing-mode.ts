import type { StationMode } from '../../core/schemas/station-mode.js';
import { StationError } from '../../core/errors/station-error.js';

/**
 * Sandbox simulators of remote signing providers are refused in production mode
 * (docs/service-interface.md#sandbox-and-production).
 */
export function assertSandboxSigning(mode: () => StationMode, method: string): void {
  if (mode() !== 'sandbox') {
    throw new StationError('ERR_SIGNING_SANDBOX_ONLY', `"${method}" is a sandbox simulator and is refused in production mode.`, { status: 403 });
  }
}
