import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../station/run-cli.js';
import { startServeProcess } from './serve-process.js';

export interface LargeBodiesFigures {
  bodies: number;
  bodyMb: number;
  /** After the first answer, before the bodies. */
  idleRssMb: number;
  /** The station's highest resident memory while they were sent and answered (VmHWM). */
  peakRssMb: number;
  /** How each was answered: 401 (wrong secret), 503 (no room for the body now), 0 (reset before an answer). */
  statuses: Record<number, number>;
  /** From the last answer until the resident memory was back within 30 MB of idle (or the 10 s the wait allows). */
  settleMs: number;
  settledRssMb: number;
}

const SETTLED_WITHIN_MB = 30;
const SETTLE_LIMIT_MS = 10_000;

/**
 * Eight (by default) simultaneous 60 MB JSON POSTs to prepare-files-for-signing with a wrong secret, against a
 * `signing-station serve` process: how much memory the station takes for them and how soon it gives it back.
 */
export async function largeBodies({ bodies = 8, bodyBytes = 60_000_000 } = {}): Promise<LargeBodiesFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'large-bodies-'));
  try {
    const added = await runCli(['clients', 'add', '--client-id', 'shop', '--secret-stdin', '--data-dir', dataDir], { stdin: 'the-right-secret-0123456789\n' });
    if (added.code !== 0) throw new Error(`clients add failed: ${added.stderr}`);
    const station = await startServeProcess(dataDir);
    try {
      await fetch(`${station.baseUrl}/api/health`).then((response) => response.text());
      const idleRssMb = await station.rssMb();
      const prefix = '{"client_id":"shop","secret":"a-wrong-secret-0123456789","container_type":"pdf","files":[{"fileName":"a.pdf","mimeType":"application/pdf","fileContent":"';
      const suffix = '"}]}';
      const body = Buffer.alloc(bodyBytes, 'A');
      body.write(prefix, 0, 'latin1');
      body.write(suffix, bodyBytes - suffix.length, 'latin1');
      const statuses: Record<number, number> = {};
      await Promise.all(
        Array.from({ length: bodies }, () =>
          post(new URL('/api/signatures/prepare-files-for-signing', station.baseUrl), body).then((status) => void (statuses[status] = (statuses[status] ?? 0) + 1)),
        ),
      );
      const answered = performance.now();
      const peakRssMb = await station.peakRssMb();
      let settledRssMb = await station.rssMb();
      while (settledRssMb > idleRssMb + SETTLED_WITHIN_MB && performance.now() - answered < SETTLE_LIMIT_MS) {
        await new Promise((resolve) => setTimeout(resolve, 100)); // sampling the process's memory, not waiting for a result
        settledRssMb = await station.rssMb();
      }
      return { bodies, bodyMb: bodyBytes / 1e6, idleRssMb, peakRssMb, statuses, settleMs: performance.now() - answered, settledRssMb };
    } finally {
      await station.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The answer's status; the station may answer (and close) before the whole body is sent, which is not an error. A
 * connection reset before any answer counts as status 0, so the figures say so instead of the run waiting for ever.
 */
function post(url: URL, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (response) => {
      answered = true;
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      else if (!answered) resolve(0);
    });
    req.end(body);
  });
}
