import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepAliveClients } from '../../http/keep-alive-client.js';
import { startServeProcess } from './serve-process.js';

export interface SigtermDrainFigures {
  clients: number;
  /** Answers before and during the drain (200). */
  answered: number;
  /** Requests told 503 with Connection: close while the station closed. */
  unavailable: number;
  /** Connections reset or hung up under a request: the figure that must be 0. */
  resets: number;
  /** From SIGTERM to the process's exit. */
  exitMs: number;
  exitCode: number | null;
}

/**
 * `signing-station serve` under 64 (by default) keep-alive clients sending /api/health back to back, stopped with
 * SIGTERM once they are all running: what each connection saw, and how long the station took to exit.
 */
export async function sigtermDrain({ clients = 64, before = 5000 } = {}): Promise<SigtermDrainFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sigterm-drain-'));
  try {
    const station = await startServeProcess(dataDir);
    const load = keepAliveClients(station.port, new URL(station.baseUrl).host, '/api/health', clients);
    while (load.tally.answered < before) await new Promise((resolve) => setTimeout(resolve, 20)); // until the load runs
    const { exitMs, code } = await station.stop('SIGTERM');
    await load.ended;
    return { clients, answered: load.tally.answered, unavailable: load.tally.unavailable, resets: load.tally.resets.length, exitMs, exitCode: code };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
