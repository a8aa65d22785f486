import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignatureEngine } from '../../../../src/station/signing/signature-engine.js';
import { softKeySigner } from '../../../../src/station/signing/soft-key-signer.js';
import { createTestCa, createTestSigner } from '../../pki/test-pki.js';
import { writeBigPdf } from '../../signing/signing-test-pdfs.js';
import { createOpensslTsa } from '../../tsa/openssl-tsa.js';
import { medianAndSpread } from '../median-and-spread.js';
import type { TimeAndRss } from '../measure-time-and-rss.js';
import type { VerifyBenchPart } from './verify-bench-part.js';

const SIZE = 200 * 1024 * 1024;
const ROUNDS = 3;
const TIME_TARGET = 1.5;
const RSS_TARGET_MB = 64;
const once = fileURLToPath(new URL('./verify-once.ts', import.meta.url));

function sha256sum(file: string): number {
  const start = performance.now();
  execFileSync('sha256sum', [file]);
  return performance.now() - start;
}

function verifyOnce(file: string, pems: string[]): TimeAndRss & { indication: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', once, file, ...pems], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`verify run failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as TimeAndRss & { indication: string };
}

/**
 * Verifies a 200 MB PAdES B-T PDF (the station's own signature, openssl's TSA, both roots trusted, offline) and
 * compares with `sha256sum` of the same file in the same round: verification reads the file once, as the hash does.
 */
export const largePdfPart: VerifyBenchPart = {
  name: `a ${SIZE / 1024 / 1024} MB signed PDF`,
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'verify-bench-'));
    try {
      const ca = await createTestCa('CN=Verify Bench Root,C=EE');
      const signer = await createTestSigner(ca, 'CN=Verify Bench Signer,C=EE', 'P-256');
      await mkdir(join(dir, 'tsa'));
      const tsa = await createOpensslTsa(join(dir, 'tsa'));
      const pems = [join(dir, 'ca.pem'), tsa.rootPath];
      await writeFile(pems[0]!, ca.pem);
      const input = await writeBigPdf(join(dir, 'big.pdf'), SIZE);
      const signed = join(dir, 'big-signed.pdf');
      await SignatureEngine.sign('pades', input, { certificate: signer.der, sign: softKeySigner(signer.pkcs8) }, { outputPath: signed, timestampClient: tsa, baseline: 'B-T' });
      await rm(input);
      sha256sum(signed); // warm the page cache for both
      const baseline: number[] = [];
      const station: (TimeAndRss & { indication: string })[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        baseline.push(sha256sum(signed));
        station.push(verifyOnce(signed, pems));
      }
      const ratio = medianAndSpread(station.map((s, i) => s.ms / baseline[i]!));
      const rss = medianAndSpread(station.map((s) => s.rssGrowthMb));
      const passed = station.every((s) => s.indication === 'TOTAL-PASSED');
      const held = passed && ratio.median <= TIME_TARGET && rss.max < RSS_TARGET_MB;
      return {
        held,
        lines: [
          `PAdES B-T (P-256, openssl TSA), ${ROUNDS} rounds; every verdict TOTAL-PASSED: ${passed ? 'yes' : 'NO'}`,
          `baseline sha256sum ${medianAndSpread(baseline).describe()} ms; station verify ${medianAndSpread(station.map((s) => s.ms)).describe()} ms`,
          `ratio verify/sha256sum ${ratio.describe((v) => `${v.toFixed(2)}x`)} (target <= ${TIME_TARGET}x) ${ratio.median <= TIME_TARGET ? 'met' : 'MISSED'}; RSS growth ${rss.describe((v) => `${v.toFixed(1)} MB`)} (target < ${RSS_TARGET_MB} MB) ${rss.max < RSS_TARGET_MB ? 'met' : 'MISSED'}`,
        ],
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
