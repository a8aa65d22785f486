import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { StationError } from '../../../core/errors/station-error.js';
import { DEFAULT_BODY_PARSERS } from './body-parser.js';
import { HttpReply } from './http-reply.js';
import { HttpRequest } from './http-request.js';
import type { HttpRoute, RouteHandler } from './http-route.js';
import { HttpScope, type ScopeOwner } from './http-scope.js';
import { readRequestBody } from './read-request-body.js';
import { RouteTable } from './route-table.js';

export type ErrorHandler = (error: unknown, request: HttpRequest, reply: HttpReply) => unknown;

export interface HttpAppOptions {
  logger: Logger;
  /** Largest request body a route reads unless it or its media type's parser says otherwise. */
  bodyLimit: number;
}

/** Idle keep-alive connections stay open this long: past a browser's pause between calls and a load balancer's 60 s. */
const KEEP_ALIVE_MS = 72_000;

/**
 * The station's HTTP server: node:http with a route table and the scope model of http-scope.ts.
 *
 * Written here rather than run on Fastify, which the station used until issue 12: Fastify builds a context, hook
 * lists and compiled router nodes for every route at start. Replacing it took serve's start from 187 to 145 ms and
 * its RSS 2 s after start from 74 to 68 MB (A/B, 21 starts each, code cache on); 160 empty routes with four hooks
 * cost Fastify 60 ms and 16 MB over node:http. A bundled Fastify hello world already holds 52 MB, against the
 * station's 60 MB target. What the station used of it (routes with parameters, scoped hooks and body parsers, one
 * error handler, reply helpers) is this folder, with the same semantics where the tests pin them.
 *
 * Each request: route lookup, the onRequest hooks (outer scope first, then the route's own), the body read and
 * parsed by its media type's parser (415 without one, 413 past the limit), the preHandler hooks, the handler; its
 * return value is sent unless it answered itself. Anything thrown goes to the one error handler. The onSend hooks
 * run as any answer, errors included, is written. A request without a route gets the not-found handler, after the
 * root scope's hooks (the Host guard answers first).
 */
