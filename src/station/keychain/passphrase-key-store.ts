import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import * as z from 'zod';
import type { KeyStore } from '../ports/key-store.js';
import { KeychainError } from './keychain-error.js';
import { StationError } from '../../core/errors/station-error.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';

const scrypt = promisify(scryptCallback) as (password: Uint8Array, salt: Uint8Array, length: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

const fileSchema = z.object({
  version: z.literal(1),
  salt: z.string(),
  entries: z.record(z.string(), z.object({ nonce: z.string(), ciphertext: z.string() })),
});
type KeyFile = z.infer<typeof fileSchema>;

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * Explicit opt-in for machines without an OS keychain (servers, containers): the station's master key is kept
 * in a file encrypted under a key derived with scrypt from SIGNING_STATION_PASSPHRASE. Never chosen silently.
 */
export class PassphraseKeyStore implements KeyStore {
  readonly description: string;
  readonly #path: string;
  readonly #passphrase: Uint8Array;
  #key: Buffer | undefined;

  constructor(path: string, passphrase: string) {
    if (passphrase.length < 12) {
      throw new KeychainError('SIGNING_STATION_PASSPHRASE must be at least 12 characters for --key-store passphrase.', { retriable: false });
    }
    this.#path = path;
    this.#passphrase = Buffer.from(passphrase, 'utf8');
    this.description = `the passphrase-protected key file ${path}`;
  }

  async get(account: string): Promise<Uint8Array | null> {
    const file = await this.#read();
    const entry = file.entries[account];
    if (!entry) return null;
    const key = await this.#derive(file);
    const data = Buffer.from(entry.ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(entry.nonce, 'base64'));
    decipher.setAAD(Buffer.from(account));
    decipher.setAuthTag(data.subarray(-16));
    try {
      return new Uint8Array(Buffer.concat([decipher.update(data.subarray(0, -16)), decipher.final()]));
    } catch (cause) {
      throw new KeychainError(`${this.description} does not open with this passphrase.`, { retriable: false, cause });
    }
  }

  async set(account: string, value: Uint8Array): Promise<void> {
    const file = await this.#read();
    const key = await this.#derive(file);
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(account));
    const ciphertext = Buffer.concat([cipher.update(value), cipher.final(), cipher.getAuthTag()]);
    file.entries[account] = { nonce: nonce.toString('base64'), ciphertext: ciphertext.toString('base64') };
    await writeFileAtomic(this.#path, JSON.stringify(file), { mode: 0o600 });
  }

  async delete(account: string): Promise<void> {
    const file = await this.#read();
    if (!(account in file.entries)) return;
    delete file.entries[account];
    await writeFileAtomic(this.#path, JSON.stringify(file), { mode: 0o600 });
  }

  async #read(): Promise<KeyFile> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { version: 1, salt: randomBytes(16).toString('base64'), entries: {} };
      }
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.#damaged('it is not whole JSON');
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) throw this.#damaged('it is not a key file');
    return parsed.data;
  }

  #damaged(why: string): StationError {
    return new StationError(
      'ERR_KEYCHAIN_KEY_FILE_DAMAGED',
      `The passphrase key file ${this.#path} is damaged (${why}). It holds the master key of the station's secrets: put back your copy of it ` +
        '(a backup, or the same file from where the data directory was copied), or start a new station with `signing-station reset --yes`, ' +
        'which sets it aside with the store (clients and secrets start empty); see docs/operations.md.',
      { status: 500, details: { path: this.#path } },
    );
  }

  async #derive(file: KeyFile): Promise<Buffer> {
    this.#key ??= await scrypt(this.#passphrase, Buffer.from(file.salt, 'base64'), 32, SCRYPT);
    return this.#key;
  }
}
