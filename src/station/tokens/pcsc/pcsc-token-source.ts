import { systemClock, type Clock } from '../../ports/clock.js';
import type { SourceProblem } from '../token-registry.js';
import type { AtrMapping, AtrMappingInput } from '../../../core/schemas/atr-mapping.js';
import type { ReaderDescription } from '../../../core/schemas/token-description.js';
import type { Token, TokenSource } from '../token.js';
import { TokenError } from '../token-errors.js';
import { AtrTable, formatAtr } from './atr-table.js';
import { CardChannel } from './card-channel.js';
import { NationalIdToken } from './national-id-token.js';
import { UnknownCardError } from './pcsc-errors.js';
import { PcscWatcher, type PcscEvent, type PcscWatcherOptions } from './pcsc-watcher.js';
import { loadSmartcard } from './load-smartcard.js';
import { PcscUnavailableError } from './pcsc-unavailable-error.js';

export interface PcscTokenSourceOptions extends PcscWatcherOptions {
  /** ATR mappings from the station's configuration (`pcsc.atrMap`); they win over the built-in table. */
  atrMappings?: readonly AtrMappingInput[];
  openscModule?: string;
  /** How long `start()` waits for the cards already present to be read. */
  settleTimeoutMs?: number;
  /** Dates certificate validity is judged at; default the system clock. */
  clock?: Clock;
}

export interface PcscTokenSource extends TokenSource {
  /** Every reader with its card, the driver the ATR table chose for it, or why none could be. */
  readers(): ReaderDescription[];
  /** Set while the smart card service is not running (a retriable SmartCardServiceError). */
  serviceError(): TokenError | undefined;
  /** The service error as the token registry reports source problems. */
  problems(): SourceProblem[];
  /** PKCS#11 modules that cards present need (the PKCS#11 bridge loads them and lists their tokens). */
  pkcs11Modules(): string[];
}

type CardState = NonNullable<ReaderState['card']>;
type ApduDriver = Extract<AtrMapping['driver'], { kind: 'apdu' }>;

interface ReaderState {
  name: string;
  /**
   * Opening and closing cards in this reader run one after the other. pcsc-lite's disconnect is synchronous
   * and waits for pcscd's reader lock, which a concurrent connect holds while it powers the next card: run
   * side by side, the event loop would stall for the card's power-up (and forever with a card emulated in
   * this process).
   */
  busy: Promise<void>;
  card?: {
    atr: Buffer;
    mapping: AtrMapping | undefined;
    token?: NationalIdToken;
    problem?: string;
    opening?: Promise<void>;
  };
}

/** PC/SC readers and the ID cards in them, as tokens: direct-APDU cards become Tokens here, PKCS#11 ones are named. */
export function createPcscTokenSource(options: PcscTokenSourceOptions = {}): PcscTokenSource {
  return new PcscReaders(options);
}

class PcscReaders implements PcscTokenSource {
  readonly name = 'pcsc';
  readonly #options: PcscTokenSourceOptions;
  readonly #table: AtrTable;
  readonly #watcher: PcscWatcher;
  readonly #readers = new Map<string, ReaderState>();
  readonly #listeners = new Set<() => void>();
  /** Card connections still being closed (stop() waits for them). */
  readonly #closing = new Set<Promise<void>>();
  #unsubscribe: (() => void) | undefined;

  constructor(options: PcscTokenSourceOptions) {
    this.#options = options;
    this.#table = new AtrTable(options.atrMappings ?? [], options.openscModule === undefined ? {} : { openscModule: options.openscModule });
    this.#watcher = new PcscWatcher(options);
  }

  async start(): Promise<void> {
    this.#unsubscribe ??= this.#watcher.on((event) => this.#onEvent(event));
    this.#watcher.start();
    // Let the cards already in their readers be read before the first listing (`tokens list` needs them).
    await this.#settled(this.#readersPresentNow(), this.#options.settleTimeoutMs ?? 3000);
  }

