// The cost of a visible signature: PAdES B-B of a one-page PDF with the box (text laid out, DejaVu Sans subset made
// and embedded) against the same signature without it, measured in the same run (median of 40 each, after the
// first visible one, which also parses the font file and is printed apart). Target: visible at most 2x invisible.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignatureEngine } from '../../src/station/signing/signature-engine.js';
import { softKeySigner } from '../../src/station/signing/soft-key-signer.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';

const RUNS = 40;
const dir = await mkdtemp(join(tmpdir(), 'bench-visible-'));
try {
  const ca = await createTestCa();
  const signer = await createTestSigner(ca, 'CN=Jānis Bērziņš,O=Signing Station Tests,C=LV', 'P-256');
  const input = await writeMinimalPdf(join(dir, 'input.pdf'));
  const sign = softKeySigner(signer.pkcs8);
  let n = 0;
  const once = async (visible: boolean): Promise<number> => {
    const start = performance.now();
    await SignatureEngine.sign('pades', input, { certificate: signer.der, sign }, { outputPath: join(dir, `out-${n++}.pdf`), visible, reason: 'Ąžuolas Čiurlionis, Łukasz, Γιώργος, Іван – “agreed”' });
    return performance.now() - start;
  };
  const median = (values: number[]): number => medianAndSpread(values).median;
  await once(false);
  const cold = await once(true);
  const invisible: number[] = [];
  const visible: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    invisible.push(await once(false));
    visible.push(await once(true));
  }
  const [base, station] = [median(invisible), median(visible)];
  console.log(`baseline: invisible PAdES B-B, median of ${RUNS}: ${base.toFixed(2)} ms`);
  console.log(`station: visible (Unicode text, font subset), median of ${RUNS}: ${station.toFixed(2)} ms = ${(station / base).toFixed(2)}x (target <= 2x)`);
  console.log(`first visible signature of the process (parses the 740 kB font): ${cold.toFixed(1)} ms`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
