import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTimestampReply } from '../../../src/station/tsa/timestamp-reply-reader.js';
import { closedByServer, openRequest, rawRequest, requestHead, type RawAnswer } from '../../support/http/raw-http.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';

/** The station's error code in an answer, whichever format its route uses (JSON, OAuth, or the TSA's rejection). */
function codeOf(answer: RawAnswer): string | undefined {
  if (answer.headers['content-type'] === 'application/timestamp-reply') return /\((ERR_[A-Z_]+)\)$/.exec(readTimestampReply(answer.body).statusText.join(' '))?.[1];
  const body = JSON.parse(answer.body.toString('utf8')) as { code?: string; error?: string };
  return body.code ?? `oauth ${body.error}`;
}

/**
 * Every request the headers can refuse is refused before its body is read: for each POST route the station
 * registers (from its own OpenAPI document), a request declaring a body it never sends must be answered. Were a
 * check to wait for the body, the request would hang until the test's timeout.
 */
describe('requests refused on their headers, before the body', () => {
  let station: TestStation;
  let port: number;
  let postPaths: string[];

  beforeAll(async () => {
    station = await startTestStation({ mode: 'sandbox' });
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'], allowedIps: ['127.0.0.1'], redirectUris: [] });
    port = Number(new URL(station.baseUrl).port);
    const openapi = (await (await fetch(`${station.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    postPaths = Object.entries(openapi.paths)
      .filter(([, methods]) => 'post' in methods)
      .map(([path]) => path.replace(/\{client_id\}/g, 'shop').replace(/\{[^}]+\}/g, 'x'));
  });
  afterAll(() => station.dispose());

  it('finds the POST routes to try', () => {
    expect(postPaths).toEqual(expect.arrayContaining(['/api/signatures/prepare-files-for-signing', '/api/timestamp/shop', '/admin/api/session']));
    expect(postPaths.length).toBeGreaterThan(20);
  });

  for (const [what, headers, code] of [
    ['a foreign Origin', (host: string) => ({ host, origin: 'https://evil.example' }), 'ERR_HTTP_ORIGIN_FORBIDDEN'],
    ['a wrong Host', () => ({ host: 'evil.example' }), 'ERR_HTTP_HOST_FORBIDDEN'],
  ] as const) {
    it(`answers every POST route with ${what} and a declared body never sent (small and 60 MB), and closes the connection`, async () => {
      for (const path of postPaths) {
        for (const length of [1000, 60_000_000]) {
          const head = requestHead('POST', path, { ...headers(`127.0.0.1:${port}`), 'content-type': 'application/json', 'content-length': length });
          const answer = await rawRequest(port, head);
          const said = codeOf(answer);
          expect({ path, length, status: answer.status, code: said === 'oauth access_denied' ? code : said }).toEqual({ path, length, status: 403, code });
          expect(answer.headers.connection).toBe('close');
          await closedByServer(answer.socket);
        }
      }
    });
  }

  it('refuses a 64 MiB no-cors text/plain POST to prepare-files-for-signing from a web page without reading it', async () => {
    const size = 64 * 1024 * 1024;
    const head = requestHead('POST', '/api/signatures/prepare-files-for-signing', {
      host: `127.0.0.1:${port}`,
      origin: 'https://evil.example',
      'content-type': 'text/plain;charset=UTF-8',
      'content-length': size,
    });
    const { socket, answer } = openRequest(port, head, Buffer.alloc(64 * 1024, 'a'));
    const refused = await answer;
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('ERR_HTTP_ORIGIN_FORBIDDEN');
    // The rest of the body is not waited for: the station closes the connection after its answer.
    await closedByServer(socket);
    expect(socket.bytesWritten).toBeLessThan(size / 16);
  });
});
