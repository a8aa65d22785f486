import { setTimeout as sleep } from 'node:timers/promises';
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

export interface PcscTokenSourceOptions extends PcscWatcherOptions {
  /** ATR mappings from the station's configuration (`pcsc.atrMap`); they win over the built-in table. */
  atrMappings?: readonly AtrMappingInput[];
  openscModule?: string;
  /** How long `start()` waits for the cards already present to be read. */
  settleTimeoutMs?: number;
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
  const table = new AtrTable(options.atrMappings ?? [], options.openscModule === undefined ? {} : { openscModule: options.openscModule });
  const watcher = new PcscWatcher(options);
  const readers = new Map<string, ReaderState>();
  const listeners = new Set<() => void>();
  /** Card connections still being closed (stop() waits for them). */
  const closing = new Set<Promise<void>>();
  let unsubscribe: (() => void) | undefined;

  const changed = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // One listener's failure does not keep the others from hearing about the change.
      }
    }
  };

  const dropCard = (reader: ReaderState) => {
    const card = reader.card;
    delete reader.card;
    if (!card) return;
    const closed = reader.busy.then(() => card.token?.release()).catch(() => undefined);
    reader.busy = closed;
    closing.add(closed);
    void closed.finally(() => closing.delete(closed));
  };

  const openCard = async (reader: ReaderState, card: NonNullable<ReaderState['card']>, driver: Extract<AtrMapping['driver'], { kind: 'apdu' }>, name: string) => {
    if (reader.card !== card) return;
    try {
      const connection = await watcher.connectCard(reader.name);
      const channel = new CardChannel(connection.card, connection.close);
      const token = await NationalIdToken.open(channel, { reader: reader.name, atr: formatAtr(card.atr), cardName: name, extendedLength: driver.extendedLength }).catch(async (error: unknown) => {
        await channel.close();
        throw error;
      });
      if (reader.card === card) card.token = token;
      else await token.release();
    } catch (error) {
      if (reader.card === card) card.problem = error instanceof Error ? error.message : String(error);
    }
    if (reader.card === card) changed();
  };

  const onEvent = (event: PcscEvent) => {
    switch (event.type) {
      case 'reader-attached':
        readers.set(event.reader, { name: event.reader, busy: Promise.resolve() });
        break;
      case 'reader-detached': {
        const reader = readers.get(event.reader);
        if (reader) dropCard(reader);
        readers.delete(event.reader);
        break;
      }
      case 'card-inserted': {
        const reader = readers.get(event.reader) ?? { name: event.reader, busy: Promise.resolve() };
        readers.set(event.reader, reader);
        dropCard(reader);
        const mapping = table.match(event.atr);
        const card: NonNullable<ReaderState['card']> = { atr: event.atr, mapping };
        reader.card = card;
        if (!mapping) card.problem = new UnknownCardError(formatAtr(event.atr)).message;
        else if (mapping.driver.kind === 'apdu') {
          const driver = mapping.driver;
          // openCard settles with its failure recorded as the reader's problem: it never rejects.
          card.opening = reader.busy = reader.busy.then(() => openCard(reader, card, driver, mapping.name));
        }
        break;
      }
      case 'card-removed': {
        const reader = readers.get(event.reader);
        if (reader) dropCard(reader);
        break;
      }
      case 'service-up':
      case 'service-down':
        break;
    }
    changed();
  };

  return {
    name: 'pcsc',

    async start() {
      unsubscribe ??= watcher.on(onEvent);
      watcher.start();
      // Let the cards already in their readers be read before the first listing (`tokens list` needs them).
      const deadline = Date.now() + (options.settleTimeoutMs ?? 3000);
      // Empty while the service is down (the watcher reports it and keeps retrying) or PC/SC is unavailable.
      const expected = watcher.presentReaders();
      while (Date.now() < deadline) {
        const settled = expected.every(({ name, present }) => {
          const reader = readers.get(name);
          if (!reader) return false;
          const card = reader.card;
          return !present || (card !== undefined && (card.opening === undefined || card.token !== undefined || card.problem !== undefined));
        });
        if (settled) return;
        await sleep(10);
      }
    },

    async stop() {
      watcher.stop();
      for (const reader of readers.values()) dropCard(reader);
      readers.clear();
      await Promise.all(closing);
      unsubscribe?.();
      unsubscribe = undefined;
      changed();
    },

    tokens(): Token[] {
      return [...readers.values()].flatMap((r) => (r.card?.token ? [r.card.token] : []));
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    readers(): ReaderDescription[] {
      return [...readers.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((r) => {
          const card = r.card;
          if (!card) return { name: r.name, cardPresent: false };
          const driver = card.mapping?.driver;
          return {
            name: r.name,
            cardPresent: true,
            atr: formatAtr(card.atr),
            ...(driver ? { driver: driver.kind === 'apdu' ? `${card.mapping!.name}: ${driver.driver} (direct APDU)` : `${card.mapping!.name}: PKCS#11 ${driver.module}` } : {}),
            ...(card.problem ? { problem: card.problem } : {}),
          };
        });
    },

    serviceError() {
      return watcher.serviceError;
    },

    problems() {
      const error = watcher.serviceError;
      return error ? [{ source: 'Smart card readers', message: error.message, code: error.code }] : [];
    },

    pkcs11Modules() {
      const modules = [...readers.values()].flatMap((r) => (r.card?.mapping?.driver.kind === 'pkcs11' ? [r.card.mapping.driver.module] : []));
      return [...new Set(modules)];
    },
  };
}
