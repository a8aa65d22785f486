import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PendingPrompt } from '../../../src/core/schemas/admin-api.js';
import type { StationState } from '../../../src/core/schemas/station-state.js';
import type { DeskSavedFile } from '../../../src/core/schemas/desk-api.js';
import { readUiControl } from '../../../src/station/http/ui-control.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { uiHeaders } from '../../support/station/ui-credential.js';
import { createSoftHsm, type SoftHsm, softHsmTokenSource } from '../../support/pkcs11/pkcs11-softhsm.js';
import { minimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { HOSTILE_PDFS } from '../../support/signing/hostile-pdf.js';
import { containerOf } from '../../support/signing/zip-bomb.js';
import { pem } from '../../support/pkcs11/pkcs11-nss-database.js';
import { openStationEvents, type StationEvents } from '../../support/station/station-events.js';
import { createNssDb, opensslTsVerify, pdfsig } from '../../support/signing/signing-validators.js';
import { signThroughHelperPage } from '../../support/signing/signing-session-client.js';
import { notificationsBetween, type ShellNotification } from '../../../src/main/shell-notifications.js';

let softhsm: SoftHsm;
let station: TestStation;
let ui: { authorization: string; origin: string };
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'station-window-'));
  softhsm = await createSoftHsm();
  await softhsm.createToken('Desk Token', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'signing' }]);
  const source = softHsmTokenSource();
  station = await startTestStation({}, { tokenSources: [source] });
  ui = await uiHeaders(station.uiUrl());
});

