import { createPrivateKey } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskBatchResponse, DeskSavedFile } from '../../../src/core/schemas/desk-api.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { createTestCa, createTestSigner } from '../../support/pki/test-pki.js';
import { EXPECTED_STAMP_LABELS, STAMP_LANGUAGES, type ExpectedStampLanguage } from '../../support/signing/stamp-label-texts.js';
import { minimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { textInRegion } from '../../support/signing/pdf-region.js';
import { ScriptedPrompt } from '../../support/station/scripted-prompt.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { uiHeaders } from '../../support/station/ui-credential.js';

const SECRET = 'shop-api-secret-0123456789';
const ORIGIN = 'https://shop.example';
const REASON = 'Kokku lepitud';

/**
 * A signature with a reason and no placed box is still drawn (where the page has room, so the reason shows): its
 * labels follow the document's signing language the same as a placed box's, for a web page's session, the window's
 * one document and the window's batch.
 */
describe('the stamp of a reason-only signature is written in the document’s signing language', () => {
  let station: TestStation;
  let dir: string;
  let signer: Awaited<ReturnType<typeof createTestSigner>>;
  let ui: { authorization: string; origin: string };

  async function call(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${station.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function ok(path: string, body: unknown, headers: Record<string, string>): Promise<Record<string, unknown>> {
    const answer = await call(path, body, headers);
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body;
  }

  /** Accept the reason, start, sign the digest with the soft key, complete: what the browser client does. */
  async function signSession(clientId: string, docId: string, origin: string): Promise<void> {
    await ok('/api/signatures/signing-session/reason/accept', { client_id: clientId, doc_id: docId, reason_text: REASON }, { origin });
    const start = await ok('/api/signatures/start-signing', { client_id: clientId, doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64') }, { origin });
    const signature = await softKeySigner(createPrivateKey({ key: Buffer.from(signer.pkcs8), format: 'der', type: 'pkcs8' }))(Buffer.from(start.hexDigest as string, 'hex'), 'SHA-256');
    await ok('/api/signatures/id-signature/complete', { client_id: clientId, doc_id: docId, token: start.token, signature_value: Buffer.from(signature).toString('base64') }, { origin });
  }

  /** The whole first page's text as pdftotext reads it, whitespace folded. */
  async function pageText(pdf: Buffer | string, name: string): Promise<string> {
    const path = typeof pdf === 'string' ? pdf : join(dir, name);
    if (typeof pdf !== 'string') await writeFile(path, pdf);
    return (await textInRegion(path, 1, { x: 0, y: 0, width: 612, height: 792 })).replace(/\s+/g, ' ');
  }

  function expectLabels(text: string, language: ExpectedStampLanguage): void {
    const labels = EXPECTED_STAMP_LABELS[language];
    expect(text).toContain(`${labels.signedBy} Mari Mägi`);
    expect(text).toMatch(new RegExp(`${labels.date} \\d{4}-\\d{2}-\\d{2} `));
    expect(text).toContain(`${labels.reason} ${REASON}`);
    if (language !== 'en') expect(text).not.toContain(EXPECTED_STAMP_LABELS.en.signedBy);
  }

  const pdfFile = (fileName: string) => ({ fileName, mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stamp-language-'));
    signer = await createTestSigner(await createTestCa(), 'CN=Mari Mägi,O=Signing Station Tests,C=EE');
    station = await startTestStation({}, { userPrompt: new ScriptedPrompt(), tokenSources: [] });
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [ORIGIN] }, Buffer.from(SECRET));
    ui = await uiHeaders(station.uiUrl());
  });
  afterAll(async () => {
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(STAMP_LANGUAGES)('a web page’s session with stamp_language %s: the stamp’s labels are in it', async (language) => {
    const prepared = await ok('/api/signatures/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [pdfFile('leping.pdf')], signing_reason: REASON, stamp_language: language }, {});
    await signSession('shop', prepared.doc_id as string, ORIGIN);
    const signed = await ok('/api/signatures/download-signed-file', { client_id: 'shop', secret: SECRET, doc_id: prepared.doc_id }, {});
    expectLabels(await pageText(Buffer.from(signed.signed_file_contents as string, 'base64'), `session-${language}.pdf`), language);
  });

  it('a session that names no language keeps English labels; one for a container, or an unknown language, is refused at prepare', async () => {
    const prepared = await ok('/api/signatures/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [pdfFile('plain.pdf')], signing_reason: REASON }, {});
    await signSession('shop', prepared.doc_id as string, ORIGIN);
    const signed = await ok('/api/signatures/download-signed-file', { client_id: 'shop', secret: SECRET, doc_id: prepared.doc_id }, {});
    expectLabels(await pageText(Buffer.from(signed.signed_file_contents as string, 'base64'), 'session-default.pdf'), 'en');

    const asice = await call('/api/signatures/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'asice', files: [pdfFile('a.pdf')], stamp_language: 'et' }, {});
    expect(asice).toMatchObject({ status: 400, body: { code: 'ERR_INPUT_INVALID' } });
    expect(JSON.stringify(asice.body)).toContain('stamp_language');
    const unknown = await call('/api/signatures/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [pdfFile('b.pdf')], stamp_language: 'fi' }, {});
    expect(unknown).toMatchObject({ status: 400, body: { code: 'ERR_INPUT_INVALID' } });
  });

  it('the window’s one PDF with a reason and no box: the labels are in the language it sent', async () => {
    const prepared = await ok('/admin/api/desk/sessions', { containerType: 'pdf', files: [pdfFile('window.pdf')], signingReason: REASON, requireSigningReason: true, stampLanguage: 'lt' }, ui);
    await signSession(prepared.clientId as string, prepared.docId as string, ui.origin);
    const saved = (await ok(`/admin/api/desk/sessions/${prepared.docId as string}/save`, {}, ui)) as unknown as DeskSavedFile;
    expectLabels(await pageText(saved.path, ''), 'lt');
  });

  it('the window’s batch: every document’s stamp is in the batch’s language', async () => {
    const batch = (await ok('/admin/api/desk/batches', { files: [pdfFile('one.pdf'), pdfFile('two.pdf')], signingReason: REASON, requireSigningReason: true, stampLanguage: 'ru' }, ui)) as unknown as DeskBatchResponse;
    for (const { docId } of batch.documents) {
      await signSession(batch.clientId, docId, ui.origin);
      const saved = (await ok(`/admin/api/desk/sessions/${docId}/save`, {}, ui)) as unknown as DeskSavedFile;
      expectLabels(await pageText(saved.path, ''), 'ru');
    }
  });
});
