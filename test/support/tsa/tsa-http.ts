// Raw HTTP for the TSA route tests: the test picks the source address (127.0.0.x, ::1) and every header.
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function postRaw(
  url: string,
  body: Uint8Array | undefined,
  options: { headers?: Record<string, string>; localAddress?: string; method?: string } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        path: target.pathname,
        method: options.method ?? 'POST',
        localAddress: options.localAddress,
        headers: { host: target.host, ...(body ? { 'content-length': String(body.length) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
