import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { minimalPdf } from '../../support/signing/signing-test-pdfs.js';

const SECRET = 'shop-api-secret-0123456789';
const ORIGIN = 'https://shop.example';

// Remote signing takes the signer's addresses from the prepared document when start-signing has none (the published
// client sends no address for OTP): a real station, its sandbox simulators and outbox.
describe('start-signing falls back to the prepared document’s signer', () => {
  let station: TestStation;

  const prepare = async (signer?: Record<string, string>): Promise<string> => {
    const response = await fetch(`${station.baseUrl}/api/signatures/prepare-files-for-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'shop',
        secret: SECRET,
        container_type: 'pdf',
        files: [{ fileName: 'contract.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }],
        ...(signer ? { signer } : {}),
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { doc_id: string }).doc_id;
  };
  const startSigning = async (docId: string, fields: Record<string, string>) => {
    const response = await fetch(`${station.baseUrl}/api/signatures/start-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ client_id: 'shop', doc_id: docId, ...fields }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const outboxTo = async (docId: string): Promise<string | undefined> => {
    const { messages } = (await (await fetch(`${station.baseUrl}/sandbox/outbox.json`)).json()) as { messages: Array<{ to: string; text: string }> };
    return messages.find((message) => message.text.includes(docId))?.to;
  };

  beforeAll(async () => {
    station = await startTestStation({});
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [ORIGIN] }, Buffer.from(SECRET));
  });
  afterAll(async () => {
    await station?.dispose();
  });

  it('OTP: start-signing without an address sends the code to the e-mail address given at prepare', async () => {
    const docId = await prepare({ email: 'signer@example.com' });
    expect(await startSigning(docId, { sign_type: 'otp-email-non-qualified' })).toMatchObject({ status: 200, body: { sent_to: 'email' } });
    expect(await outboxTo(docId)).toBe('signer@example.com');
  });

  it('OTP: an address in start-signing is used instead of the prepared one; without either, a clear 400', async () => {
    const docId = await prepare({ email: 'signer@example.com' });
    expect(await startSigning(docId, { sign_type: 'otp-email-non-qualified', phone: '+37255000001' })).toMatchObject({ status: 200, body: { sent_to: 'sms' } });
    expect(await outboxTo(docId)).toBe('+37255000001');
    const bare = await prepare();
    expect(await startSigning(bare, { sign_type: 'otp-email-non-qualified' })).toMatchObject({ status: 400, body: { code: 'ERR_INPUT_INVALID' } });
  });

  it('Mobile-ID: the sandbox account named at prepare (60001019906 / +37200000766) starts without idcode and phone', async () => {
    const docId = await prepare({ idcode: '60001019906', phone: '+37200000766' });
    expect(await startSigning(docId, { sign_type: 'mobile-id' })).toMatchObject({ status: 200, body: { challenge: expect.stringMatching(/^\d{4}$/) } });
  });

  it('refuses a prepared signer that is not an address before storing anything', async () => {
    const response = await fetch(`${station.baseUrl}/api/signatures/prepare-files-for-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName: 'a.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }], signer: { phone: '5550001' } }),
    });
    expect(response.status).toBe(400);
  });
});
