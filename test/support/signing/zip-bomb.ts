// ASiC-E containers built in the test with yazl (deflate of zeros for bombs), with a declared size that can lie.
import yazl from 'yazl';
import { ASICE_MEDIA_TYPE } from '../../../src/station/signing/asice/asic-media-types.js';

export interface ContainerEntry {
  name: string;
  data: Buffer;
  /** The uncompressed size the central directory declares, when it is to differ from the data's. */
  declaredSize?: number;
}

const CENTRAL_DIRECTORY_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** A container: stored `mimetype` first, then the entries deflated, in order. */
export async function containerOf(entries: readonly ContainerEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(ASICE_MEDIA_TYPE), 'mimetype', { compress: false, forceDosTimestamp: true });
  for (const entry of entries) zip.addBuffer(entry.data, entry.name, { forceDosTimestamp: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  for (const entry of entries) if (entry.declaredSize !== undefined) declareSize(bytes, entry.name, entry.declaredSize);
  return bytes;
}

/** Rewrites an entry's uncompressed size in the central directory, which readers trust. */
function declareSize(zip: Buffer, name: string, size: number): void {
  for (let at = zip.indexOf(CENTRAL_DIRECTORY_HEADER); at >= 0; at = zip.indexOf(CENTRAL_DIRECTORY_HEADER, at + 4)) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.toString('latin1', at + 46, at + 46 + nameLength) === name) {
      zip.writeUInt32LE(size, at + 24);
      return;
    }
  }
  throw new Error(`no central directory entry ${name}`);
}
