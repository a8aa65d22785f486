import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrivateKey } from 'node:crypto';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { ScriptedPrompt } from '../../support/station/scripted-prompt.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { minimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { HOSTILE_PDFS } from '../../support/signing/hostile-pdf.js';
import { createNssDb, pdfsig, embeddedSignatures, cmsParts, opensslTsVerify, xmlsecVerify } from '../../support/signing/signing-validators.js';
import { extractZip } from '../../support/signing/signing-zip-extract.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';

const SECRET = 'shop-api-secret-0123456789';
const REASON = 'I approve this contract';
const ORIGIN = 'https://shop.example';
const pem = (der: Uint8Array): string => new x509.X509Certificate(Uint8Array.from(der)).toString('pem');

describe('hash-based signing over HTTP: prepare, reason, start-signing, complete, download', () => {
  let station: TestStation;
  let dir: string;
  let ca: TestCa;
  let signer: Awaited<ReturnType<typeof createTestSigner>>;
  let signerRootPem: string;
  let tsaRootPem: string;
  const prompt = new ScriptedPrompt();

  const post = async (path: string, body: unknown, origin?: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${station.baseUrl}/api/signatures${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const prepare = async (containerType: 'pdf' | 'asice', files: Array<{ fileName: string; mimeType: string; content: Buffer }>, reason = true): Promise<string> => {
    const result = await post('/prepare-files-for-signing', {
      client_id: 'shop',
      secret: SECRET,
      container_type: containerType,
      files: files.map((file) => ({ fileName: file.fileName, mimeType: file.mimeType, fileContent: file.content.toString('base64') })),
      ...(reason ? { signing_reason: REASON, require_signing_reason: true } : {}),
    });
    expect(result.status).toBe(200);
    return result.body.doc_id as string;
  };

  const signFlow = async (docId: string): Promise<{ start: Record<string, unknown>; complete: { status: number; body: Record<string, unknown> } }> => {
    const start = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64'), country: 'EE', lang: 'en' }, ORIGIN);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const signature = await softKeySigner(createPrivateKey({ key: Buffer.from(signer.pkcs8), format: 'der', type: 'pkcs8' }))(Buffer.from(start.body.hexDigest as string, 'hex'), 'SHA-256');
    const complete = await post('/id-signature/complete', { client_id: 'shop', doc_id: docId, token: start.body.token, signature_value: Buffer.from(signature).toString('base64'), lang: 'en', timeout: 2 }, ORIGIN);
    return { start: start.body, complete };
  };

  const download = async (docId: string): Promise<Buffer> => {
    const result = await post('/download-signed-file', { client_id: 'shop', secret: SECRET, doc_id: docId });
    expect(result.status).toBe(200);
    return Buffer.from(result.body.signed_file_contents as string, 'base64');
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hash-signing-'));
    ca = await createTestCa();
    signer = await createTestSigner(ca, 'CN=JÕEORG\\,JAAK-KRISTJAN\\,38001085718,2.5.4.4=JÕEORG,2.5.4.42=JAAK-KRISTJAN,2.5.4.5=PNOEE-38001085718,C=EE');
    station = await startTestStation({}, { userPrompt: prompt, tokenSources: [] });
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [ORIGIN] }, Buffer.from(SECRET));
    signerRootPem = join(dir, 'signer-root.pem');
    await writeFile(signerRootPem, ca.pem);
    tsaRootPem = join(dir, 'tsa-root.pem');
    await writeFile(tsaRootPem, pem(station.tsa.certificates.at(-1)!));
  });
  afterAll(async () => {
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the baseline level from prepare-files: B-B has no timestamp, B-LT reaches the engine, unknown levels are 400', async () => {
    const prepareAt = (baseline: string) =>
      post('/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'pdf', baseline, files: [{ fileName: 'level.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }] });
    const unknown = await prepareAt('B-Z');
    expect(unknown.status).toBe(400);
    const bb = await prepareAt('B-B');
    expect(bb.status).toBe(200);
    const { complete } = await signFlow(bb.body.doc_id as string);
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    expect(cmsParts(embeddedSignatures(await download(bb.body.doc_id as string))[0]!.cms).timestampToken).toBeUndefined();
    // This signer's certificate names no issuer the station knows, so long-term data cannot be gathered: a clear refusal.
    const lt = await prepareAt('B-LT');
    const refused = await signFlow(lt.body.doc_id as string);
    expect(refused.complete.body).toMatchObject({ code: 'ERR_SIGNING_UNSUPPORTED_SIGNER', message: expect.stringContaining('B-LT') });
  });

  it('signs a PDF as PAdES B-T that pdfsig and openssl accept, with the reason and consent recorded', async () => {
    const docId = await prepare('pdf', [{ fileName: 'contract.pdf', mimeType: 'application/pdf', content: minimalPdf() }]);
    expect((await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64') }, ORIGIN)).body).toMatchObject({ code: 'ERR_REASON_NOT_ACCEPTED' });
    expect((await post('/signing-session/reason/accept', { client_id: 'shop', doc_id: docId, reason_text: REASON }, ORIGIN)).status).toBe(200);

    const { start, complete } = await signFlow(docId);
    expect(start.hexDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    expect(complete.body).toMatchObject({ status: 'OK', signer_idcode: '38001085718', signer_country: 'EE', signer_firstname: 'JAAK-KRISTJAN', signer_lastname: 'JÕEORG' });

    const consent = prompt.confirms.at(-1)!;
    expect(consent).toMatchObject({ purpose: 'sign', requester: ORIGIN, clientId: 'shop', documentName: 'contract.pdf', reason: REASON });
    expect(consent.signerSubject).toContain('PNOEE-38001085718');

    const signed = await download(docId);
    const signedPath = join(dir, 'signed.pdf');
    await writeFile(signedPath, signed);
    const nss = await createNssDb(join(dir, 'nss'), ca.pem);
    const report = await pdfsig(nss, signedPath);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({ valid: true, totalDocumentSigned: true, subFilter: 'ETSI.CAdES.detached' });
    expect(signed.toString('latin1')).toContain(`/Reason (${REASON})`);
    const [embedded] = embeddedSignatures(signed);
    const { signatureValue, timestampToken } = cmsParts(embedded!.cms);
    expect(timestampToken).toBeDefined();
    const tsVerify = await opensslTsVerify(signatureValue, timestampToken!, tsaRootPem);
    expect(tsVerify.code, tsVerify.stderr).toBe(0);

    const status = (await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).body;
    expect(status).toMatchObject({ signing_session_status: 'SIGNED', signing_session_user_status: 'SIGNED' });
    const audit = await station.data.audit.list();
    expect(audit[0]).toMatchObject({ clientId: 'shop', method: 'id-signature', outcome: 'signed', documentName: 'contract.pdf', source: 'web-page', requester: ORIGIN });
  });

  it('makes an ASiC-E container of several files that xmlsec1 verifies', async () => {
    const docId = await prepare('asice', [
      { fileName: 'a.txt', mimeType: 'text/plain', content: Buffer.from('first document\n') },
      { fileName: 'b.pdf', mimeType: 'application/pdf', content: minimalPdf('second') },
    ]);
    await post('/signing-session/reason/accept', { client_id: 'shop', doc_id: docId, reason_text: REASON });
    const { start, complete } = await signFlow(docId);
    expect(start.signedInfoDigests).toEqual([start.hexDigest]);
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    const container = join(dir, 'a.asice');
    await writeFile(container, await download(docId));
    const root = join(dir, 'asice');
    const entries = await extractZip(container, root);
    expect(entries[0]).toBe('mimetype');
    expect(entries).toEqual(expect.arrayContaining(['a.txt', 'b.pdf', 'META-INF/manifest.xml']));
    const signatures = entries.filter((entry) => /^META-INF\/signatures.*\.xml$/.test(entry));
    expect(signatures).toHaveLength(1);
    const verified = await xmlsecVerify(root, signatures[0]!, signerRootPem);
    expect(verified.code, verified.stderr).toBe(0);
  });

  it('records a declined consent and produces nothing', async () => {
    const docId = await prepare('pdf', [{ fileName: 'declined.pdf', mimeType: 'application/pdf', content: minimalPdf() }], false);
    prompt.agree = false;
    const start = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64') }, ORIGIN);
    prompt.agree = true;
    expect(start.status).toBe(409);
    expect(start.body).toMatchObject({ status: 'error', code: 'ERR_SIGNING_DECLINED' });
    expect((await station.data.audit.list())[0]).toMatchObject({ outcome: 'declined', documentName: 'declined.pdf' });
    expect((await post('/signing-session/status', { client_id: 'shop', doc_id: docId })).body.signing_session_status).toBe('OPEN');
  });

  it('logs an attempt when it starts: one never completed stays in the log as started, its outcome completes it', async () => {
    const docId = await prepare('pdf', [{ fileName: 'interrupted.pdf', mimeType: 'application/pdf', content: minimalPdf() }], false);
    const start = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64') }, ORIGIN);
    expect(start.status).toBe(200);
    const entriesOf = async (): Promise<string[]> => (await station.data.audit.list()).filter((entry) => entry.documentName === 'interrupted.pdf').map((entry) => entry.outcome);
    // The requester went away here (a closed tab, a station killed): the attempt is in the log, not completed.
    expect(await entriesOf()).toEqual(['started']);
    expect((await station.data.audit.list())[0]).toMatchObject({ outcome: 'started', source: 'web-page', requester: ORIGIN });
    const wrong = await post('/id-signature/complete', { client_id: 'shop', doc_id: docId, token: start.body.token, signature_value: Buffer.alloc(256, 7).toString('base64') }, ORIGIN);
    expect(wrong.status).toBe(400);
    expect(await entriesOf()).toEqual(['failed']);
  });

  it('refuses a wrong signature value, a replayed token, a foreign origin and an unknown method', async () => {
    const docId = await prepare('pdf', [{ fileName: 'neg.pdf', mimeType: 'application/pdf', content: minimalPdf() }], false);
    const start = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64') }, ORIGIN);
    const wrong = await post('/id-signature/complete', { client_id: 'shop', doc_id: docId, token: start.body.token, signature_value: Buffer.alloc(256, 7).toString('base64') }, ORIGIN);
    expect(wrong.status).toBe(400);
    expect((await station.data.audit.list())[0]).toMatchObject({ outcome: 'failed', documentName: 'neg.pdf' });
    const session = await station.data.sessions.get('shop', docId);
    expect(await readdir(session.directory)).toEqual(['original-0']);

    const replay = await post('/id-signature/complete', { client_id: 'shop', doc_id: docId, token: start.body.token, signature_value: 'AAAA' }, ORIGIN);
    expect(replay.body).toMatchObject({ code: 'ERR_SIGNING_NOT_STARTED' });

    const again = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64') }, ORIGIN);
    expect(await readdir(session.directory)).not.toEqual(['original-0']); // the prepared copy waits for complete
    const otherMethod = await post('/cert-store-qes-signature/complete', { client_id: 'shop', doc_id: docId, token: again.body.token, signature_value: 'AAAA' }, ORIGIN);
    expect(otherMethod.body).toMatchObject({ code: 'ERR_SIGNING_NOT_STARTED' });
    expect(await readdir(session.directory)).toEqual(['original-0']);

    const foreign = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(signer.der).toString('base64') }, 'https://evil.example');
    expect(foreign.status).toBe(403);
    const unknownMethod = await post('/smart-idx/complete', { client_id: 'shop', doc_id: docId, token: 'x', signature_value: 'AAAA' });
    expect(unknownMethod.status).toBe(400);
  });

  it('refuses file names that break a container or a disk before anything is stored or asked', async () => {
    const names: Array<['pdf' | 'asice', string[]]> = [
      ['asice', ['C:evil.txt']],
      ['asice', ['mimetype']],
      ['asice', ['META-INF']],
      ['asice', ['line\nbreak.txt']],
      ['asice', ['bell\u0007.txt']],
      ['asice', ['trailing.']],
      ['asice', ['Same.txt', 'same.TXT']],
      ['pdf', ['tab\tname.pdf']],
    ];
    const consentsBefore = prompt.confirms.length;
    for (const [containerType, fileNames] of names) {
      const result = await post('/prepare-files-for-signing', {
        client_id: 'shop',
        secret: SECRET,
        container_type: containerType,
        files: fileNames.map((fileName) => ({ fileName, mimeType: 'text/plain', fileContent: Buffer.from('x').toString('base64') })),
      });
      expect({ fileNames, status: result.status, code: result.body.code }).toEqual({ fileNames, status: 400, code: 'ERR_INPUT_INVALID' });
    }
    expect(prompt.confirms.length).toBe(consentsBefore);
  });

  it('reads every PDF at prepare: a hostile one is a 422 in the service’s error body, and nothing is stored or asked', async () => {
    const hostile = {
      'self-referential /Length': HOSTILE_PDFS.selfReferencingLength(),
      'cross-reference count': HOSTILE_PDFS.hugeXrefSubsection(),
      'cross-reference stream /Index': HOSTILE_PDFS.hugeXrefStreamIndex(),
      'an object of 600 000 hex strings': HOSTILE_PDFS.overfullObject(),
    };
    const documents = join(station.dataDir, 'documents');
    const storedBefore = await readdir(documents).catch(() => []);
    const consentsBefore = prompt.confirms.length;
    for (const [name, content] of Object.entries(hostile)) {
      const result = await post('/prepare-files-for-signing', {
        client_id: 'shop',
        secret: SECRET,
        container_type: 'pdf',
        files: [{ fileName: 'hostile.pdf', mimeType: 'application/pdf', fileContent: content.toString('base64') }],
      });
      expect({ name, status: result.status, body: result.body }).toMatchObject({ name, status: 422, body: { status: 'error', code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT', message: expect.stringMatching(/PDF/) } });
    }
    expect(await readdir(documents).catch(() => [])).toEqual(storedBefore);
    expect(prompt.confirms.length).toBe(consentsBefore);
  });

  it('answers a malformed signer certificate with 400 before asking for consent', async () => {
    const docId = await prepare('pdf', [{ fileName: 'bad-cert.pdf', mimeType: 'application/pdf', content: minimalPdf() }], false);
    const consentsBefore = prompt.confirms.length;
    const start = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from('not a certificate at all').toString('base64') }, ORIGIN);
    expect(start.status).toBe(400);
    expect(start.body).toMatchObject({ status: 'error', code: 'ERR_INPUT_INVALID', message: expect.stringMatching(/X\.509/) });
    expect(prompt.confirms.length).toBe(consentsBefore);
  });
});
