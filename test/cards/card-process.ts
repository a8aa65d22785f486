import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NationalIdCardOptions } from './national-id-card.js';
import type { createPivCard } from './piv-card.js';

export interface CardHostOptions {
  kind: 'piv' | 'national-id';
  /** The CA is made in the child; its PEM comes back in `caPem`. */
  piv?: Omit<NonNullable<Parameters<typeof createPivCard>[0]>, 'ca'>;
  nationalId?: Omit<NationalIdCardOptions, 'ca'>;
}

export type CardHostCommand =
  | { id: number; op: 'insert' | 'remove' }
  | { id: number; op: 'setPinTries'; tries: number; reference?: number }
  | { id: number; op: 'pinTries'; reference?: number };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export type CardHostReply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: string };

/**
 * An emulated card in a child process. Use it whenever the test process itself calls PC/SC or PKCS#11
 * synchronously (pkcs11js, OpenSC in-process): such a call blocks this process's event loop while pcscd waits
 * for the card, so a card emulated in the same process could never answer and both would hang.
 */
export class CardProcess {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** DER certificates, base64, by slot name ('authentication', 'signature', 'signing', ...). */
  certificates: Record<string, string> = {};
  caPem = '';

  private constructor(child: ChildProcess) {
    this.child = child;
    child.on('message', (message: CardHostReply) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(new Error(message.error));
    });
    child.once('exit', (code) => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`card process exited (${code})`));
      this.pending.clear();
    });
  }

  static async start(options: CardHostOptions): Promise<CardProcess> {
    const child = fork(fileURLToPath(new URL('./card-host.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, CARD_HOST_OPTIONS: JSON.stringify(options) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const host = new CardProcess(child);
    const ready = (await host.wait(0)) as { certificates: Record<string, string>; caPem: string };
    host.certificates = ready.certificates;
    host.caPem = ready.caPem;
    return host;
  }

  insert(): Promise<void> {
    return this.call({ op: 'insert' }).then(() => undefined);
  }

  remove(): Promise<void> {
    return this.call({ op: 'remove' }).then(() => undefined);
  }

  setPinTries(tries: number, reference?: number): Promise<void> {
    return this.call({ op: 'setPinTries', tries, ...(reference === undefined ? {} : { reference }) }).then(() => undefined);
  }

  async pinTries(reference?: number): Promise<number> {
    return (await this.call({ op: 'pinTries', ...(reference === undefined ? {} : { reference }) })) as number;
  }

  /** Removes the card and ends the child. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || !this.child.connected) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.disconnect();
    await exited;
  }

  private call(command: WithoutId<CardHostCommand>): Promise<unknown> {
    const id = this.nextId++;
    this.child.send({ ...command, id });
    return this.wait(id);
  }

  private wait(id: number): Promise<unknown> {
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }
}
