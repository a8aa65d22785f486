import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from 'node:http';
import { readFile } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';

const BUILT = new URL('../../../out/client/service-browser-client.js', import.meta.url);

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that keeps the body as sent (fetch would decode it). */
function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

// The browser client is served brotli or gzip as the browser accepts, always with Vary: Accept-Encoding so that no
// cache hands one browser another's encoding.
describe('the browser client served compressed', () => {
  let station: TestStation;
  let plain: Buffer;
  const url = (): string => `${station.baseUrl}/client/service-browser-client.js`;

  beforeAll(async () => {
    station = await startTestStation();
    plain = await readFile(BUILT);
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'] });
  });
  afterAll(async () => {
    await station?.dispose();
  });

  it('answers brotli to a browser that accepts it, the same script once decoded and under a third of its size', async () => {
    const answer = await rawGet(url(), { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(answer.body).equals(plain)).toBe(true);
    expect(answer.body.length).toBeLessThan(plain.length / 3);
  });

  it('answers gzip when brotli is not accepted, and the plain file when nothing is', async () => {
    const gzip = await rawGet(url(), { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain)).toBe(true);
    const refusedBrotli = await rawGet(url(), { 'accept-encoding': 'br;q=0, gzip' });
    expect(refusedBrotli.headers['content-encoding']).toBe('gzip');
    const identity = await rawGet(url(), {});
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toBe('Accept-Encoding');
    expect(identity.body.equals(plain)).toBe(true);
  });

  it('keeps CORS for a registered origin beside the encoding, and gives each encoding its own ETag', async () => {
    const answer = await rawGet(url(), { 'accept-encoding': 'br', origin: 'https://shop.example' });
    expect(answer.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(answer.headers.vary).toBe('Origin, Accept-Encoding');
    const gzip = await rawGet(url(), { 'accept-encoding': 'gzip' });
    expect(answer.headers.etag).not.toBe(gzip.headers.etag);
    expect((await rawGet(url(), { 'accept-encoding': 'gzip', 'if-none-match': String(gzip.headers.etag) })).status).toBe(304);
  });
});