export class HttpApp extends HttpScope {
  readonly server: Server;
  readonly #logger: Logger;
  readonly #bodyLimit: number;
  readonly #table = new RouteTable<HttpRoute>();
  readonly #routes: HttpRoute[] = [];
  readonly #preClose: (() => Promise<void>)[] = [];
  #errorHandler: ErrorHandler = (error) => {
    throw error;
  };
  #notFound: HttpRoute;
  #requests = 0;
  #closing: Promise<void> | undefined;

  constructor(options: HttpAppOptions) {
    const owner: ScopeOwner = {
      addRoute: (route) => {
        this.#table.add(route.method, route.url, route);
        this.#routes.push(route);
      },
      addPreClose: (hook) => this.#preClose.push(hook),
    };
    super(owner, undefined, '', DEFAULT_BODY_PARSERS);
    this.#logger = options.logger;
    this.#bodyLimit = options.bodyLimit;
    this.#notFound = this.makeRoute('*', '*', {}, () => {
      throw new StationError('ERR_HTTP_NOT_FOUND', 'No such endpoint.', { status: 404 });
    });
    this.server = createServer((request, response) => this.#handle(request, response));
    this.server.keepAliveTimeout = KEEP_ALIVE_MS;
  }

  get log(): Logger {
    return this.#logger;
  }

  /** Every route registered, as declared (HEAD is answered by the GET routes and not listed). */
  routes(): readonly { method: string; url: string }[] {
    return this.#routes;
  }

  setErrorHandler(handler: ErrorHandler): void {
    this.#errorHandler = handler;
  }

  setNotFoundHandler(handler: RouteHandler): void {
    this.#notFound = this.makeRoute('*', '*', {}, handler);
  }

  async listen({ host, port }: { host: string; port: number }): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address();
    this.#logger.info(`Server listening at http://${host}:${typeof address === 'object' && address ? address.port : port}`);
  }

  /** Runs the preClose hooks, then closes the server and every connection; requests meanwhile get 503. */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      for (const hook of this.#preClose) await hook();
      if (!this.server.listening) return;
      await new Promise<void>((resolve) => {
        this.server.close(() => resolve());
        this.server.closeAllConnections();
      });
    })());
  }

  #handle(raw: IncomingMessage, response: ServerResponse): void {
    const request = new HttpRequest(raw, `req-${++this.#requests}`, this.#logger);
    let route = this.#notFound;
    let failure: unknown;
    try {
      const match = this.#table.find(request.method, request.path);
      if (match) {
        route = match.value;
        request.params = match.params;
        request.routeConfig = route.options.config ?? {};
      }
    } catch (error) {
      failure = error;
    }
    const reply = new HttpReply(response, request, route.steps().onSend);
    if (this.#logger.isLevelEnabled('debug')) this.#logRequestLines(request, reply);
    if (this.#closing) {
      reply.header('connection', 'close');
      failure ??= new StationError('ERR_SERVER_CLOSING', 'The station is shutting down.', { status: 503, retriable: true });
    }
    (failure === undefined ? this.#run(route, request, reply) : Promise.reject(failure)).catch((error: unknown) => this.#fail(error, request, reply));
  }

  async #run(route: HttpRoute, request: HttpRequest, reply: HttpReply): Promise<void> {
    const steps = route.steps();
    // A hook that decides at once returns nothing: awaited only when it returned a promise (one turn less each).
    for (const hook of steps.onRequest) {
      const pending = hook(request, reply);
      if (pending) await pending;
      if (reply.sent) return;
    }
    if (route.options.onRequest) {
      await route.options.onRequest(request, reply);
      if (reply.sent) return;
    }
    if (route !== this.#notFound && hasBody(request)) request.body = await this.#readBody(route, request);
    for (const hook of steps.preHandler) {
      const pending = hook(request, reply);
      if (pending) await pending;
      if (reply.sent) return;
    }
    const result: unknown = await route.handler(request, reply);
    if (reply.sent) return;
    if (result === undefined) throw new TypeError(`${route.method} ${route.url} neither answered nor returned an answer`);
    reply.send(result);
  }

  async #readBody(route: HttpRoute, request: HttpRequest): Promise<unknown> {
    const mediaType = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    const parsers = route.steps().bodyParsers;
    const parser = parsers.get(mediaType) ?? parsers.get('*');
    if (!parser) throw new StationError('ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', 'This endpoint does not accept that Content-Type.', { status: 415 });
    if (parser.streamed) return undefined;
    const body = await readRequestBody(request.raw, route.options.bodyLimit ?? parser.limit ?? this.#bodyLimit);
    return parser.parse ? parser.parse(body) : body;
  }

  #fail(error: unknown, request: HttpRequest, reply: HttpReply): void {
    if (reply.sent) {
      request.log.error({ err: error }, 'request failed after its answer started');
      if (!reply.raw.writableEnded) reply.raw.destroy();
      return;
    }
    try {
      const answered = this.#errorHandler(error, request, reply);
      if (answered instanceof Promise) answered.catch((secondary: unknown) => this.#lastResort(secondary, request, reply));
    } catch (secondary) {
      this.#lastResort(secondary, request, reply);
    }
  }

  /** The error handler itself failed: a bare 500, never the error's text. */
  #lastResort(error: unknown, request: HttpRequest, reply: HttpReply): void {
    request.log.error({ err: error }, 'the error handler failed');
    if (reply.raw.headersSent) reply.raw.destroy();
    else reply.raw.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Internal error');
  }

  #logRequestLines(request: HttpRequest, reply: HttpReply): void {
    const started = performance.now();
    request.log.debug({ req: request }, 'incoming request');
    reply.raw.once('finish', () => request.log.debug({ res: reply.raw, responseTime: performance.now() - started }, 'request completed'));
  }
}

/** Whether the request carries a body to parse: one with a Content-Type, or any bytes (then it needs one). */
function hasBody(request: HttpRequest): boolean {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD') return false;
  const headers = request.headers;
  if (headers['content-type'] !== undefined) return true;
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}