afterAll(async () => {
  await station?.dispose();
  await softhsm?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

async function call<T>(path: string, body?: unknown, headers: Record<string, string> = ui): Promise<{ status: number; body: T }> {
  const response = await fetch(`${station.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

const openEvents = (): Promise<StationEvents> => openStationEvents(station.baseUrl, ui);

const pendingOf = (kind: PendingPrompt['kind']) => (state: StationState) => state.prompts.some((prompt) => prompt.kind === kind);

/**
 * What the window's browser client has the station's iframe helper do after start-signing: the helper page for the
 * desk client's document, then its call to sign the prepared digest (answered after the PIN prompt).
 */
function helperSignature(docId: string, hexDigest: string): ReturnType<typeof signThroughHelperPage> {
  return signThroughHelperPage(station.baseUrl, { clientId: 'signing-station-desk', method: 'certeurope-usb-token-signature', docId, hexDigest, embeddingOrigin: ui.origin });
}

/** A desk document started for signing as the window does it: prepared, start-signing sent, consent given. */
async function startDeskSignature(events: StationEvents, fileName: string) {
  const state = await events.next(() => true);
  const token = state.tokens[0]!;
  const certificate = token.certificates[0]!;
  const prepared = await call<{ docId: string; clientId: string }>('/admin/api/desk/sessions', {
    containerType: 'pdf',
    files: [{ fileName, mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }],
  });
  expect(prepared.status).toBe(201);
  const { docId, clientId } = prepared.body;
  // start-signing exactly as a web page of the desk client: the consent prompt names the station's own origin.
  const started = call<{ hexDigest: string; token: string }>('/api/signatures/start-signing', { client_id: clientId, doc_id: docId, sign_type: 'certeurope-usb-token-signature', certificate: certificate.certificate }, { origin: ui.origin });
  const consent = (await events.next(pendingOf('consent'))).prompts.find((prompt) => prompt.kind === 'consent')!;
  expect(consent.kind === 'consent' && consent.request.requester).toBe(ui.origin);
  expect((await call('/admin/api/prompts/' + consent.id, { kind: 'consent', accept: true })).status).toBe(204);
  const start = await started;
  expect(start.status).toBe(200);
  return { token, certificate, docId, clientId, start };
}

describe('the station window: pushed state, desk signing, new links', () => {
  it('reads what the window prepares as signing will: a hostile PDF and a zip bomb container are a 422, nothing stored', async () => {
    const documents = join(station.dataDir, 'documents');
    const storedBefore = await readdir(documents).catch(() => []);
    const pdf = await call<{ code: string }>('/admin/api/desk/sessions', {
      containerType: 'pdf',
      files: [{ fileName: 'hostile.pdf', mimeType: 'application/pdf', fileContent: HOSTILE_PDFS.selfReferencingLength().toString('base64') }],
    });
    expect([pdf.status, pdf.body.code]).toEqual([422, 'ERR_SIGNING_UNSUPPORTED_DOCUMENT']);
    const bomb = await containerOf([{ name: 'zeros.bin', data: Buffer.alloc(64 * 1024 * 1024) }]);
    const container = await call<{ code: string }>('/admin/api/desk/sessions', {
      containerType: 'asice',
      files: [{ fileName: 'bomb.asice', mimeType: 'application/vnd.etsi.asic-e+zip', fileContent: bomb.toString('base64') }],
    });
    expect([container.status, container.body.code]).toEqual([422, 'ERR_CONTAINER_ENTRY_TOO_LARGE']);
    expect(await readdir(documents).catch(() => [])).toEqual(storedBefore);
  });

  it('refuses a long-term level for a certificate that names no OCSP or CRL service before anything is stored or asked', async () => {
    const events = await openEvents();
    const certificate = (await events.next(() => true)).tokens[0]!.certificates[0]!;
    const documents = join(station.dataDir, 'documents');
    const storedBefore = await readdir(documents).catch(() => []);
    const files = [{ fileName: 'long-term.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }];
    for (const baseline of ['B-LT', 'B-LTA']) {
      const refused = await call<{ code: string; message: string }>('/admin/api/desk/sessions', { containerType: 'pdf', files, baseline, signingCertificate: certificate.certificate });
      expect([refused.status, refused.body.code]).toEqual([422, 'ERR_SIGNING_REVOCATION_UNAVAILABLE']);
      expect(refused.body.message).toMatch(/names no OCSP or CRL service.*sign at B-T/);
    }
    // A batch of PDFs is refused the same way, before its first document is stored.
    const batch = await call<{ code: string }>('/admin/api/desk/batches', { files: [files[0]!, { ...files[0]!, fileName: 'second.pdf' }], baseline: 'B-LT', signingCertificate: certificate.certificate });
    expect([batch.status, batch.body.code]).toEqual([422, 'ERR_SIGNING_REVOCATION_UNAVAILABLE']);
    expect(await readdir(documents).catch(() => [])).toEqual(storedBefore);
    const atBt = await call('/admin/api/desk/sessions', { containerType: 'pdf', files, baseline: 'B-T', signingCertificate: certificate.certificate });
    expect(atBt.status).toBe(201);
  });

  it('pushes the whole state at once and again when the store changes, a client registered elsewhere included', async () => {
    const events = await openEvents();
    try {
      const first = await events.next(() => true);
      expect(first.tokens.map((token) => token.label)).toEqual(['Desk Token']);
      expect(first.station.mode).toBe('sandbox');
      await station.data.clients.upsert({ clientId: 'pushed-shop', allowedOrigins: ['https://shop.example'] });
      const next = await events.next((state) => state.clients.some((client) => client.clientId === 'pushed-shop'));
      expect(next.clients.find((client) => client.clientId === 'pushed-shop')?.allowedOrigins).toEqual(['https://shop.example']);
    } finally {
      events.close();
    }
  });

  it('refuses the push channel without the UI credential', async () => {
    const response = await fetch(`${station.baseUrl}/admin/api/events`, { headers: { origin: ui.origin } });
    expect(response.status).toBe(401);
  });

  it('signs a PDF from the window: overview never waits on the PIN, a wrong PIN asks again in place, the result is saved beside the others', async () => {
    const events = await openEvents();
    // What the desktop app would notify, decided from the same pushed states its tray and notifications follow.
    const notified: ShellNotification[] = [];
    let previous: StationState | undefined;
    const unsubscribe = station.window.feed.subscribe((state) => {
      notified.push(...notificationsBetween(previous, state));
      previous = state;
    });
    try {
      const { docId, clientId, start } = await startDeskSignature(events, 'contract.pdf');

      const signed = helperSignature(docId, start.body.hexDigest);
      const firstPin = (await events.next(pendingOf('pin'))).prompts.find((prompt) => prompt.kind === 'pin')!;
      // The token is busy waiting for this PIN: the window's reads answer anyway, with the token as last seen.
      const overview = await call<{ tokens: unknown[] }>('/admin/api/overview');
      expect(overview.status).toBe(200);
      expect(overview.body.tokens).toHaveLength(1);
      expect((await call<PendingPrompt[]>('/admin/api/prompts')).body.map((prompt) => prompt.id)).toEqual([firstPin.id]);

      await call('/admin/api/prompts/' + firstPin.id, { kind: 'pin', pin: '9999' });
      const again = (await events.next((next) => next.prompts.some((prompt) => prompt.kind === 'pin' && prompt.id !== firstPin.id))).prompts.find((prompt) => prompt.kind === 'pin')!;
      expect(again.kind === 'pin' && again.request.previousAttemptFailed).toBe(true);
      await call('/admin/api/prompts/' + again.id, { kind: 'pin', pin: '1234' });
      const signature = await signed;
      expect(signature.status).toBe(200);

      const completed = await call('/api/signatures/certeurope-usb-token-signature/complete', { client_id: clientId, doc_id: docId, token: start.body.token, signature_value: signature.body.signatures![0] }, { origin: ui.origin });
      expect(completed.status).toBe(200);
      const saved = await call<DeskSavedFile>(`/admin/api/desk/sessions/${docId}/save`, {});
      expect(saved.body.fileName).toMatch(/^contract\.signed( \(\d+\))?\.pdf$/);
      // Saved again: the name is taken, so the copy is numbered, never written over the first.
      const again2 = await call<DeskSavedFile>(`/admin/api/desk/sessions/${docId}/save`, {});
      expect(again2.body.fileName).toMatch(/^contract\.signed \(\d+\)\.pdf$/);
      expect(again2.body.path).not.toBe(saved.body.path);
      const nss = await createNssDb(join(scratch, 'nss'), softhsm.ca.pem);
      const report = await pdfsig(nss, saved.body.path);
      expect(report.signatures.map((signature) => signature.valid), report.output).toEqual([true]);
      const logged = await events.next((next) => next.audit.some((entry) => entry.outcome === 'signed' && entry.clientId === clientId));
      expect(logged.audit[0]!.documentName).toBe('contract.pdf');
      // One audit log for every way of signing: this one was started by the station's own window.
      expect(logged.audit[0]).toMatchObject({ source: 'window' });
      expect(notified).toEqual([
        { title: 'Signing Station is waiting for you', body: `${ui.origin}: confirm in the window`, opensWindow: true },
        { title: 'Signing Station is waiting for you', body: expect.stringMatching(/: enter your PIN$/), opensWindow: true },
        { title: 'Signing Station is waiting for you', body: expect.stringMatching(/: enter your PIN$/), opensWindow: true },
        { title: 'Signed', body: 'contract.pdf', opensWindow: false },
      ]);
      // A shell started now hears of this signature as history: no notification for it.
      expect(notificationsBetween(undefined, await station.window.feed.state())).toEqual([]);
    } finally {
      unsubscribe();
      events.close();
    }
  });

  it('pushes the token’s low PIN tries after a wrong PIN, as the CLI shows them', async () => {
    const events = await openEvents();
    try {
      const { token, docId, start } = await startDeskSignature(events, 'tries.pdf');
      // The token may still hold the earlier test's login: log it out so this signature asks for the PIN.
      await station.tokens.find(token.id)!.release();
      const signed = helperSignature(docId, start.body.hexDigest);
      const pin = (await events.next(pendingOf('pin'))).prompts.find((prompt) => prompt.kind === 'pin')!;
      await call('/admin/api/prompts/' + pin.id, { kind: 'pin', pin: '9999' });
      const again = (await events.next((next) => next.prompts.some((prompt) => prompt.kind === 'pin' && prompt.id !== pin.id))).prompts.find((prompt) => prompt.kind === 'pin')!;
      await call('/admin/api/prompts/' + again.id, { kind: 'cancel' });
      expect((await signed).body.code).toBe('ERR_TOKEN_USER_CANCELLED');
      const low = await events.next((next) => next.tokens[0]?.pin.countLow === true);
      expect(low.tokens[0]!.pin.locked).toBe(false);
    } finally {
      events.close();
    }
  });

  it('timestamps a file with the station TSA; the token verifies with openssl against the TSA chain', async () => {
    const content = Buffer.from('minutes of the meeting\n');
    const saved = await call<DeskSavedFile>('/admin/api/desk/timestamp', { fileName: 'minutes.txt', mimeType: 'text/plain', fileContent: content.toString('base64') });
    expect(saved.status).toBe(200);
    expect(saved.body.fileName).toMatch(/^minutes\.txt( \(\d+\))?\.tsr$/);
    const root = join(scratch, 'tsa-root.pem');
    await writeFile(root, pem('CERTIFICATE', station.tsa.certificates.at(-1)!));
    const verified = await opensslTsVerify(content, await readFile(saved.body.path), root);
    expect(verified.stdout + verified.stderr).toContain('Verification: OK');
    const tampered = await opensslTsVerify(Buffer.from('other minutes\n'), await readFile(saved.body.path), root);
    expect(tampered.stdout + tampered.stderr).not.toContain('Verification: OK');
    const unknown = await call<{ code: string; errors: Record<string, string[]> }>('/admin/api/desk/timestamp', { fileName: 'minutes.txt', mimeType: 'text/plain', fileContent: content.toString('base64'), output: 'zip' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toHaveProperty(['output']);
  });

  it('gives the user’s command line a new one-time link through the control file, and nobody else', async () => {
    const control = await readUiControl(station.dataDir);
    expect(control?.baseUrl).toBe(station.baseUrl);
    const asked = await call<{ url: string }>('/admin/api/launch-link', {}, { authorization: `Station-Control ${control!.secret}` });
    expect(asked.status).toBe(200);
    expect((await uiHeaders(asked.body.url)).authorization).toMatch(/^Bearer /);
    expect((await call('/admin/api/launch-link', {}, { authorization: 'Station-Control wrong' })).status).toBe(403);
    expect((await call('/admin/api/launch-link', {}, { authorization: `Station-Control ${control!.secret}`, origin: 'https://evil.example' })).status).toBe(403);
  });
});
