import { randomBytes } from 'node:crypto';
import type { Database } from '../store/database.js';
import { TsaRejection } from './tsa-rejection.js';

interface Block {
  next: number;
  end: number;
  /** The random octets of every serial of the block. */
  random: Buffer;
}

/**
 * Random octets after the counter: 64 bits, so that no state of the store can make a serial repeat. They are drawn
 * once per block, not per serial: the counter already tells the serials of one block apart, and a block handed out
 * again after the store went back gets other random octets; a draw per request cost the event loop more than the
 * rest of the serial.
 */
const RANDOM_OCTETS = 8;
const COUNTER_OCTETS = 8;

/**
 * Serial numbers for timestamp tokens: a counter, then 64 random bits (16 octets, within RFC 3161's 20). A block of
 * counter values is reserved in the store (one durable transaction) before any of them is used, so a crash only
 * skips the rest of the block; the next block is reserved in the background when half of the current one is
 * spent, so requests do not wait for the store. The counter keeps serials increasing; the random part keeps them
 * unique when the store itself goes back (a WAL cut short by damage, a restored backup, a reset), where the
 * counter hands out values again.
 */
export class TsaSerialAllocator {
  readonly #database: Database;
  readonly #blockSize: number;
  #current: Block = { next: 0, end: 0, random: Buffer.alloc(RANDOM_OCTETS) };
  #spare: Block | undefined;
  #reserving: Promise<void> | undefined;

  constructor(database: Database, blockSize = 1024) {
    if (!Number.isSafeInteger(blockSize) || blockSize < 1) throw new TypeError(`blockSize must be a positive integer, got ${blockSize}`);
    this.#database = database;
    this.#blockSize = blockSize;
  }

  /** The next serial number, big-endian. */
  async next(): Promise<Buffer> {
    for (;;) {
      if (this.#current.next < this.#current.end) {
        const serial = serialOf(this.#current.next++, this.#current.random);
        if (this.#spare === undefined && this.#reserving === undefined && this.#current.end - this.#current.next <= this.#blockSize / 2) {
          this.#reserve().catch(() => undefined); // a failure resurfaces when the block is really needed
        }
        return serial;
      }
      if (this.#spare) {
        this.#current = this.#spare;
        this.#spare = undefined;
        continue;
      }
      await this.#reserve();
    }
  }

  /** Waits for a reservation in flight, so the store can be closed cleanly. */
  async drain(): Promise<void> {
    await this.#reserving?.catch(() => undefined);
  }

  /**
   * Reserves the next block; at most one reservation runs at a time and every caller shares it. The block is
   * installed exactly once, here: as the current block if that one is spent, otherwise as the spare.
   */
  #reserve(): Promise<void> {
    this.#reserving ??= this.#database
      .transaction(async (tx) => {
        const row = await tx.get<{ next_serial: number }>('SELECT next_serial FROM tsa_serial WHERE id = 1');
        const start = row?.next_serial ?? 1;
        const end = start + this.#blockSize;
        if (!Number.isSafeInteger(end)) throw new TypeError('TSA serial numbers are exhausted');
        await tx.run('INSERT INTO tsa_serial (id, next_serial) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET next_serial = excluded.next_serial', [end]);
        return { next: start, end, random: randomBytes(RANDOM_OCTETS) };
      })
      .then((block) => {
        if (this.#current.next >= this.#current.end) this.#current = block;
        else this.#spare = block;
      })
      .catch((cause: unknown) => {
        throw new TsaRejection('systemFailure', 'The TSA cannot reserve serial numbers in its store.', { cause });
      })
      .finally(() => {
        this.#reserving = undefined;
      });
    return this.#reserving;
  }
}

function serialOf(counter: number, random: Buffer): Buffer {
  const serial = Buffer.allocUnsafe(COUNTER_OCTETS + RANDOM_OCTETS);
  serial.writeBigUInt64BE(BigInt(counter), 0);
  random.copy(serial, COUNTER_OCTETS);
  return serial;
}
