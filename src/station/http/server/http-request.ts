import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import type { Logger } from 'pino';
import type { StationRouteConfig } from '../route-config.js';

/**
 * A request as routes see it: Node's message, its route's parameters and config, the parsed body. `Params` names
 * the route path's parameters (http-route.ts, PathParams).
 */
export class HttpRequest<Params extends string = string> {
  readonly raw: IncomingMessage;
  readonly id: string;
  /** Path and query string as sent. */
  readonly url: string;
  readonly path: string;
  /** The matched route's path parameters, percent-decoded (`*` for the rest of a wildcard route). */
  params = {} as Readonly<Record<Params, string>>;
  routeConfig: Readonly<StationRouteConfig> = {};
  /** The body as its content type's parser made it; undefined when none was sent (or the route reads the stream). */
  body: unknown = undefined;
  readonly #logger: Logger;
  #log: Logger | undefined;
  #query: ParsedUrlQuery | undefined;

  constructor(raw: IncomingMessage, id: string, logger: Logger) {
    this.raw = raw;
    this.id = id;
    this.url = raw.url ?? '/';
    const queryStart = this.url.indexOf('?');
    this.path = queryStart === -1 ? this.url : this.url.slice(0, queryStart);
    this.#logger = logger;
  }

  get method(): string {
    return this.raw.method ?? 'GET';
  }

  get headers(): IncomingHttpHeaders {
    return this.raw.headers;
  }

  get socket(): Socket {
    return this.raw.socket;
  }

  /** The TCP peer's address (the station listens on loopback only and never trusts forwarding headers). */
  get ip(): string | undefined {
    return this.raw.socket.remoteAddress;
  }

  /** The query string's parameters, a repeated name as an array; parsed when first read. */
  get query(): ParsedUrlQuery {
    return (this.#query ??= parseQuery(this.url.length > this.path.length ? this.url.slice(this.path.length + 1) : ''));
  }

  /** The station's logger with this request's id; made when first used, which most requests never do. */
  get log(): Logger {
    return (this.#log ??= this.#logger.child({ reqId: this.id }));
  }
}
