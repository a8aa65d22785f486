import { createConnection, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EmulatedCard } from './emulated-card.js';
import { response } from './command-apdu.js';

export const VPCD_PORT = 35963;

/** What a scripted fault does to the next APDU it matches. */
export type CardFault =
  | { kind: 'delay'; ms: number }
  /** The card leaves the reader while the APDU is in flight: no answer, the connection closes. */
  | { kind: 'remove' }
  /** The card answers this status word (and no data) instead of running the command. */
  | { kind: 'status'; sw: number };

interface ScriptedFault {
  fault: CardFault;
  match: (apdu: Buffer) => boolean;
}

/**
 * Puts an emulated card into the real pcscd through vpcd (vsmartcard's virtual reader driver): connecting to
 * vpcd's port inserts the card, closing the connection removes it. Frames are a 2-byte big-endian length and a
 * payload; a 1-byte payload is a control code (00 power off, 01 power on, 02 reset, 04 get ATR), a longer one
 * is a command APDU answered with data||SW.
 */
export class VpcdCard {
  readonly card: EmulatedCard;
  private readonly port: number;
  private socket: Socket | undefined;
  private faults: ScriptedFault[] = [];
  /** Every command APDU the card received, in order (tests assert what the driver sent). */
  readonly received: Buffer[] = [];
  /** Exceptions the emulated card threw (tests expect none). */
  readonly errors: unknown[] = [];

  constructor(card: EmulatedCard, options: { port?: number } = {}) {
    this.card = card;
    this.port = options.port ?? VPCD_PORT;
  }

  get inserted(): boolean {
    return this.socket !== undefined;
  }

  /** Inserts the card: resolves once vpcd accepted the connection (pcscd sees the card on its next poll). */
  async insert(): Promise<void> {
    if (this.socket) throw new Error('card already inserted');
    const socket = createConnection({ host: '127.0.0.1', port: this.port });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('error', () => socket.destroy());
    this.socket = socket;
    this.card.reset();
    let buffered = Buffer.alloc(0);
    let queue = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const payload = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
        buffered = buffered.subarray(2 + payload.length);
        queue = queue.then(() => this.handle(socket, Buffer.from(payload))).catch((error: unknown) => {
          // A broken emulator must not go mute (pcscd would wait forever): answer 6F00 and keep the error.
          this.errors.push(error);
          this.send(socket, response(0x6f00));
        });
      }
    });
    socket.once('close', () => {
      if (this.socket === socket) this.socket = undefined;
    });
  }

  /** Removes the card: resolves once the connection is closed. */
  async remove(): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    this.socket = undefined;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    });
  }

  /** The next APDU for which `match` holds (default: the next one) suffers `fault`, once. */
  inject(fault: CardFault, match: (apdu: Buffer) => boolean = () => true): void {
    this.faults.push({ fault, match });
  }

  private async handle(socket: Socket, payload: Buffer): Promise<void> {
    if (socket.destroyed) return;
    if (payload.length === 1) {
      const code = payload[0];
      if (code === 0x04) this.send(socket, this.card.atr);
      else if (code === 0x00 || code === 0x02) this.card.reset();
      return;
    }
    this.received.push(payload);
    const index = this.faults.findIndex((f) => f.match(payload));
    const fault = index >= 0 ? this.faults.splice(index, 1)[0]!.fault : undefined;
    if (fault?.kind === 'remove') {
      await this.remove();
      return;
    }
    if (fault?.kind === 'delay') await sleep(fault.ms);
    const answer = fault?.kind === 'status' ? response(fault.sw) : await this.card.transmit(payload);
    this.send(socket, answer);
  }

  private send(socket: Socket, payload: Buffer): void {
    if (socket.destroyed) return;
    const frame = Buffer.alloc(2 + payload.length);
    frame.writeUInt16BE(payload.length, 0);
    payload.copy(frame, 2);
    socket.write(frame);
  }
}
