import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PdfDocumentReader } from '../../../../src/station/signing/pdf/pdf-document-reader.js';
import { HOSTILE_PDFS } from '../../../support/signing/hostile-pdf.js';

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
