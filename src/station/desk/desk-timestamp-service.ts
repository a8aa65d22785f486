import { createHash } from 'node:crypto';
import type { DeskSavedFile, DeskTimestampRequest } from '../../core/schemas/desk-api.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import { saveWithoutOverwriting, writeExclusive } from './output-directory.js';

/**
 * Timestamps a file from the station window with the station's own TSA, in process: the RFC 3161 token
 * (`<name>.tsr`, DER TimeStampToken over the file's SHA-256) is saved in the output folder, never over a file.
 * `openssl ts -verify -data <file> -in <name>.tsr -token_in` checks it against the TSA chain.
 */
export class DeskTimestampService {
  readonly #client: TimestampClient;
  readonly #outputDir: string;

  constructor(client: TimestampClient, outputDir: string) {
    this.#client = client;
    this.#outputDir = outputDir;
  }

  async timestamp(file: DeskTimestampRequest): Promise<DeskSavedFile> {
    const sha256 = createHash('sha256').update(Buffer.from(file.fileContent, 'base64')).digest();
    const token = await this.#client.timestamp(new Uint8Array(sha256), 'SHA-256');
    const path = await saveWithoutOverwriting(this.#outputDir, `${file.fileName}.tsr`, writeExclusive(token));
    return { path, fileName: path.slice(this.#outputDir.length + 1), directory: this.#outputDir, sha256: sha256.toString('hex') };
  }
}
