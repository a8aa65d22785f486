import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/write-file-atomic.js';

const CONTROL_FILE = 'ui-control.json';

export interface UiControlFile {
  baseUrl: string;
  secret: string;
}

/**
 * How the user's own command line asks the running station for a new one-time UI link (`signing-station ui`),
 * without a restart: the station writes its address and a fresh secret to a file only the user can read (0600 in
 * the 0700 data directory) and answers POST /admin/api/launch-link to whoever shows that secret. A web page
 * cannot read the file, and the route refuses any request carrying an Origin header.
 */
export class UiControl {
  readonly #secret = randomBytes(32).toString('base64url');
  readonly #path: string;

  constructor(dataDir: string) {
    this.#path = join(dataDir, CONTROL_FILE);
  }

  /**
   * Written before the station says it listens, so `signing-station ui` finds it. Not fsynced: the file means
   * nothing once the station is gone, and the two fsyncs were the slowest step of a start on a busy disk.
   */
  async publish(baseUrl: string): Promise<void> {
    const file: UiControlFile = { baseUrl, secret: this.#secret };
    await writeFileAtomic(this.#path, JSON.stringify(file), { mode: 0o600, durable: false });
  }

  /** Removes the file if it is still this station's (a newer station on the same directory keeps its own). */
  async withdraw(): Promise<void> {
    const current = await readUiControlFile(this.#path).catch(() => undefined);
    if (current?.secret === this.#secret) await rm(this.#path, { force: true });
  }

  accepts(secret: string | undefined): boolean {
    if (secret === undefined) return false;
    const expected = Buffer.from(this.#secret);
    const given = Buffer.from(secret);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

/** The running station's control file in `dataDir`, or undefined when no station runs there. */
export async function readUiControl(dataDir: string): Promise<UiControlFile | undefined> {
  return readUiControlFile(join(dataDir, CONTROL_FILE)).catch(() => undefined);
}

async function readUiControlFile(path: string): Promise<UiControlFile> {
  const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<UiControlFile>;
  if (typeof parsed.baseUrl !== 'string' || typeof parsed.secret !== 'string') throw new TypeError(`${path} is not a station control file`);
  return { baseUrl: parsed.baseUrl, secret: parsed.secret };
}
