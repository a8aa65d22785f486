import { StationError } from '../../../core/errors/station-error.js';
import type { StationErrorCode } from '../../../core/errors/station-error-codes.js';

type TrustListErrorCode = Extract<StationErrorCode, `ERR_TRUST_${string}`>;

/** A trusted list or trust change refused: unreadable, badly signed, older than the one kept, too large, unreachable. */
export class TrustListError extends StationError {
  constructor(code: TrustListErrorCode, message: string, options: { cause?: unknown; retriable?: boolean; status?: number } = {}) {
    super(code, message, { status: options.status ?? 400, retriable: options.retriable ?? false, ...(options.cause === undefined ? {} : { cause: options.cause }) });
  }
}
