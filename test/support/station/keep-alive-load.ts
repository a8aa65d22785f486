import { connect } from 'node:net';

export interface KeepAliveResponse {
  /** The status line and headers, latin1. */
  headers: string;
  body: Buffer;
}

/**
 * A lean HTTP/1.1 keep-alive load connection for benchmarks: one request in flight, responses framed by their
 * Content-Length. fetch would cost the load generator about as much CPU as the station spends per request, and
 * both share this machine's cores. `next` returns the next raw request, or undefined to stop; `accept` tells
 * whether a response counts as a success. Resolves with the number of successes and failures.
 */
export function keepAliveLoad(
  url: URL,
  next: () => Buffer | string | undefined,
  accept: (response: KeepAliveResponse) => boolean,
): Promise<{ count: number; failures: number }> {
  return new Promise((resolve, reject) => {
    let count = 0;
    let failures = 0;
    let pending: Buffer = Buffer.alloc(0);
    const send = (): void => {
      const message = next();
      if (message === undefined) socket.end(() => resolve({ count, failures }));
      else socket.write(message);
    };
    const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true }, send);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        const headerEnd = pending.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const headers = pending.subarray(0, headerEnd).toString('latin1');
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(headers)?.[1] ?? NaN);
        if (!Number.isFinite(length)) return reject(new Error(`response without Content-Length: ${headers}`));
        const end = headerEnd + 4 + length;
        if (pending.length < end) return;
        if (accept({ headers, body: pending.subarray(headerEnd + 4, end) })) count++;
        else failures++;
        pending = pending.subarray(end);
        send();
      }
    });
  });
}
