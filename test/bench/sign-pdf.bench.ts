// Signs a 200 MB PDF (PAdES B-T: hash, sign, timestamp, atomic write with fsync) and compares with `sha256sum` of
// the same file in the same run (target: at most 1x its time, RSS growth under 32 MB). Peer figure: @signpdf/signpdf
// (which loads the whole file) on the same file. Each measured run is a child process, so memory is its own. Two
// series of three rounds (sha256sum, then the station): one on an idle machine, one with a CPU-bound process
// competing for the cores, started by the benchmark itself; both must meet the targets.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignatureEngine } from '../../src/station/signing/signature-engine.js';
import { softKeySigner } from '../../src/station/signing/soft-key-signer.js';
import { createOpensslTsa } from '../support/tsa/openssl-tsa.js';
import { writeBigPdf } from '../support/signing/signing-test-pdfs.js';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';
import { measureTimeAndRss, type TimeAndRss } from '../support/bench/measure-time-and-rss.js';

const SIZE = 200 * 1024 * 1024;
const ROUNDS = 3;
const TIME_TARGET = 1;
const RSS_TARGET_MB = 32;
const self = fileURLToPath(import.meta.url);
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;

async function child(mode: string, dir: string): Promise<void> {
  const input = join(dir, 'big.pdf');
  let result: TimeAndRss;
  if (mode === 'station') {
    const signer = JSON.parse(await readFile(join(dir, 'signer.json'), 'utf8')) as { cert: string; pkcs8: string };
    const tsa = await createOpensslTsa(join(dir, 'tsa'));
    const certificate = new Uint8Array(Buffer.from(signer.cert, 'base64'));
    const sign = softKeySigner(new Uint8Array(Buffer.from(signer.pkcs8, 'base64')));
    result = await measureTimeAndRss(async () => {
      await SignatureEngine.sign('pades', input, { certificate, sign }, { outputPath: join(dir, `station-${Date.now()}.pdf`), reason: 'Benchmark', timestampClient: tsa });
    });
  } else {
    const { SignPdf } = await import('@signpdf/signpdf');
    const { plainAddPlaceholder } = await import('@signpdf/placeholder-plain');
    const { P12Signer } = await import('@signpdf/signer-p12');
    const p12 = await readFile(join(dir, 'signer.p12'));
    result = await measureTimeAndRss(async () => {
      const pdfBuffer = await readFile(input);
      const withPlaceholder = plainAddPlaceholder({ pdfBuffer, reason: 'Benchmark', contactInfo: '', name: 'Bench', location: '' });
      const signed = await new SignPdf().sign(withPlaceholder, new P12Signer(p12, { passphrase: 'bench' }));
      await writeFile(join(dir, `signpdf-${Date.now()}.pdf`), signed);
    });
  }
  process.stdout.write(JSON.stringify(result));
}

