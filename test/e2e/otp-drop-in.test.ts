import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClientTestbed, type ClientTestbed } from '../support/browser/client-integrator.js';
import { downloadSigned } from '../support/signing/signing-session-client.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, pdfsig } from '../support/signing/signing-validators.js';

const SECRET = 'shop-api-secret-0123456789';
const SIGNER = 'signer@example.com';

// The published client 2.140.0's own OTP flow, unchanged, in Chromium against the station: its start-signing names
// no address, so the station sends the code to the signer the integrator's server gave at prepare. The person reads
// the code from the station's sandbox outbox and types it into the page's confirmationCodeRequest.
describe('drop-in: the published client’s otpSignature signs through the station', () => {
  let testbed: ClientTestbed;
  let dir: string;

  const prepare = async (signer?: { email: string }): Promise<string> => {
    const response = await fetch(`${testbed.station.baseUrl}/api/signatures/prepare-files-for-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName: 'contract.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }], ...(signer ? { signer } : {}) }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { doc_id: string }).doc_id;
  };

  /** Runs otpSignature of the published client with only its settings; the code comes from `window.otpCode(docId)`. */
  const otpSignature = (docId: string) =>
    testbed.page.evaluate(
      ({ docId, base }) =>
        new Promise<{ calls: string[]; started?: unknown; error?: { message: string; userMessage?: string } }>((resolve) => {
          type Module = { start(options: object): unknown };
          const global = window as unknown as { eidEasyBrowserClient: { createClient(settings: object): { signature: Record<string, Module> } }; otpCode(docId: string): Promise<string> };
          const outcome: { calls: string[]; started?: unknown; error?: { message: string; userMessage?: string } } = { calls: [] };
          global.eidEasyBrowserClient.createClient({ clientId: 'shop', docId, countryCode: 'EE', sandbox: true, apiEndpoints: { base: () => base } }).signature.otpSignature!.start({
            started: (result: unknown) => {
              outcome.calls.push('started');
              outcome.started = result;
            },
            confirmationCodeRequest: (_result: unknown, answer: (tokens: { emailToken: string }) => void) => {
              outcome.calls.push('confirmationCodeRequest');
              void global.otpCode(docId).then((code) => answer({ emailToken: code }));
            },
            success: () => outcome.calls.push('success'),
            fail: (error: { message: string; userMessage?: string }) => {
              outcome.calls.push('fail');
              outcome.error = { message: String(error?.message), ...(error?.userMessage ? { userMessage: error.userMessage } : {}) };
            },
            finished: () => {
              outcome.calls.push('finished');
              resolve(outcome);
            },
          });
        }),
      { docId, base: testbed.station.baseUrl },
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'otp-drop-in-'));
    testbed = await startClientTestbed({ secret: SECRET });
    // The person reading the code the station "sent" for this document, and to whom it went.
    await testbed.page.exposeFunction('otpCode', async (docId: string) => {
      const { messages } = (await (await fetch(`${testbed.station.baseUrl}/sandbox/outbox.json`)).json()) as { messages: Array<{ to: string; text: string }> };
      const message = messages.find((candidate) => candidate.text.includes(docId));
      expect(message?.to).toBe(SIGNER);
      return /\b(\d{6})\b/.exec(message!.text)![1]!;
    });
  });
  afterAll(async () => {
    await testbed?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('start-signing without an address sends the code to the prepared signer; the typed code signs; pdfsig accepts the PDF', async () => {
    const docId = await prepare({ email: SIGNER });
    const outcome = await otpSignature(docId);
    expect(outcome.calls, JSON.stringify(outcome)).toEqual(['started', 'confirmationCodeRequest', 'success', 'finished']);
    expect(outcome.started).toMatchObject({ data: { sent_to: 'email' } });
    const { file, body } = await downloadSigned({ baseUrl: testbed.station.baseUrl, clientId: 'shop', secret: SECRET }, docId);
    expect(body).toMatchObject({ status: 'OK', signing_method: 'otp-email-non-qualified', signer_lastname: SIGNER });
    await writeFile(join(dir, 'otp.pdf'), file);
    const testCa = await (await fetch(`${testbed.station.baseUrl}/sandbox/test-ca.pem`)).text();
    const report = await pdfsig(await createNssDb(join(dir, 'nss'), testCa), join(dir, 'otp.pdf'));
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
  });

  it('a document prepared without a signer fails at start with the station’s reason, before any code is sent', async () => {
    const docId = await prepare();
    const outcome = await otpSignature(docId);
    expect(outcome.calls).toEqual(['fail', 'finished']);
    expect(outcome.error).toMatchObject({ userMessage: 'A one-time password needs an e-mail address or a phone number.' });
    const { messages } = (await (await fetch(`${testbed.station.baseUrl}/sandbox/outbox.json`)).json()) as { messages: Array<{ text: string }> };
    expect(messages.some((message) => message.text.includes(docId))).toBe(false);
  });
});
