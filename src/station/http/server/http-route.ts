import type { StationRouteConfig } from '../route-config.js';
import type { BodyParser } from './body-parser.js';
import type { HttpReply, OnSendHook } from './http-reply.js';
import type { HttpRequest } from './http-request.js';

/** Answers a request: sends through `reply`, or returns what to send (a string, bytes, a stream or JSON). */
export type RouteHandler<Params extends string = string> = (request: HttpRequest<Params>, reply: HttpReply) => unknown;

/** The parameter names of a route path: `/identity/:client_id/:method/start` gives `'client_id' | 'method'`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : Path extends `${string}*`
      ? '*'
      : never;

/** A step before the handler; it refuses by throwing (the error handler answers) or answers itself through `reply`. */
export type RequestHook<Params extends string = string> = (request: HttpRequest<Params>, reply: HttpReply) => void | Promise<void>;

export interface RouteOptions<Params extends string = string> {
  config?: StationRouteConfig;
  /** Largest body this route reads, over its media type's and the server's default. */
  bodyLimit?: number;
  /** Runs after the scopes' onRequest hooks, before the body is read. */
  onRequest?: RequestHook<Params>;
}

/** A registered route with what its scopes give it; `steps` are gathered from the scopes at its first request. */
export interface HttpRoute {
  readonly method: string;
  readonly url: string;
  readonly handler: RouteHandler;
  readonly options: RouteOptions;
  readonly steps: () => RouteSteps;
}

export interface RouteSteps {
  readonly onRequest: readonly RequestHook[];
  readonly preHandler: readonly RequestHook[];
  readonly onSend: readonly OnSendHook[];
  readonly bodyParsers: ReadonlyMap<string, BodyParser>;
}
