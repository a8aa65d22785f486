import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocumentVerification } from '../../../src/core/schemas/verification-report.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { PdfDict, PdfName, PdfRaw, PdfRef, PdfString, type PdfValue } from '../../../src/station/signing/pdf/pdf-object.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { signPdf, usePadesFixture } from '../../support/signing/signing-pades-fixture.js';
import { minimalPdf, writeFormPdf } from '../../support/signing/signing-test-pdfs.js';
import { appendPdfUpdate, editedDict, ref, type PdfUpdateObjects } from '../../support/verification/append-pdf-update.js';
import { trustOf } from '../../support/verification/trust-of.js';

const f = usePadesFixture();

// The minimal test PDF: 1 catalog, 2 page tree root, 3 its one page, 4 that page's content.
const CATALOG = 1;
const PAGES = 2;
const PAGE = 3;
const FONT = 5;

/** A second page, added to the page tree. */
const addPage: PdfUpdateObjects = async (reader, next) => ({
  [PAGES]: await editedDict(reader, PAGES, { Kids: [ref(PAGE), ref(next)], Count: 2 }),
  [next]: `<< /Type /Page /Parent ${PAGES} 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>`,
});

/** A sticky note on the first page, the page's other annotations (the signature's widget) kept. */
const addNote: PdfUpdateObjects = async (reader, next) => {
  const annots = await reader.direct(((await reader.object(PAGE)).value as PdfDict).get('Annots'));
  return {
    [PAGE]: await editedDict(reader, PAGE, { Annots: [...(Array.isArray(annots) ? annots : []), ref(next)] }),
    [next]: '<< /Type /Annot /Subtype /Text /Rect [100 100 120 120] /Contents (added after signing) >>',
  };
};

/** Certifies the document (DocMDP P `level`), as a certifying signature's catalog entry would. */
const certify = (level: number): PdfUpdateObjects => async (reader, next) => ({
  [CATALOG]: await editedDict(reader, CATALOG, { Perms: new PdfRaw(`<< /DocMDP ${next} 0 R >>`) }),
  [next]: `<< /Type /Sig /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P ${level} /V /1.2 >> >>] >>`,
});

/** Signs a one-page PDF after the `before` updates, then applies the `after` ones. */
async function signedThenChanged(name: string, before: PdfUpdateObjects[], after: PdfUpdateObjects[]): Promise<string> {
  const input = join(f.dir, `${name}-in.pdf`);
  await writeFile(input, minimalPdf(name));
  for (const update of before) await appendPdfUpdate(input, update);
  const output = join(f.dir, `${name}.pdf`);
  await signPdf(f, input, output, f.rsa, { timestamp: null });
  for (const update of after) await appendPdfUpdate(output, update);
  return output;
}

async function verify(path: string): Promise<DocumentVerification> {
  return verifyDocument(path, { trust: trustOf(new x509.X509Certificate(await readFile(f.rootPath, 'utf8'))), offline: true });
}

/** The page's font written again, as it is or as another font. */
const rewriteFont = (baseFont: string): PdfUpdateObjects => async (reader) => ({ [FONT]: await editedDict(reader, FONT, { BaseFont: new PdfName(baseFont) }) });

