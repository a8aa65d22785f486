import type { IncomingMessage } from 'node:http';
import { StationError } from '../../../core/errors/station-error.js';

const tooLarge = (): StationError => new StationError('ERR_HTTP_BODY_TOO_LARGE', 'The request body is larger than this endpoint accepts.', { status: 413 });

/**
 * The whole request body, refused with 413 as soon as it is known to exceed `limit` (from Content-Length before a
 * byte is read, else while reading), and with 400 when it is not as long as its Content-Length said.
 */
export function readRequestBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
  if (declared !== undefined && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        stop();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      if (declared !== undefined && received !== declared) {
        reject(new StationError('ERR_HTTP_BAD_REQUEST', 'The Content-Length does not match the body.', { status: 400 }));
        return;
      }
      resolve(Buffer.concat(chunks, received)); // a copy: a chunk may be a view over the socket's read buffer
    };
    const onError = (cause: Error): void => {
      stop();
      reject(new StationError('ERR_HTTP_BAD_REQUEST', 'The request body could not be read.', { status: 400, cause }));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}
