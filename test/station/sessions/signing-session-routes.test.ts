import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { minimalPdf } from '../../support/signing/signing-test-pdfs.js';

const SECRET = 'shop-api-secret-0123456789';
const REASON = 'Kinnitan lepingu tingimused — I accept the contract terms';
const pdf = minimalPdf();

class ManualClock {
  time = new Date('2026-11-21T10:00:00.000Z');
  now = (): Date => new Date(this.time);
}

describe('signing sessions and signing reasons', () => {
  let station: TestStation;
  const clock = new ManualClock();

  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${station.baseUrl}/api/signatures${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  const prepare = async (extra: Record<string, unknown> = {}): Promise<string> => {
    const response = await post('/prepare-files-for-signing', {
      client_id: 'shop',
      secret: SECRET,
      container_type: 'pdf',
      files: [{ fileName: 'contract.pdf', mimeType: 'application/pdf', fileContent: pdf.toString('base64') }],
      signing_reason: REASON,
      require_signing_reason: true,
      ...extra,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; doc_id: string; expires_at: string };
    expect(body.status).toBe('OK');
    expect(body.expires_at).toBe('2026-11-22T10:00:00.000Z');
    return body.doc_id;
  };

  beforeAll(async () => {
    station = await startTestStation({}, { clock });
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'] }, Buffer.from(SECRET));
    await station.data.clients.upsert({ clientId: 'other', allowedOrigins: ['https://other.example'] }, Buffer.from('other-api-secret-0123456789'));
  });
  afterAll(() => station.dispose());

  it('prepares a PDF and reports the session status object', async () => {
    const docId = await prepare();
    const status = await post('/signing-session/status', { client_id: 'shop', doc_id: docId });
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({
      signing_session_status: 'OPEN',
      signing_session_user_status: null,
      signing_reason: { reason_text: REASON, accepted_at: null, accepted_in_current_session: false },
      require_signing_reason: true,
    });
  });

  it('omits signing_reason when none is set', async () => {
    const docId = await prepare({ signing_reason: undefined, require_signing_reason: false });
    expect(await (await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).json()).toEqual({
      signing_session_status: 'OPEN',
      signing_session_user_status: null,
      require_signing_reason: false,
    });
  });

  it('refuses a wrong secret, a browser Origin on the secret-bearing call, and bad files', async () => {
    const wrong = await post('/prepare-files-for-signing', { client_id: 'shop', secret: 'nope', container_type: 'pdf', files: [{ fileName: 'a.pdf', mimeType: 'application/pdf', fileContent: pdf.toString('base64') }] });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ status: 'error', code: 'ERR_CLIENT_AUTH_FAILED' });
    // The secret is checked before the documents are validated or decoded: bad files with a wrong secret are a 401.
    const wrongWithBadFiles = await post('/prepare-files-for-signing', { client_id: 'shop', secret: 'nope', container_type: 'zip', files: [{ fileName: '../x', mimeType: 'a', fileContent: '***' }] });
    expect(wrongWithBadFiles.status).toBe(401);

    const fromBrowser = await post(
      '/prepare-files-for-signing',
      { client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName: 'a.pdf', mimeType: 'application/pdf', fileContent: pdf.toString('base64') }] },
      { origin: 'https://shop.example' },
    );
    expect(fromBrowser.status).toBe(403);

    const notPdf = await post('/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName: 'a.pdf', mimeType: 'application/pdf', fileContent: Buffer.from('hello').toString('base64') }] });
    expect(notPdf.status).toBe(400);
    expect((await notPdf.json()).errors).toHaveProperty(['files.0.fileContent']);

    const invalid = await post('/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'zip', files: [{ fileName: '../x', mimeType: 'a', fileContent: '***' }], require_signing_reason: true });
    expect(invalid.status).toBe(400);
    expect(Object.keys((await invalid.json()).errors)).toEqual(expect.arrayContaining(['container_type', 'files.0.fileName', 'files.0.fileContent']));
  });

  it('takes a visible signature placement for a PDF only, with a page from 1 and a box of positive size', async () => {
    await prepare({ visible_signature: { page: 1, x: 10, y: 20, width: 220, height: 80 } });
    // A page the document does not have is refused at prepare, not after the signer consented.
    const noSuchPage = await post('/prepare-files-for-signing', {
      client_id: 'shop',
      secret: SECRET,
      container_type: 'pdf',
      files: [{ fileName: 'a.pdf', mimeType: 'application/pdf', fileContent: pdf.toString('base64') }],
      visible_signature: { page: 2, x: 10, y: 20, width: 220, height: 80 },
    });
    expect([noSuchPage.status, (await noSuchPage.json()).code]).toEqual([400, 'ERR_SIGNING_INVALID_PLACEMENT']);
    const file = { fileName: 'a.txt', mimeType: 'text/plain', fileContent: Buffer.from('a').toString('base64') };
    const onContainer = await post('/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'asice', files: [file], visible_signature: { page: 1, x: 0, y: 0, width: 220, height: 80 } });
    expect(onContainer.status).toBe(400);
    expect((await onContainer.json()).errors).toHaveProperty(['visible_signature']);
    const badBox = await post('/prepare-files-for-signing', {
      client_id: 'shop',
      secret: SECRET,
      container_type: 'pdf',
      files: [{ fileName: 'a.pdf', mimeType: 'application/pdf', fileContent: pdf.toString('base64') }],
      visible_signature: { page: 0, x: -1, y: 0, width: 0, height: 80 },
    });
    expect(badBox.status).toBe(400);
    expect(Object.keys((await badBox.json()).errors)).toEqual(expect.arrayContaining(['visible_signature.page', 'visible_signature.x', 'visible_signature.width']));
  });

  it('accepts the reason only when the typed text is exactly the reason, recording nothing otherwise', async () => {
    const docId = await prepare();
    for (const typed of [REASON.toLowerCase(), `${REASON} `, REASON.slice(0, -1), '']) {
      const refused = await post('/signing-session/reason/accept', { client_id: 'shop', doc_id: docId, reason_text: typed });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ status: 'error', code: 'ERR_REASON_MISMATCH', errors: { reason_text: expect.any(Array) } });
    }
    const before = await (await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).json();
    expect(before.signing_reason.accepted_at).toBeNull();
    await expect(station.data.sessions.assertMaySign('shop', docId)).rejects.toMatchObject({ code: 'ERR_REASON_NOT_ACCEPTED' });

    const accepted = await post('/signing-session/reason/accept', { client_id: 'shop', doc_id: docId, reason_text: REASON.normalize('NFD') }, { origin: 'https://shop.example' });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(await accepted.json()).toEqual({ status: 'OK' });
    const after = await (await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).json();
    expect(after).toMatchObject({
      signing_session_user_status: 'REASON_ACCEPTED',
      signing_reason: { accepted_at: '2026-11-21T10:00:00.000Z', accepted_in_current_session: true },
    });
    await expect(station.data.sessions.assertMaySign('shop', docId)).resolves.toMatchObject({ docId });
  });

  it('keeps sessions private to their client and their registered origins', async () => {
    const docId = await prepare();
    const otherClient = await post('/signing-session/status', { client_id: 'other', doc_id: docId });
    expect(otherClient.status).toBe(404);
    const foreignOrigin = await post('/signing-session/status', { client_id: 'shop', doc_id: docId }, { origin: 'https://other.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.headers.get('access-control-allow-origin')).toBeNull();
    const unknown = await post('/signing-session/status', { client_id: 'shop', doc_id: 'A'.repeat(24) });
    expect(unknown.status).toBe(404);
  });

  it('serves the signed file to its client only once signed, and a new round needs new consent', async () => {
    const docId = await prepare();
    const early = await post('/download-signed-file', { client_id: 'shop', secret: SECRET, doc_id: docId });
    expect(early.status).toBe(409);
    await post('/signing-session/reason/accept', { client_id: 'shop', doc_id: docId, reason_text: REASON });
    const session = await station.data.sessions.assertMaySign('shop', docId);
    const signed = Buffer.concat([pdf, Buffer.from('% signed\n')]);
    await station.data.sessions.completeSignature(session, signed, 'contract.pdf', 'application/pdf', {
      idcode: 'PNOEE-38001085718',
      firstname: 'JAAK-KRISTJAN',
      lastname: 'JÕEORG',
      country: 'EE',
      signingMethod: 'id-signature',
      certificate: 'MIIB',
    });
    const download = await post('/download-signed-file', { client_id: 'shop', secret: SECRET, doc_id: docId });
    expect(download.status).toBe(200);
    const body = await download.json();
    expect(Buffer.from(body.signed_file_contents, 'base64')).toEqual(signed);
    expect(body).toMatchObject({ status: 'OK', filename: 'contract.pdf', signer_idcode: 'PNOEE-38001085718', signer_firstname: 'JAAK-KRISTJAN', signer_lastname: 'JÕEORG', signing_method: 'id-signature' });

    const status = await (await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).json();
    expect(status).toMatchObject({ signing_session_status: 'SIGNED', signing_session_user_status: 'SIGNED', signing_reason: { accepted_at: '2026-11-21T10:00:00.000Z', accepted_in_current_session: false } });
    await expect(station.data.sessions.assertMaySign('shop', docId)).rejects.toMatchObject({ code: 'ERR_REASON_NOT_ACCEPTED' });
    const original = await station.data.sessions.readFile(session, session.files[0]!);
    expect(original).toEqual(pdf);

    const wrongSecret = await post('/download-signed-file', { client_id: 'shop', secret: 'x', doc_id: docId });
    expect(wrongSecret.status).toBe(401);
  });

  it('expires sessions after 24 hours and sweeps their files', async () => {
    const docId = await prepare();
    clock.time = new Date('2026-11-22T10:00:01.000Z');
    const status = await (await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).json();
    expect(status.signing_session_status).toBe('EXPIRED');
    const accept = await post('/signing-session/reason/accept', { client_id: 'shop', doc_id: docId, reason_text: REASON });
    expect(accept.status).toBe(410);
    expect(await station.data.sessions.sweep()).toBeGreaterThan(0);
    expect(await readdir(join(station.dataDir, 'documents'))).not.toContain(docId);
    expect((await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).status).toBe(404);
    clock.time = new Date('2026-11-21T10:00:00.000Z');
  });

  it('removes the staging files a killed station left in its documents on sweep, never those of a live writer', async () => {
    const docId = await prepare();
    const directory = join(station.dataDir, 'documents', docId);
    const gone = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) => gone.once('exit', () => resolve(gone.pid!)));
    const stale = `.signed-1.pdf.${deadPid}-0123456789ab.partial`;
    const live = `.signed-1.pdf.${process.pid}-ba9876543210.partial`;
    await writeFile(join(directory, stale), 'left by a killed station');
    await writeFile(join(directory, live), 'being written');
    await station.data.sessions.sweep();
    const names = await readdir(directory);
    expect(names).not.toContain(stale);
    expect(names).toContain(live);
  });
});

