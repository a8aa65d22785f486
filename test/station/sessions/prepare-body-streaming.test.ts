import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';

const SECRET = 'shop-api-secret-0123456789';

/** A prepare POST whose body is written piece by piece by the test; `answer` settles when the station answers. */
function openPrepare(station: TestStation): { req: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  const req = request(new URL('/api/signatures/prepare-files-for-signing', station.baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' } });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (response: IncomingMessage) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  return { req, answer };
}

const head = (secret: string): string => `{"client_id":"shop","secret":"${secret}","container_type":"asice","files":[{"fileName":"data.bin","mimeType":"application/octet-stream","fileContent":"`;

describe('prepare-files-for-signing reads its body as a stream', () => {
  let station: TestStation;
  const uploads = (): Promise<string[]> => readdir(join(station.dataDir, 'uploads')).catch(() => []);

  beforeAll(async () => {
    station = await startTestStation();
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'] }, Buffer.from(SECRET));
  });
  afterAll(() => station.dispose());

  it('answers a wrong secret sent first with 401 before the rest of the body has been sent', async () => {
    const { req, answer } = openPrepare(station);
    req.write(head('a-wrong-secret-0123456789'));
    req.write('A'.repeat(64 * 1024));
    // The request is still open: only an answer decided from the bytes so far can arrive.
    const { status, body } = await answer;
    expect(status).toBe(401);
    expect(JSON.parse(body)).toMatchObject({ code: 'ERR_CLIENT_AUTH_FAILED' });
    expect(req.writableEnded).toBe(false);
    req.destroy();
    expect(await uploads()).toEqual([]);
  });

  it('decodes a document into a 0600 file while it arrives, in chunks cut anywhere, and removes the file once stored', async () => {
    const document = randomBytes(3 * 1024 * 1024 + 1);
    const base64 = document.toString('base64');
    const { req, answer } = openPrepare(station);
    req.write(head(SECRET));
    req.write(base64.slice(0, 1_000_003));
    await vi.waitFor(async () => expect(await uploads()).toHaveLength(1), { timeout: 10_000 });
    const [staged] = await uploads();
    expect((await stat(join(station.dataDir, 'uploads', staged!))).mode & 0o777).toBe(0o600);
    // On disk while the body is still open: the decoded bytes are not gathered in memory until its end.
    await vi.waitFor(async () => expect((await stat(join(station.dataDir, 'uploads', staged!))).size).toBeGreaterThan(0), { timeout: 10_000 });
    for (let at = 1_000_003; at < base64.length; at += 4097) req.write(base64.slice(at, at + 4097));
    req.end('"}]}');
    const { status, body } = await answer;
    expect(status).toBe(200);
    const session = await station.data.sessions.get('shop', (JSON.parse(body) as { doc_id: string }).doc_id);
    expect(session.files[0]).toMatchObject({ size: document.length, sha256: createHash('sha256').update(document).digest('hex') });
    expect(await uploads()).toEqual([]);
  });

  it('checks credentials that come after the documents at the end, and removes what it decoded', async () => {
    const { req, answer } = openPrepare(station);
    req.end(`{"container_type":"asice","files":[{"fileName":"a.bin","mimeType":"application/octet-stream","fileContent":"${randomBytes(300_000).toString('base64')}"}],"client_id":"shop","secret":"a-wrong-secret-0123456789"}`);
    expect((await answer).status).toBe(401);
    expect(await uploads()).toEqual([]);
  });

  it('removes the partly decoded document when the client goes away mid-body', async () => {
    const { req, answer } = openPrepare(station);
    answer.catch(() => undefined);
    req.write(head(SECRET));
    req.write(randomBytes(600_000).toString('base64'));
    await vi.waitFor(async () => expect(await uploads()).toHaveLength(1), { timeout: 10_000 });
    req.destroy();
    await vi.waitFor(async () => expect(await uploads()).toEqual([]), { timeout: 10_000 });
  });

  it('counts a body of undeclared length as it arrives: past the route limit it is refused with 413 and its document removed', async () => {
    const { req, answer } = openPrepare(station);
    answer.catch(() => undefined);
    req.write(head(SECRET));
    const chunk = 'A'.repeat(1024 * 1024);
    // Chunked (no Content-Length): nothing in the head tells its size. Written until the station answers.
    let answered = false;
    void answer.finally(() => (answered = true));
    for (let i = 0; i < 80 && !answered; i++) {
      if (!req.write(chunk)) await Promise.race([new Promise((resolve) => req.once('drain', resolve)), answer]);
    }
    const { status, body } = await answer;
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ code: 'ERR_HTTP_BODY_TOO_LARGE' });
    req.destroy();
    await vi.waitFor(async () => expect(await uploads()).toEqual([]), { timeout: 10_000 });
  }, 60_000);

  it('refuses a repeated key, so a credential checked first cannot be replaced by a later one', async () => {
    const { req, answer } = openPrepare(station);
    req.end(`{"client_id":"shop","secret":"${SECRET}","secret":"other","container_type":"asice","files":[{"fileName":"a.bin","mimeType":"a/b","fileContent":"QQ=="}]}`);
    const { status, body } = await answer;
    expect(status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ code: 'ERR_INPUT_INVALID' });
  });

  it('reports content that is not base64 with the other bad fields, and stores nothing', async () => {
    const { req, answer } = openPrepare(station);
    const good = `{"fileName":"../a","mimeType":"a/b","fileContent":"${randomBytes(100_000).toString('base64')}"}`;
    const notBase64 = `{"fileName":"b","mimeType":"a/b","fileContent":"QQ==${'Q'.repeat(70_000)}*"}`;
    req.end(`{"client_id":"shop","secret":"${SECRET}","container_type":"asice","files":[${good},${notBase64}]}`);
    const { status, body } = await answer;
    expect(status).toBe(400);
    expect(Object.keys((JSON.parse(body) as { errors: object }).errors)).toEqual(expect.arrayContaining(['files.0.fileName', 'files.1.fileContent']));
    expect(await uploads()).toEqual([]);
  });
});
