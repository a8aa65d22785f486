// npm run bench parsers: what prepare reads of an untrusted document (a PDF's whole structure, a container's
// entries), at 1x, 10x and 30x input of each hostile kind (the PDFs about 1.6, 16 and 48 MB), each case in its own
// process so peak memory is its own. Prints time and peak memory per case, the 10x/1x and 30x/1x ratios (linear
// work: at most about 10 and 30, never 100 or 900), and a baseline measured in the same run: SHA-256 over the file.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { PadesEngine } from '../../src/station/signing/pades-engine.js';
import { AsiceContainerReader } from '../../src/station/signing/asice/asice-container-reader.js';
import { pdfWithObjects } from '../support/signing/hostile-pdf.js';
import { MAX_PDF_NESTING } from '../../src/station/signing/pdf/pdf-object-parser.js';

const KINDS = ['pdf-hex-strings', 'pdf-hex-one-object', 'pdf-objects', 'pdf-deep-nesting', 'pdf-long-xref', 'asice-entries'] as const;
type Kind = (typeof KINDS)[number];
interface Measurement {
  ms: number;
  peakMb: number;
  sha256Ms: number;
  sizeMb: number;
}

const SCALES = [1, 10, 30] as const;

/** A one-page document (catalog, pages, page) followed by `filler` objects, so prepare's reading runs whole. */
function pageWith(filler: readonly string[], trailerExtra = ''): Buffer {
  return pdfWithObjects(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>', ...filler], trailerExtra);
}

/** `count` copies of `item` in objects of at most `perObject`. */
function spread(item: string, count: number, perObject: number, wrap: (body: string) => string): string[] {
  return Array.from({ length: Math.ceil(count / perObject) }, (_, i) => wrap(item.repeat(Math.min(perObject, count - i * perObject))));
}

/** The page document with a cross-reference table listing `free` more (free) entries: about 20 bytes each. */
function longXref(free: number): Buffer {
  const text = pageWith([]).toString('latin1');
  const at = text.indexOf('\nxref\n') + 1;
  const [head, tail] = [text.slice(0, at), text.slice(at)];
  const table = tail.replace(/^xref\n0 4\n/, `xref\n0 ${4 + free}\n`).replace('trailer', `${'0000000000 65535 f \n'.repeat(free)}trailer`).replace('/Size 4', `/Size ${4 + free}`);
  return Buffer.from(head + table, 'latin1');
}

async function makeInput(kind: Kind, scale: number, dir: string): Promise<string> {
  const path = join(dir, `${kind}-${scale}x`);
  const nest = (open: string, close: string): string => `${open.repeat(MAX_PDF_NESTING - 4)}1${close.repeat(MAX_PDF_NESTING - 4)}`;
  if (kind === 'pdf-objects') {
    await writeFile(path, pageWith(Array.from({ length: 18_000 * scale }, (_, i) => `<< /Type /Thing /N ${i} /S <48656c6c6f> /A [1 2 3] >>`)));
  } else if (kind === 'pdf-hex-strings') {
    await writeFile(path, pageWith(spread('<41> ', 320_000 * scale, 50_000, (body) => `[${body}]`)));
  } else if (kind === 'pdf-hex-one-object') {
    // One object up to the parser's limit: memory per string, with nothing to free between objects.
    await writeFile(path, pageWith([`[${'<41> '.repeat(15_000 * scale)}]`]));
  } else if (kind === 'pdf-deep-nesting') {
    const deep = `${nest('[', ']')} ${nest('<< /A ', ' >>')} `;
    await writeFile(path, pageWith(spread(deep, 2_400 * scale, 200, (body) => `[${body}]`)));
  } else if (kind === 'pdf-long-xref') {
    await writeFile(path, longXref(80_000 * scale));
  } else {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false, forceDosTimestamp: true });
    const names = Array.from({ length: 80 * scale }, (_, i) => `file-${i}.txt`);
    for (const name of names) zip.addBuffer(Buffer.from(`content of ${name}`), name);
    const entries = names.map((name) => `<manifest:file-entry manifest:full-path="${name}" manifest:media-type="text/plain"/>`).join('');
    zip.addBuffer(Buffer.from(`<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">${entries}</manifest:manifest>`), 'META-INF/manifest.xml');
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(path));
  }
  return path;
}

async function parse(kind: Kind, path: string): Promise<void> {
  if (kind === 'asice-entries') (await AsiceContainerReader.open(path)).close();
  else await PadesEngine.inspect(path);
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
  return { ms, peakMb, sha256Ms, sizeMb: bytes.length / 1e6 };
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
    console.log('case                scale   size MB   parse ms   peak MB   sha256 ms   parse/sha256');
    for (const kind of KINDS) {
      const results: Measurement[] = [];
      for (const scale of SCALES) {
        const result = await measureInChild(kind, await makeInput(kind, scale, dir));
        results.push(result);
        console.log(
          `${kind.padEnd(19)} ${`${scale}x`.padStart(5)} ${result.sizeMb.toFixed(1).padStart(9)} ${result.ms.toFixed(1).padStart(10)} ${result.peakMb.toFixed(1).padStart(9)} ${result.sha256Ms.toFixed(2).padStart(11)} ${(result.ms / result.sha256Ms).toFixed(0).padStart(14)}`,
        );
      }
      const [one, ten, thirty] = results as [Measurement, Measurement, Measurement];
      const ratio = (a: number, b: number): string => (a / Math.max(b, 0.1)).toFixed(1);
      console.log(`${kind.padEnd(19)} 10x/1x: time ${ratio(ten.ms, one.ms)}, peak ${ratio(ten.peakMb, one.peakMb)}; 30x/1x: time ${ratio(thirty.ms, one.ms)}, peak ${ratio(thirty.peakMb, one.peakMb)} (linear: at most about 10 and 30)`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
