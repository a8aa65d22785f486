import type { Readable } from 'node:stream';

/**
 * Reads and drops what is left of a request body that was answered before it was read to its end, so the client
 * receives the answer and the connection stays usable; past `limitBytes` the connection is closed instead.
 */
export function drainRequestBody(body: Readable, limitBytes: number): void {
  let dropped = 0;
  body.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limitBytes) body.destroy();
  });
  body.resume();
}
