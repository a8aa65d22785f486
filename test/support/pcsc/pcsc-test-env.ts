// Shared set-up for tests that drive the real pcscd: one daemon per test file, polling helpers for the
// asynchronous PC/SC events (pcscd polls vpcd every 400 ms).
import { setTimeout as sleep } from 'node:timers/promises';
import { Context, SCARD_STATE_PRESENT } from 'smartcard';
import { PcscDaemon } from './pcsc-daemon.js';

export const READER_0 = 'Virtual PCD 00 00';
export const READER_1 = 'Virtual PCD 00 01';
export const VPCD_PORT_1 = 35964;

/** Polls `probe` until it returns something other than undefined/false; fails naming `what`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export async function startPcscd(): Promise<PcscDaemon> {
  const daemon = new PcscDaemon();
  await daemon.start();
  return daemon;
}

/** Waits until pcscd has seen a card in `reader` (it polls vpcd every 400 ms: a command started at once would miss it). */
export async function waitUntilCardIn(reader: string, timeoutMs = 3000): Promise<void> {
  await waitFor(
    `pcscd to see a card in ${reader}`,
    () => {
      let context;
      try {
        context = new Context();
        return context.listReaders().some((r) => r.name === reader && (r.state & SCARD_STATE_PRESENT) !== 0);
      } catch {
        return false; // pcscd not up yet
      } finally {
        context?.close();
      }
    },
    timeoutMs,
  );
}

/** Waits until pcscd has seen every card leave (it polls vpcd every 400 ms; a swap faster than that is invisible). */
export async function waitUntilNoCard(timeoutMs = 3000): Promise<void> {
  await waitFor(
    'pcscd to see the readers empty',
    () => {
      let context;
      try {
        context = new Context();
        return context.listReaders().every((r) => (r.state & SCARD_STATE_PRESENT) === 0);
      } catch {
        return true; // pcscd is not running: no card anywhere
      } finally {
        context?.close();
      }
    },
    timeoutMs,
  );
}
