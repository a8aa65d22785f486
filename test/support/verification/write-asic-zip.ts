import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/** A zip with these entries in this order, the mimetype stored (uncompressed) as ASiC wants it. */
export async function writeAsicZip(path: string, entries: ReadonlyArray<readonly [string, Uint8Array]>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(Buffer.from(bytes), name, { compress: name !== 'mimetype' });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return path;
}
