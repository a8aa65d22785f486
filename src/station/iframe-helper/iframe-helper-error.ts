import { StationError, type StationErrorCode, type StationErrorOptions } from '../../core/errors/station-error.js';

/** Refusals of the iframe helper, with stable codes the page passes on to its embedder. */
export class IframeHelperError extends StationError {
  constructor(code: Extract<StationErrorCode, `ERR_IFRAME_${string}`>, message: string, options: StationErrorOptions = {}) {
    super(code, message, { status: 400, ...options });
  }
}