describe('PDF changes after a signature, compared object graph against object graph', () => {
  it('passes the signature with nothing after it, and says nothing changed', async () => {
    const [signature] = (await verify(await signedThenChanged('unchanged', [], []))).signatures;
    expect(signature!.verdict.indication).toBe('TOTAL-PASSED');
    expect(signature!.changesAfterSigning).toBeUndefined();
  });

  it('fails a signature whose document gained a page afterwards as TOTAL-FAILED/FORMAT_FAILURE, naming the page', async () => {
    const [signature] = (await verify(await signedThenChanged('page-added', [], [addPage]))).signatures;
    expect(signature!.intact).toBe(false);
    expect(signature!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason: expect.stringContaining('page 2 added') });
    expect(signature!.changesAfterSigning).toMatchObject({ pagesAdded: [2], pagesRemoved: [], allowed: false });
  });

  it('fails a signature whose document lost a page afterwards, naming the page it had', async () => {
    const removePage: PdfUpdateObjects = async (reader) => ({ [PAGES]: await editedDict(reader, PAGES, { Kids: [ref(PAGE)], Count: 1 }) });
    const [signature] = (await verify(await signedThenChanged('page-removed', [addPage], [removePage]))).signatures;
    expect(signature!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason: expect.stringContaining('page 2 removed') });
    expect(signature!.changesAfterSigning).toMatchObject({ pagesAdded: [], pagesRemoved: [2] });
  });

  it('reports an annotation added afterwards on its page, allowed in a document that is not certified, verdict unchanged', async () => {
    const [signature] = (await verify(await signedThenChanged('note', [], [addNote]))).signatures;
    expect(signature!.verdict.indication).toBe('TOTAL-PASSED');
    expect(signature!.changesAfterSigning).toMatchObject({ pagesAdded: [], pagesRemoved: [], pagesChanged: [], annotationPages: [1], certification: null, allowed: true });
  });

  it('says an annotation is not allowed by a certification that allows only form filling and signing (P 2), and allowed by P 3', async () => {
    const [atTwo] = (await verify(await signedThenChanged('certified-2', [certify(2)], [addNote]))).signatures;
    expect(atTwo!.changesAfterSigning).toMatchObject({ annotationPages: [1], certification: 2, allowed: false });
    expect(atTwo!.problems).toContainEqual(expect.stringContaining('not allowed by the certification, P 2'));
    const [atThree] = (await verify(await signedThenChanged('certified-3', [certify(3)], [addNote]))).signatures;
    expect(atThree!.changesAfterSigning).toMatchObject({ annotationPages: [1], certification: 3, allowed: true });
  });

  it('counts another object of the signed revision written again with other content (a font swapped), not one saved again unchanged', async () => {
    const [swapped] = (await verify(await signedThenChanged('font-swapped', [], [rewriteFont('Courier')]))).signatures;
    expect(swapped!.changesAfterSigning).toMatchObject({ otherObjects: 1, pagesChanged: [], annotationPages: [], allowed: true });
    expect(swapped!.problems).toContainEqual(expect.stringContaining('1 other object(s) of the signed revision written again'));
    const [resaved] = (await verify(await signedThenChanged('font-resaved', [], [rewriteFont('Helvetica')]))).signatures;
    expect(resaved!.changesAfterSigning).toMatchObject({ otherObjects: 0 });
    const [certified] = (await verify(await signedThenChanged('font-swapped-certified', [certify(3)], [rewriteFont('Courier')]))).signatures;
    expect(certified!.changesAfterSigning).toMatchObject({ otherObjects: 1, certification: 3, allowed: false });
  });

  it('says a form field changed after a signature whose field lock covers it is not allowed, and allowed without the lock', async () => {
    const TEXT_FIELD = 11; // the form PDF's one text field, named Signature1
    const fill = (lock: boolean): PdfUpdateObjects => async (reader) => {
      const fields = (await reader.direct(((await reader.direct(((await reader.object(CATALOG)).value as PdfDict).get('AcroForm'))) as PdfDict).get('Fields'))) as PdfValue[];
      const signatureField = fields.filter((item): item is PdfRef => item instanceof PdfRef).find((item) => item.num !== TEXT_FIELD)!;
      return {
        [TEXT_FIELD]: await editedDict(reader, TEXT_FIELD, { V: new PdfString(Buffer.from('changed after signing')) }),
        ...(lock ? { [signatureField.num]: await editedDict(reader, signatureField.num, { Lock: new PdfDict([['Type', new PdfName('SigFieldLock')], ['Action', new PdfName('All')]]) }) } : {}),
      };
    };
    const signFormThen = async (name: string, update: PdfUpdateObjects): Promise<string> => {
      const output = join(f.dir, `${name}.pdf`);
      await signPdf(f, await writeFormPdf(join(f.dir, `${name}-in.pdf`)), output, f.rsa, { timestamp: null });
      await appendPdfUpdate(output, update);
      return output;
    };
    const [locked] = (await verify(await signFormThen('form-locked', fill(true)))).signatures;
    expect(locked!.changesAfterSigning).toMatchObject({ formFields: ['Signature1'], allowed: false });
    expect(locked!.problems).toContainEqual(expect.stringContaining('fields it locks were changed (Signature1)'));
    const [unlocked] = (await verify(await signFormThen('form-unlocked', fill(false)))).signatures;
    expect(unlocked!.changesAfterSigning).toMatchObject({ formFields: ['Signature1'], allowed: true });
  });
});
