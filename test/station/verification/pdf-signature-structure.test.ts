import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { DocumentVerification } from '../../../src/core/schemas/verification-report.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { signPdf, usePadesFixture } from '../../support/signing/signing-pades-fixture.js';
import { writeMinimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { trustOf } from '../../support/verification/trust-of.js';

const f = usePadesFixture();

async function signed(name: string): Promise<string> {
  const out = join(f.dir, `${name}.pdf`);
  await signPdf(f, await writeMinimalPdf(join(f.dir, `${name}-in.pdf`)), out, f.rsa, { timestamp: null });
  return out;
}

async function verify(path: string): Promise<DocumentVerification> {
  return verifyDocument(path, { trust: trustOf(new x509.X509Certificate(await readFile(f.rootPath, 'utf8'))) });
}

/** Rewrites the first /ByteRange in place, keeping its length (the station pads it with spaces). */
async function editByteRange(path: string, edit: (range: number[]) => number[]): Promise<void> {
  const bytes = await readFile(path);
  const match = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\] */.exec(bytes.toString('latin1'))!;
  const replacement = `/ByteRange [${edit(match.slice(1, 5).map(Number)).join(' ')}]`.padEnd(match[0].length, ' ');
  expect(replacement.length).toBe(match[0].length);
  bytes.write(replacement, match.index, 'latin1');
  await writeFile(path, bytes);
}

describe('PDF signature structure', () => {
  it('passes the signature as made (the edits below are the only difference)', async () => {
    expect((await verify(await signed('as-made'))).indication).toBe('TOTAL-PASSED');
  });

  it('fails a /ByteRange that runs past the end of the file as TOTAL-FAILED/FORMAT_FAILURE', async () => {
    const path = await signed('past-end');
    await editByteRange(path, ([a, b, c, d]) => [a!, b!, c!, d! + 10]);
    expect((await verify(path)).signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason: expect.stringContaining('runs past the end of the file') });
  });

  it('fails a /ByteRange whose gap is not this signature’s /Contents (signature wrapping)', async () => {
    const path = await signed('wrapped');
    await editByteRange(path, ([a, b, c, d]) => [a!, b! + 2, c!, d!]);
    expect((await verify(path)).signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason: expect.stringContaining('signature wrapping') });
  });

  it('reports a /Contents that is no CMS at all as that signature’s FORMAT_FAILURE instead of refusing the document', async () => {
    const path = await signed('empty-cms');
    const bytes = await readFile(path);
    const text = bytes.toString('latin1');
    const start = text.indexOf('/Contents <') + '/Contents <'.length;
    bytes.fill('0', start, text.indexOf('>', start), 'latin1');
    await writeFile(path, bytes);
    const report = await verify(path);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason: expect.stringContaining('cannot be read') });
  });

  it('reads a PDF whose cross-reference offsets miss their objects by scanning for them, and fails the signature whose bytes moved', async () => {
    const path = await signed('shifted');
    const bytes = await readFile(path);
    const at = bytes.indexOf('BT /F1');
    await writeFile(path, Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 10)]));
    const report = await verify(path);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]!.verdict.indication).toBe('TOTAL-FAILED');
    expect(report.signatures[0]!.problems).toContainEqual(expect.stringContaining('found by scanning the file'));
  });

  it('answers a PDF too damaged to read even by scanning in verification’s terms, not as a document that cannot be signed', async () => {
    const path = await signed('damaged');
    const text = (await readFile(path)).toString('latin1');
    const damaged = text.slice(0, text.lastIndexOf('startxref')).replace(/ obj\b/g, ' job').replace(/trailer/g, 'reliart');
    await writeFile(path, Buffer.from(damaged, 'latin1'));
    await expect(verify(path)).rejects.toMatchObject({ code: 'ERR_VERIFY_UNSUPPORTED', message: expect.stringContaining('cannot be read for verification') });
  });

  it('reads an encrypted PDF for verification rather than refusing it as if it were to be signed', async () => {
    const path = await signed('to-encrypt');
    const encrypted = join(f.dir, 'encrypted.pdf');
    await promisify(execFile)('qpdf', ['--encrypt', 'user', 'owner', '256', '--', path, encrypted]);
    expect((await readFile(encrypted)).includes('/Encrypt')).toBe(true);
    const report = await verify(encrypted);
    expect(report).toMatchObject({ format: 'pdf' });
    expect(report.signatures).toHaveLength(1);
  });
});
