import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentVerificationSchema } from '../../../src/core/schemas/verification-report.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { signPdf, usePadesFixture } from '../../support/signing/signing-pades-fixture.js';
import { writeMinimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { appendPdfUpdate, editedDict, ref } from '../../support/verification/append-pdf-update.js';
import { trustOf } from '../../support/verification/trust-of.js';

const f = usePadesFixture();
const DAMAGED_COPIES = 150;

/** A small deterministic generator (mulberry32), so a failing copy can be made again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('damaged signed PDFs: every one gets a report or a clear refusal, never a crash', () => {
  it('bytes removed, inserted or overwritten anywhere in a signed PDF with a later revision: nearly all still read, the rest refused in verification’s terms', async () => {
    const signed = join(f.dir, 'base.pdf');
    await signPdf(f, await writeMinimalPdf(join(f.dir, 'base-in.pdf')), signed, f.rsa, { timestamp: null });
    await appendPdfUpdate(signed, async (reader, next) => ({
      [2]: await editedDict(reader, 2, { Kids: [ref(3), ref(next)], Count: 2 }),
      [next]: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    }));
    const original = await readFile(signed);
    const trust = trustOf(new x509.X509Certificate(await readFile(f.rootPath, 'utf8')));
    const next = random(20261128);
    const outcomes = new Map<string, number>();
    for (let copy = 0; copy < DAMAGED_COPIES; copy++) {
      const at = Math.floor(next() * original.length);
      const length = 1 + Math.floor(next() * 16);
      const kind = Math.floor(next() * 3);
      const damaged = kind === 0 ? Buffer.concat([original.subarray(0, at), original.subarray(at + length)]) : kind === 1 ? Buffer.concat([original.subarray(0, at), Buffer.alloc(length, 0x20), original.subarray(at)]) : Buffer.from(original).fill(0x41, at, at + length);
      const path = join(f.dir, `damaged-${copy}.pdf`);
      await writeFile(path, damaged);
      const outcome = await verifyDocument(path, { trust, offline: true }).then(
        (report) => (documentVerificationSchema.parse(report), `report ${report.indication ?? 'none'}`),
        (error: { code?: string; message?: string }) => `refused ${error.code ?? `without a code: ${error.message}`}`,
      );
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    for (const outcome of outcomes.keys()) expect(outcome, JSON.stringify([...outcomes])).toMatch(/^report |^refused ERR_VERIFY_UNSUPPORTED$/);
    // Offsets that moved are recovered from by scanning: nearly every copy is still read and its signature judged.
    expect(outcomes.get('report TOTAL-FAILED') ?? 0, JSON.stringify([...outcomes])).toBeGreaterThanOrEqual(DAMAGED_COPIES * 0.9);
  });
});
