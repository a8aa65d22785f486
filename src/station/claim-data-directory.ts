import { access } from 'node:fs/promises';
import { StationError } from '../core/errors/station-error.js';
import { readUiControl } from './http/ui-control.js';
import { StationLock } from './store/station-lock.js';
import { stationFiles } from './store/station-files.js';

/** How long a start waits for a holder that is itself starting (or a command creating the directory). */
const CLAIM_WAIT_MS = 30_000;
const POLL_MS = 25;

/**
 * How a process takes the data directory. A station (`serve`, the desktop app) holds it for its life: a second one
 * is told where the first listens and stops. A command that only uses the store takes it only while the directory
 * is first created, so creation happens once; after that it writes beside the running station (SQLite's busy
 * timeout orders their writes).
 */
export type DirectoryClaim = 'station' | 'creation';

/** The lock for `claim`, or undefined when a command may go on without it (the directory is already created). */
export async function claimDataDirectory(dataDir: string, claim: DirectoryClaim): Promise<StationLock | undefined> {
  const files = stationFiles(dataDir);
  const deadline = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    if (claim === 'creation' && (await exists(files.created))) return undefined;
    const lock = await StationLock.tryAcquire(files.lock);
    if (lock) return lock;
    if (claim === 'station') {
      const running = await runningStation(dataDir);
      if (running) throw alreadyRunning(dataDir, running);
    }
    if (Date.now() > deadline) throw alreadyRunning(dataDir);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The address of the station that answers at the address in the directory's control file (a crashed one does not). */
async function runningStation(dataDir: string): Promise<string | undefined> {
  const control = await readUiControl(dataDir);
  if (!control) return undefined;
  const health = await fetch(`${control.baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
  await health?.body?.cancel();
  return health?.ok ? control.baseUrl : undefined;
}

/** `baseUrl` is in the details too: the desktop app opens the running station's window there. */
function alreadyRunning(dataDir: string, baseUrl?: string): StationError {
  const where = baseUrl ? `at ${baseUrl}` : 'and has not finished starting';
  return new StationError(
    'ERR_STORE_IN_USE',
    `A station is already running with the data directory ${dataDir} ${where}. Use that one (\`signing-station ui\` prints a link to it), ` +
      'stop it first, or give this one another --data-dir.',
    { status: 409, retriable: true, details: { dataDir, ...(baseUrl ? { baseUrl } : {}) } },
  );
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
