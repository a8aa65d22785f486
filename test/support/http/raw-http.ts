// Raw HTTP/1.1 over a socket: the test writes the head (and as much of the body as it wants) and reads the answer,
// so it can declare a body it never sends, or forge Host and Origin.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The socket, still open or closed by the server after the answer. */
  socket: Socket;
}

/** Writes `head` (and `body` if given) and resolves with the first complete answer (framed by its Content-Length). */
export function rawRequest(port: number, head: string, body?: Buffer): Promise<RawAnswer> {
  return openRequest(port, head, body).answer;
}

/** As rawRequest, with the socket at hand at once: the caller may write more of the body later. */
export function openRequest(port: number, head: string, body?: Buffer): { socket: Socket; answer: Promise<RawAnswer> } {
  const socket = connect({ host: '127.0.0.1', port }, () => {
    socket.write(head);
    if (body) socket.write(body);
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    let pending = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const headerEnd = pending.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const [statusLine, ...lines] = pending.subarray(0, headerEnd).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const end = headerEnd + 4 + (head.startsWith('HEAD ') ? 0 : Number(headers['content-length'] ?? 0));
      if (pending.length < end) return;
      socket.removeAllListeners('data');
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: pending.subarray(headerEnd + 4, end), socket });
    });
  });
  return { socket, answer };
}

/** A request head; `declared` is a Content-Length whose body the caller may never send. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

/** Resolves once the server has closed the connection. */
export function closedByServer(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readableEnded || socket.destroyed) return resolve();
    socket.once('close', () => resolve());
    socket.resume();
  });
}
