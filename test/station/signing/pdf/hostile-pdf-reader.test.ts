import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PdfDocumentReader } from '../../../../src/station/signing/pdf/pdf-document-reader.js';
import { HOSTILE_PDFS, pdfWithObjects } from '../../../support/signing/hostile-pdf.js';
import { PdfString } from '../../../../src/station/signing/pdf/pdf-object.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hostile-pdf-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Opens the file and reads its catalog, as preparing a signature does first. */
async function readCatalog(name: string, bytes: Buffer): Promise<unknown> {
  const path = join(dir, `${name}.pdf`);
  await writeFile(path, bytes);
  const file = await open(path, 'r');
  try {
    const reader = await PdfDocumentReader.open(file, bytes.length);
    return (await reader.object(1)).value;
  } finally {
    await file.close();
  }
}

describe('PDF reader on hostile files (findings of a security review)', () => {
  it('reads many hex strings in time linear in the file', async () => {
    const value = await readCatalog('hex', HOSTILE_PDFS.manyHexStrings());
    expect(Array.isArray(value) && value.length).toBe(80_000);
  });

  it('refuses an object of more than 500 000 values with its own error', async () => {
    await expect(readCatalog('overfull', HOSTILE_PDFS.overfullObject())).rejects.toMatchObject({
      code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT',
      message: expect.stringMatching(/holds more than 500000 values/),
    });
  });

  it('decodes strings kept as their place in the file: hex with spaces and an odd digit, literal escapes, octal, nesting', async () => {
    const value = await readCatalog('strings', pdfWithObjects(['[<48 65 6C6c 6F> <414> (a\\(b\\)\\n\\101\\0612 (nested) \\\ncontinued) ()]']));
    const bytes = (value as PdfString[]).map((string) => Buffer.from(string.bytes).toString('latin1'));
    expect(bytes).toEqual(['Hello', 'A@', 'a(b)\nA12 (nested) continued', '']);
  });

  it('reads an object far longer than its first read, and a long cross-reference table, whole', async () => {
    const long = await readCatalog('long-object', pdfWithObjects([`[<${'41'.repeat(300_000)}> ${'1 '.repeat(100_000)}]`]));
    expect([(long as [PdfString])[0].bytes.length, (long as unknown[]).length]).toEqual([300_000, 100_001]);
    const bodies = Array.from({ length: 50_000 }, (_, i) => (i === 0 ? '<< /Type /Catalog >>' : `${i}`));
    expect(await readCatalog('long-xref', pdfWithObjects(bodies))).toBeInstanceOf(Object);
  });

  it('refuses a stream whose /Length refers to itself, without recursing', async () => {
    await expect(readCatalog('self-length', HOSTILE_PDFS.selfReferencingLength())).rejects.toMatchObject({
      code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT',
      status: 422,
      message: expect.stringMatching(/valid \/Length/),
    });
  });

  it('refuses a cross-reference subsection announcing entries it does not hold', async () => {
    await expect(readCatalog('xref-count', HOSTILE_PDFS.hugeXrefSubsection())).rejects.toMatchObject({
      code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT',
      message: expect.stringMatching(/more entries than it holds/),
    });
  });

  it('refuses a cross-reference stream whose /Index announces rows it does not hold', async () => {
    await expect(readCatalog('xref-index', HOSTILE_PDFS.hugeXrefStreamIndex())).rejects.toMatchObject({
      code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT',
      message: expect.stringMatching(/more entries than it holds/),
    });
  });

  it('refuses objects nested deeper than the limit with its own error, not a stack overflow', async () => {
    await expect(readCatalog('nesting', HOSTILE_PDFS.deepNesting())).rejects.toMatchObject({
      code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT',
      message: expect.stringMatching(/nested more than 64 deep/),
    });
  });

  it('refuses a cross-reference offset that is not a position in the file (found by fuzzing)', async () => {
    await expect(readCatalog('garbage-offset', HOSTILE_PDFS.garbageXrefOffset())).rejects.toMatchObject({
      code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT',
      message: expect.stringMatching(/offset points outside the file/),
    });
  });
});
