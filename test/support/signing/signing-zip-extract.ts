// Unpacks a zip (an ASiC-E container) into a directory with yauzl, for validators that want files on disk.
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

export async function extractZip(zipPath: string, targetDir: string): Promise<string[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      const target = join(targetDir, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        mkdir(target, { recursive: true }).then(() => zip.readEntry(), reject);
        return;
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        mkdir(dirname(target), { recursive: true })
          .then(() => pipeline(stream, createWriteStream(target)))
          .then(() => zip.readEntry(), reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return names;
}
