import type { StationErrorOptions } from '../../../core/errors/station-error.js';
import { TokenError } from '../token-errors.js';

/** pcscd (or the Windows/macOS smart card service) is not running or went away; the watcher keeps retrying. */
export class SmartCardServiceError extends TokenError {
  constructor(options: StationErrorOptions = {}) {
    super('ERR_PCSC_SERVICE_NOT_RUNNING', 'The smart card service is not running. Start it (pcscd) and the station reconnects.', {
      status: 503,
      retriable: true,
      ...options,
    });
  }
}

/** No driver is known for the card's ATR. */
export class UnknownCardError extends TokenError {
  readonly atr: string;
  constructor(atr: string) {
    super(
      'ERR_PCSC_UNKNOWN_CARD',
      `No driver for the card with ATR ${atr}. If it is an ID card, map this ATR to a driver in the station's ` +
        `configuration (pcsc.atrMap: { "atr": "${atr}", "driver": ... }).`,
      { status: 422, retriable: false, details: { atr } },
    );
    this.atr = atr;
  }
}

/** The card answered a status word the driver cannot continue from. */
export class CardStatusError extends TokenError {
  readonly sw: number;
  constructor(operation: string, sw: number) {
    const hex = sw.toString(16).toUpperCase().padStart(4, '0');
    super('ERR_PCSC_CARD_STATUS', `The card refused ${operation} (status ${hex}).`, {
      status: 502,
      retriable: false,
      details: { operation, sw: hex },
    });
    this.sw = sw;
  }
}

/** The requested key may not be used for that purpose or scheme (e.g. the authentication key for a document). */
export class KeyUsageError extends TokenError {
  constructor(message: string) {
    super('ERR_TOKEN_KEY_USAGE', message, { status: 400, retriable: false });
  }
}
