import type { CardInterface } from 'smartcard';
import { TokenRemovedError, TokenUnavailableError, TokenError } from '../token-errors.js';
import { decodeResponseApdu, encodeCommandApdu, type CommandApduFields, type ResponseApdu } from './command-apdu.js';
import { SmartCardServiceError } from './pcsc-errors.js';

/** Room for an extended-length answer (65536 data bytes and SW1SW2). */
const MAX_RESPONSE = 65538;
const ROUND_TRIPS_KEPT = 1000;

// pcsc-lite error texts as the `smartcard` package reports them (it gives no numeric code).
const SERVICE_GONE = new Set(['PC/SC service not running', 'PC/SC service stopped', 'Invalid handle', 'Context is not valid']);
const CARD_GONE = new Set([
  'Card was removed',
  'Card was reset',
  'Card is unpowered',
  'No smart card present',
  'Reader unavailable',
  'Unknown reader',
  'Transaction failed',
  'Communication error',
  'Card is not connected',
]);

/** Maps a `smartcard` failure to the station's error family: card gone and service gone are both retriable. */
export function mapPcscError(error: unknown): TokenError {
  if (error instanceof TokenError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (SERVICE_GONE.has(message)) return new SmartCardServiceError({ cause: error });
  if (CARD_GONE.has(message)) return new TokenRemovedError({ cause: error });
  return new TokenUnavailableError(`Smart card error: ${message}`, { cause: error });
}

/**
 * One card connection: APDUs go out one at a time, multi-APDU operations hold the channel (`exclusive`) so
 * that two callers never interleave (a SELECT of one would break the READ BINARY of the other), and every
 * failure comes back as a TokenError. 61xx / GET RESPONSE is handled by the `smartcard` package.
 */
export class CardChannel {
  private readonly card: CardInterface;
  private readonly release: () => Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set once the card was removed or the token released: later calls fail with TokenRemovedError. */
  private closed: Promise<void> | undefined;
  /** Round-trip times of the latest APDU exchanges, in ms (for diagnostics and the benchmark). */
  readonly roundTrips: number[] = [];

  /** `release` disconnects the card and frees its context; it runs once nothing is in flight. */
  constructor(card: CardInterface, release: () => Promise<void>) {
    this.card = card;
    this.release = release;
  }

  /** Runs `operation` with the channel to itself; calls queue behind each other. */
  exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async transmit(fields: CommandApduFields, signal?: AbortSignal): Promise<ResponseApdu> {
    signal?.throwIfAborted();
    if (this.closed) throw new TokenRemovedError();
    const started = performance.now();
    const command = encodeCommandApdu(fields);
    let answer: Buffer;
    try {
      answer = await this.card.transmit(command, { autoGetResponse: true, maxRecvLength: MAX_RESPONSE });
    } catch (error) {
      throw this.closed ? new TokenRemovedError({ cause: error }) : mapPcscError(error);
    } finally {
      // The command may carry a PIN block: do not leave a copy for the garbage collector.
      command.fill(0);
    }
    if (this.roundTrips.push(performance.now() - started) > ROUND_TRIPS_KEPT) this.roundTrips.shift();
    // vpcd and some readers answer a card pulled mid-command with an empty response instead of an error.
    if (this.closed || answer.length < 2) throw new TokenRemovedError();
    return decodeResponseApdu(answer);
  }

  /** Idempotent. Disconnecting with an APDU in flight would block on pcsc-lite's lock: wait for it first. */
  close(): Promise<void> {
    this.closed ??= this.queue.then(() => this.release());
    return this.closed;
  }
}