  async stop(): Promise<void> {
    this.#watcher.stop();
    for (const reader of this.#readers.values()) this.#dropCard(reader);
    this.#readers.clear();
    await Promise.all(this.#closing);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#changed();
  }

  tokens(): Token[] {
    return [...this.#readers.values()].flatMap((r) => (r.card?.token ? [r.card.token] : []));
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  readers(): ReaderDescription[] {
    return [...this.#readers.values()].sort((a, b) => a.name.localeCompare(b.name)).map(describeReader);
  }

  serviceError(): TokenError | undefined {
    return this.#watcher.serviceError;
  }

  /** The service error; before the watcher first runs (sources start on first use), whether the module loads. */
  problems(): SourceProblem[] {
    const error = this.#watcher.serviceError ?? moduleUnavailable();
    return error ? [{ source: 'Smart card readers', message: error.message, code: error.code }] : [];
  }

  pkcs11Modules(): string[] {
    const modules = [...this.#readers.values()].flatMap((r) => (r.card?.mapping?.driver.kind === 'pkcs11' ? [r.card.mapping.driver.module] : []));
    return [...new Set(modules)];
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // One listener's failure does not keep the others from hearing about the change.
      }
    }
  }

  #onEvent(event: PcscEvent): void {
    switch (event.type) {
      case 'reader-attached':
        this.#readers.set(event.reader, { name: event.reader, busy: Promise.resolve() });
        break;
      case 'reader-detached':
        this.#removeReader(event.reader);
        break;
      case 'card-inserted':
        this.#cardInserted(event.reader, event.atr);
        break;
      case 'card-removed': {
        const reader = this.#readers.get(event.reader);
        if (reader) this.#dropCard(reader);
        break;
      }
      case 'service-up':
      case 'service-down':
        break;
    }
    this.#changed();
  }

  #removeReader(name: string): void {
    const reader = this.#readers.get(name);
    if (reader) this.#dropCard(reader);
    this.#readers.delete(name);
  }

  #cardInserted(name: string, atr: Buffer): void {
    const reader = this.#readers.get(name) ?? { name, busy: Promise.resolve() };
    this.#readers.set(name, reader);
    this.#dropCard(reader);
    const mapping = this.#table.match(atr);
    const card: CardState = { atr, mapping };
    reader.card = card;
    if (!mapping) card.problem = new UnknownCardError(formatAtr(atr)).message;
    else if (mapping.driver.kind === 'apdu') {
      const driver = mapping.driver;
      // openCard settles with its failure recorded as the reader's problem: it never rejects.
      card.opening = reader.busy = reader.busy.then(() => this.#openCard(reader, card, driver, mapping.name));
    }
  }

  #dropCard(reader: ReaderState): void {
    const card = reader.card;
    delete reader.card;
    if (!card) return;
    const closed = reader.busy.then(() => card.token?.release()).catch(() => undefined);
    reader.busy = closed;
    this.#closing.add(closed);
    void closed.finally(() => this.#closing.delete(closed));
  }

  async #openCard(reader: ReaderState, card: CardState, driver: ApduDriver, name: string): Promise<void> {
    if (reader.card !== card) return;
    try {
      const connection = await this.#watcher.connectCard(reader.name);
      const channel = new CardChannel(connection.card, connection.close);
      const info = { reader: reader.name, atr: formatAtr(card.atr), cardName: name, extendedLength: driver.extendedLength };
      const token = await NationalIdToken.open(channel, info, this.#options.clock ?? systemClock).catch(async (error: unknown) => {
        await channel.close();
        throw error;
      });
      if (reader.card === card) card.token = token;
      else await token.release();
    } catch (error) {
      if (reader.card === card) card.problem = error instanceof Error ? error.message : String(error);
    }
    if (reader.card === card) this.#changed();
  }

  /** The readers pcscd lists right now and whether each holds a card; empty while the service is down or PC/SC is unavailable. */
  #readersPresentNow(): ExpectedReader[] {
    return this.#watcher.presentReaders();
  }

  /** Resolves once every expected reader is known and its card read (or refused), or when the time is up. */
  #settled(expected: readonly ExpectedReader[], timeoutMs: number): Promise<void> {
    const isSettled = () =>
      expected.every(({ name, present }) => {
        const reader = this.#readers.get(name);
        if (!reader) return false;
        const card = reader.card;
        return !present || (card !== undefined && (card.opening === undefined || card.token !== undefined || card.problem !== undefined));
      });
    if (isSettled()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const unsubscribe = this.onChange(() => {
        if (isSettled()) done();
      });
    });
  }
}

interface ExpectedReader {
  name: string;
  present: boolean;
}

function describeReader(reader: ReaderState): ReaderDescription {
  const card = reader.card;
  if (!card) return { name: reader.name, cardPresent: false };
  const mapping = card.mapping;
  const driver = mapping?.driver;
  return {
    name: reader.name,
    cardPresent: true,
    atr: formatAtr(card.atr),
    ...(mapping && driver ? { driver: driver.kind === 'apdu' ? `${mapping.name}: ${driver.driver} (direct APDU)` : `${mapping.name}: PKCS#11 ${driver.module}` } : {}),
    ...(card.problem ? { problem: card.problem } : {}),
  };
}

/** Loads the PC/SC module (once per process) to tell whether it can load at all. */
function moduleUnavailable(): PcscUnavailableError | undefined {
  try {
    loadSmartcard();
    return undefined;
  } catch (error) {
    if (error instanceof PcscUnavailableError) return error;
    throw error;
  }
}
