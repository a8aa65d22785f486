import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { HttpRequest } from './http-request.js';

/** What a reply runs just before its head is written: the hooks of its route's scopes (security headers). */
export type OnSendHook = (request: HttpRequest, reply: HttpReply) => void;

/**
 * A response being built: status and headers are kept until `send`, which runs the route's onSend hooks, chooses
 * the content type from the payload when none was set (string: text, bytes: octet-stream, stream: piped, anything
 * else: JSON) and writes it all at once. `hijack` hands Node's response to the route (server-sent events, the
 * OIDC provider's own handler), after which nothing here touches it.
 */
export class HttpReply {
  readonly raw: ServerResponse;
  readonly #request: HttpRequest;
  readonly #onSend: readonly OnSendHook[];
  #statusCode = 200;
  readonly #headers: OutgoingHttpHeaders = Object.create(null) as OutgoingHttpHeaders;
  #sent = false;

  constructor(raw: ServerResponse, request: HttpRequest, onSend: readonly OnSendHook[]) {
    this.raw = raw;
    this.#request = request;
    this.#onSend = onSend;
  }

  /** Sent or hijacked: the route's answer is on its way, nothing more may be added. */
  get sent(): boolean {
    return this.#sent;
  }

  code(statusCode: number): this {
    this.#statusCode = statusCode;
    return this;
  }

  header(name: string, value: string | number): this {
    this.#headers[name.toLowerCase()] = value;
    return this;
  }

  headers(headers: Record<string, string | number>): this {
    for (const [name, value] of Object.entries(headers)) this.header(name, value);
    return this;
  }

  hasHeader(name: string): boolean {
    return this.#headers[name.toLowerCase()] !== undefined;
  }

  type(contentType: string): this {
    return this.header('content-type', contentType);
  }

  redirect(location: string, statusCode = 302): this {
    return this.code(statusCode).header('location', location).send();
  }

  hijack(): void {
    this.#sent = true;
  }

  send(payload?: unknown): this {
    if (this.#sent) throw new TypeError(`The reply to ${this.#request.method} ${this.#request.path} was already sent`);
    for (const hook of this.#onSend) hook(this.#request, this);
    if (payload instanceof Readable) {
      this.#sent = true;
      this.raw.writeHead(this.#statusCode, this.#headers);
      pipeline(payload, this.raw, () => undefined); // a failed file read or a gone client: the response just ends
      return this;
    }
    const bodiless = this.#statusCode === 204 || this.#statusCode === 304;
    const body = bodiless ? undefined : this.#serialize(payload);
    this.#sent = true;
    if (!bodiless) this.#headers['content-length'] = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    this.raw.writeHead(this.#statusCode, this.#headers);
    this.raw.end(body);
    return this;
  }

  #serialize(payload: unknown): string | Uint8Array | undefined {
    if (payload === undefined || payload === null) return undefined;
    if (typeof payload === 'string') return this.#typed(payload, 'text/plain; charset=utf-8');
    if (payload instanceof Uint8Array) return this.#typed(payload, 'application/octet-stream');
    return this.#typed(JSON.stringify(payload), 'application/json; charset=utf-8');
  }

  #typed<T>(body: T, contentType: string): T {
    this.#headers['content-type'] ??= contentType;
    return body;
  }
}
