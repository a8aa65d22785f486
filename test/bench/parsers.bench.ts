// npm run bench parsers: the parsers of untrusted input at 1x and 10x input, each case in its own process so
// peak memory is its own. Prints time and peak memory per case, the 10x/1x ratios (linear work: about 10, never
// about 100), and a baseline measured in the same run: SHA-256 over the same file.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { PdfDocumentReader } from '../../src/station/signing/pdf/pdf-document-reader.js';
import { AsiceContainerReader } from '../../src/station/signing/asice/asice-container-reader.js';
import { pdfWithObjects } from '../support/signing/hostile-pdf.js';

type Kind = 'pdf-objects' | 'pdf-hex-strings' | 'asice-entries';
interface Measurement {
  ms: number;
  peakMb: number;
  sha256Ms: number;
}

const SCALES = [1, 10] as const;

async function makeInput(kind: Kind, scale: number, dir: string): Promise<string> {
  const path = join(dir, `${kind}-${scale}x`);
  if (kind === 'pdf-objects') {
    await writeFile(path, pdfWithObjects(Array.from({ length: 20_000 * scale }, (_, i) => `<< /Type /Thing /N ${i} /S <48656c6c6f> /A [1 2 3] >>`)));
  } else if (kind === 'pdf-hex-strings') {
    await writeFile(path, pdfWithObjects([`[${'<41> '.repeat(80_000 * scale)}]`]));
  } else {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false, forceDosTimestamp: true });
    const names = Array.from({ length: 200 * scale }, (_, i) => `file-${i}.txt`);
    for (const name of names) zip.addBuffer(Buffer.from(`content of ${name}`), name);
    const entries = names.map((name) => `<manifest:file-entry manifest:full-path="${name}" manifest:media-type="text/plain"/>`).join('');
    zip.addBuffer(Buffer.from(`<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">${entries}</manifest:manifest>`), 'META-INF/manifest.xml');
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(path));
  }
  return path;
}

async function parse(kind: Kind, path: string): Promise<void> {
  if (kind === 'asice-entries') {
    (await AsiceContainerReader.open(path)).close();
    return;
  }
  const file = await open(path, 'r');
  try {
    const reader = await PdfDocumentReader.open(file, (await file.stat()).size);
    for (const num of reader.entries.keys()) await reader.object(num);
  } finally {
    await file.close();
  }
}

/** Child side: one parse, reported with this process's peak memory above what it held before. */
async function measureHere(kind: Kind, path: string): Promise<Measurement> {
  const bytes = await readFile(path);
  let start = performance.now();
  createHash('sha256').update(bytes).digest();
  const sha256Ms = performance.now() - start;
  global.gc?.();
  const before = process.memoryUsage().rss;
  start = performance.now();
  await parse(kind, path);
  const ms = performance.now() - start;
  const peakMb = Math.max(0, process.resourceUsage().maxRSS * 1024 - before) / 1e6;
  return { ms, peakMb, sha256Ms };
}

function measureInChild(kind: Kind, path: string): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--measure', kind, path], { execArgv: [...process.execArgv, '--expose-gc'] });
    child.once('message', (message) => resolve(message as Measurement));
    child.once('error', reject);
    child.once('exit', (code) => code === 0 || reject(new Error(`${kind} child exited ${code}`)));
  });
}

async function main(): Promise<void> {
  if (process.argv[2] === '--measure') {
    process.send?.(await measureHere(process.argv[3] as Kind, process.argv[4]!));
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-parsers-'));
  try {
    console.log('case               scale   parse ms   peak MB   sha256 ms   parse/sha256');
    for (const kind of ['pdf-objects', 'pdf-hex-strings', 'asice-entries'] as const) {
      const results: Measurement[] = [];
      for (const scale of SCALES) {
        const result = await measureInChild(kind, await makeInput(kind, scale, dir));
        results.push(result);
        console.log(
          `${kind.padEnd(18)} ${`${scale}x`.padStart(5)} ${result.ms.toFixed(1).padStart(10)} ${result.peakMb.toFixed(1).padStart(9)} ${result.sha256Ms.toFixed(2).padStart(11)} ${(result.ms / result.sha256Ms).toFixed(0).padStart(14)}`,
        );
      }
      const [one, ten] = results as [Measurement, Measurement];
      console.log(`${kind.padEnd(18)} 10x/1x: time ${(ten.ms / one.ms).toFixed(1)}, peak memory ${(ten.peakMb / Math.max(one.peakMb, 0.1)).toFixed(1)} (linear: about 10)`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