function runChild(mode: string, dir: string): TimeAndRss {
  const run = spawnSync(process.execPath, ['--import', 'tsx', self, mode, dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`${mode} run failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as TimeAndRss;
}

function sha256sum(file: string): number {
  const start = performance.now();
  execFileSync('sha256sum', [file]);
  return performance.now() - start;
}

/** A CPU-bound process (a busy loop) competing with the measured ones for the cores, until `stop`. */
function competitor(): { stop(): void } {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return { stop: () => void busy.kill() };
}

interface Series {
  ratio: ReturnType<typeof medianAndSpread>;
  rssMaxMb: number;
}

/** ROUNDS pairs of sha256sum and a station sign, each pair under the same conditions; ratios are taken per pair. */
function series(label: string, dir: string, input: string): Series {
  const baseline: number[] = [];
  const station: TimeAndRss[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    execFileSync('sh', ['-c', `rm -f ${join(dir, 'station-')}*.pdf`]);
    baseline.push(sha256sum(input));
    station.push(runChild('station', dir));
  }
  const ratio = medianAndSpread(station.map((s, i) => s.ms / baseline[i]!));
  const rss = medianAndSpread(station.map((s) => s.rssGrowthMb));
  console.log(`${label}: baseline sha256sum ${medianAndSpread(baseline).describe()} ms; station sign ${medianAndSpread(station.map((s) => s.ms)).describe()} ms`);
  console.log(`${label}: ratio station/sha256sum ${ratio.describe((v) => `${v.toFixed(2)}x`)} (target <= ${TIME_TARGET}x) ${ratio.median <= TIME_TARGET ? 'met' : 'MISSED'}; RSS growth ${rss.describe((v) => `${v.toFixed(1)} MB`)} (target < ${RSS_TARGET_MB} MB) ${rss.max < RSS_TARGET_MB ? 'met' : 'MISSED'}`);
  return { ratio, rssMaxMb: rss.max };
}

/** The last station output of a series goes through pdfsig: a fast signature is worth nothing if it is broken. */
async function checkLastOutput(dir: string): Promise<void> {
  const [signed] = (await readdir(dir)).filter((f) => f.startsWith('station-'));
  const report = spawnSync('pdfsig', [join(dir, signed!)], { encoding: 'utf8' }).stdout;
  if (!/Signature is Valid/.test(report) || !/Total document signed/.test(report)) throw new Error(`station output does not verify:\n${report}`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'sign-bench-'));
  try {
    // RSA all the way: node-forge (inside @signpdf) cannot read certificates signed with ECDSA.
    const ca = await createTestCa('CN=Bench Root,C=EE', 'RSA-2048');
    const signer = await createTestSigner(ca, 'CN=Bench Signer,C=EE', 'RSA-2048');
    await writeFile(join(dir, 'signer.json'), JSON.stringify({ cert: Buffer.from(signer.der).toString('base64'), pkcs8: Buffer.from(signer.pkcs8).toString('base64') }));
    await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', signer.pkcs8));
    await writeFile(join(dir, 'cert.pem'), signer.pem);
    // node-forge (inside @signpdf/signer-p12) reads 3DES/SHA-1 PKCS#12 but not OpenSSL 3's AES default.
    execFileSync('openssl', ['pkcs12', '-export', '-in', join(dir, 'cert.pem'), '-inkey', join(dir, 'key.pem'), '-out', join(dir, 'signer.p12'), '-passout', 'pass:bench', '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1']);
    execFileSync('mkdir', [join(dir, 'tsa')]);
    const input = await writeBigPdf(join(dir, 'big.pdf'), SIZE);
    sha256sum(input); // warm the page cache for everyone
    console.log(`file: ${(SIZE / 1024 / 1024).toFixed(0)} MB PDF, PAdES B-T (RSA-2048, openssl TSA), output fsynced and checked by pdfsig; ${ROUNDS} rounds per series`);
    const idle = series('idle', dir, input);
    await checkLastOutput(dir);
    const busy = competitor();
    let loaded: Series;
    try {
      loaded = series('loaded (one CPU-bound process beside it)', dir, input);
    } finally {
      busy.stop();
    }
    await checkLastOutput(dir);
    const base = medianAndSpread([sha256sum(input), sha256sum(input), sha256sum(input)]).median;
    try {
      const peer = runChild('signpdf', dir);
      console.log(`peer @signpdf/signpdf: ${peer.ms.toFixed(0)} ms, RSS growth ${peer.rssGrowthMb.toFixed(1)} MB (ratio ${(peer.ms / base).toFixed(2)}x)`);
    } catch (error) {
      console.log(`peer @signpdf/signpdf: failed on this file: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
    }
    if ([idle, loaded].some((one) => one.ratio.median > TIME_TARGET || one.rssMaxMb >= RSS_TARGET_MB)) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const [mode, dir] = process.argv.slice(2);
if (mode && dir) await child(mode, dir);
else await main();
