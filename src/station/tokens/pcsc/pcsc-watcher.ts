import type { CardInterface, ContextInterface, MonitorEvent, ReaderMonitorInterface } from 'smartcard';
import type { TokenError } from '../token-errors.js';
import { mapPcscError } from './card-channel.js';
import { SmartCardServiceError } from './pcsc-errors.js';
import { PcscUnavailableError } from './pcsc-unavailable-error.js';
import { loadSmartcard } from './load-smartcard.js';

export type PcscEvent =
  | { type: 'service-up' }
  | { type: 'service-down'; error: TokenError }
  | { type: 'reader-attached'; reader: string }
  | { type: 'reader-detached'; reader: string }
  | { type: 'card-inserted'; reader: string; atr: Buffer }
  | { type: 'card-removed'; reader: string };

export interface PcscWatcherOptions {
  /** Reconnection delays while the service is down: doubling from `initialMs` up to `maxMs`. */
  backoff?: { initialMs?: number; maxMs?: number };
}

/**
 * Follows the smart card service: readers attached and detached, cards inserted (with their ATR) and removed.
 * pcsc-lite's monitor never recovers once pcscd has gone (its context is dead), so on a service error the
 * watcher reports every reader gone, reports the service down, and reconnects with backoff; after a restart the
 * readers and cards present are reported afresh.
 */
export class PcscWatcher {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly listeners = new Set<(event: PcscEvent) => void>();
  private monitor: ReaderMonitorInterface | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private running = false;
  private up = false;
  private lastError: TokenError | undefined;
  /** Reader name to whether a card is in it. */
  private readonly readerState = new Map<string, boolean>();

  constructor(options: PcscWatcherOptions = {}) {
    this.initialMs = options.backoff?.initialMs ?? 250;
    this.maxMs = options.backoff?.maxMs ?? 5000;
  }

  on(listener: (event: PcscEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Why the service is unusable, while it is. */
  get serviceError(): TokenError | undefined {
    return this.up ? undefined : this.lastError;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.teardown();
  }

  /**
   * Connects to the card in `reader` (shared, T=0 or T=1), with GET RESPONSE handled for T=0 cards. The card
   * gets a PC/SC context of its own: pcsc-lite serialises all calls on one context, so a slow APDU would
   * otherwise block the event loop's next synchronous call (listing readers, connecting another card).
   * `close` disconnects and releases that context.
   */
  async connectCard(reader: string): Promise<{ card: CardInterface; close: () => Promise<void> }> {
    if (!this.up) throw this.lastError ?? new SmartCardServiceError();
    const { Context, wrapCard, SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0, SCARD_PROTOCOL_T1, SCARD_LEAVE_CARD } = loadSmartcard();
    let context: ContextInterface | undefined;
    try {
      context = new Context();
      const target = context.listReaders().find((r) => r.name === reader);
      if (!target) throw new Error('Unknown reader');
      const card = wrapCard(await target.connect(SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)) as unknown as CardInterface;
      const owned = context;
      return {
        card,
        // Leave the card as it is: a disconnect that resets it makes pcscd talk to the card while this thread
        // waits, and vpcd then loses the card. PIN state on the card is not relied on (every signature asks).
        close: async () => {
          for (const release of [() => card.disconnect(SCARD_LEAVE_CARD), () => owned.close()]) {
            try {
              release();
            } catch {
              // Already gone with the card or the service: nothing left to release.
            }
          }
        },
      };
    } catch (error) {
      context?.close();
      throw mapPcscError(error);
    }
  }

  /** The readers the service lists now, and whether a card is in each; empty while the service is down. */
  presentReaders(): { name: string; present: boolean }[] {
    if (!this.up) return [];
    const { Context, SCARD_STATE_PRESENT } = loadSmartcard();
    try {
      const context = new Context();
      try {
        return context.listReaders().map((r) => ({ name: r.name, present: (r.state & SCARD_STATE_PRESENT) !== 0 }));
      } finally {
        context.close();
      }
    } catch {
      return []; // The service went away since: the monitor reports it.
    }
  }

  private connect(): void {
    if (!this.running) return;
    try {
      const { Context, ReaderMonitor } = loadSmartcard();
      // Probe first: the monitor's own start fails the same way, but only after creating a thread.
      new Context().close();
      this.monitor = new ReaderMonitor();
      this.monitor.start((event) => this.handle(event));
    } catch (error) {
      this.teardown();
      this.down(mapPcscError(error));
      return;
    }
    this.attempt = 0;
    this.up = true;
    this.lastError = undefined;
    this.emit({ type: 'service-up' });
  }

  private handle(event: MonitorEvent): void {
    if (!this.running || !this.up) return;
    switch (event.type) {
      case 'reader-attached':
        this.readerState.set(event.reader, false);
        this.emit({ type: 'reader-attached', reader: event.reader });
        if ((event.state & loadSmartcard().SCARD_STATE_PRESENT) !== 0 && event.atr) this.inserted(event.reader, event.atr);
        break;
      case 'card-inserted':
        if (event.atr) this.inserted(event.reader, event.atr);
        break;
      case 'card-removed':
        this.removed(event.reader);
        break;
      case 'reader-detached':
        this.removed(event.reader);
        this.readerState.delete(event.reader);
        this.emit({ type: 'reader-detached', reader: event.reader });
        break;
      case 'error': {
        // The monitor reports every failure of its context this way; none of them heals without a new context.
        this.teardown();
        this.down(new SmartCardServiceError({ details: { reason: event.reader } }));
        break;
      }
    }
  }

  private inserted(reader: string, atr: Buffer): void {
    this.readerState.set(reader, true);
    this.emit({ type: 'card-inserted', reader, atr: Buffer.from(atr) });
  }

  private removed(reader: string): void {
    if (this.readerState.get(reader) !== true) return;
    this.readerState.set(reader, false);
    this.emit({ type: 'card-removed', reader });
  }

  private down(error: TokenError): void {
    const wasUp = this.up;
    this.up = false;
    this.lastError = error;
    if (wasUp || this.attempt === 0) this.emit({ type: 'service-down', error });
    // A module that cannot load stays so until something is installed and the station restarted.
    if (!this.running || error instanceof PcscUnavailableError) return;
    const delay = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Drops the monitor and context, and reports the readers and cards they knew as gone. */
  private teardown(): void {
    const monitor = this.monitor;
    this.monitor = undefined;
    try {
      monitor?.stop();
    } catch {
      // A monitor whose service died may fail to stop cleanly; it is dropped either way.
    }
    for (const reader of [...this.readerState.keys()]) {
      this.removed(reader);
      this.readerState.delete(reader);
      this.emit({ type: 'reader-detached', reader });
    }
  }

  private emit(event: PcscEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the watcher keeps serving the others.
      }
    }
  }
}
