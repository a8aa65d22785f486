import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import type { DeskSavedFile, DeskTimestampRequest } from '../../core/schemas/desk-api.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import { saveWithoutOverwriting } from './output-directory.js';

/**
 * Timestamps a file from the station window with the station's own TSA, in process: the RFC 3161 token (DER
 * TimeStampToken over the file's SHA-256) is saved in the output folder, never over a file, either alone beside the
 * file's name (`<name>.tsr`; `openssl ts -verify -data <file> -in <name>.tsr -token_in` checks it) or with the file
 * in an ASiC-S container (`<stem>.asics`), which carries both and which the verify screen reads.
 */
export class DeskTimestampService {
  readonly #client: TimestampClient;
  readonly #outputDir: () => string;

  /** `outputDir`: the folder results go to now (the user may choose another between two results). */
  constructor(client: TimestampClient, outputDir: () => string) {
    this.#client = client;
    this.#outputDir = outputDir;
  }

  async timestamp(file: DeskTimestampRequest): Promise<DeskSavedFile> {
    const data = Buffer.from(file.fileContent, 'base64');
    const sha256 = createHash('sha256').update(data).digest();
    const token = await this.#client.timestamp(new Uint8Array(sha256), 'SHA-256');
    const directory = this.#outputDir();
    const path =
      file.output === 'asics'
        ? await saveWithoutOverwriting(directory, `${stemOf(file.fileName)}.asics`, { bytes: await asicsOf(file.fileName, data, token) })
        : await saveWithoutOverwriting(directory, `${file.fileName}.tsr`, { bytes: token });
    return { path, fileName: path.slice(directory.length + 1), directory, sha256: sha256.toString('hex') };
  }
}

/** The ASiC-S container, its zip writer (yazl, zlib) imported on first use: the desk is on the station's start path. */
async function asicsOf(fileName: string, data: Buffer, token: Uint8Array): Promise<Uint8Array> {
  const { asicsTimestampContainer } = await import('../signing/asics/asics-timestamp-container.js');
  return asicsTimestampContainer(fileName, data, token);
}

/** "minutes.txt" → "minutes": the container is named for its one file (a name with no extension keeps all of it). */
function stemOf(fileName: string): string {
  return fileName.slice(0, fileName.length - extname(fileName).length) || fileName;
}
