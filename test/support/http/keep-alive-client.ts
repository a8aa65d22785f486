// HTTP/1.1 keep-alive clients that tell apart the ways a connection can end while a server closes: answered
// (200), told to go (503 or `Connection: close`, then the server closes), or reset under a request in flight.
import { connect } from 'node:net';

export interface KeepAliveTally {
  /** Answers other than 503. */
  answered: number;
  /** 503 answers (the server closing). */
  unavailable: number;
  /** Connections that failed with a request in flight or before it was answered (reset, hang-up). */
  resets: string[];
}

export interface KeepAliveClients {
  tally: KeepAliveTally;
  /** Resolves when every client has ended: told to go, reset, or refused a new connection. */
  ended: Promise<void>;
}

/** `count` clients, each sending `GET path` on its own connection again as soon as the last one is answered. */
export function keepAliveClients(port: number, host: string, path: string, count: number): KeepAliveClients {
  const tally: KeepAliveTally = { answered: 0, unavailable: 0, resets: [] };
  const request = `GET ${path} HTTP/1.1\r\nhost: ${host}\r\n\r\n`;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      let pending = Buffer.alloc(0);
      let inFlight = false;
      let toldToGo = false;
      const socket = connect({ host: '127.0.0.1', port, noDelay: true }, () => send());
      const send = (): void => {
        inFlight = true;
        socket.write(request);
      };
      socket.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          const headerEnd = pending.indexOf('\r\n\r\n');
          if (headerEnd < 0) return;
          const head = pending.subarray(0, headerEnd).toString('latin1');
          const end = headerEnd + 4 + Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (pending.length < end) return;
          pending = pending.subarray(end);
          inFlight = false;
          if (head.startsWith('HTTP/1.1 503')) tally.unavailable++;
          else tally.answered++;
          if (/\r\nconnection: *close/i.test(head)) {
            toldToGo = true;
            return;
          }
          send();
        }
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (inFlight || !toldToGo) tally.resets.push(error.code ?? error.message);
        inFlight = false;
      });
      socket.on('close', () => {
        if (inFlight) tally.resets.push('closed under a request');
        resolve();
      });
    });
  return { tally, ended: Promise.all(Array.from({ length: count }, one)).then(() => undefined) };
}
