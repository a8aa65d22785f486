import type { BodyParser } from './body-parser.js';
import type { OnSendHook } from './http-reply.js';
import type { HttpRoute, PathParams, RequestHook, RouteHandler, RouteOptions, RouteSteps } from './http-route.js';

/** Registers a part of the station's HTTP interface in a scope of its own (its prefix, hooks and body parsers). */
export type HttpPlugin = (scope: HttpScope) => void | Promise<void>;

type RouteArguments<Path extends string> = [RouteHandler<PathParams<Path>>] | [RouteOptions<PathParams<Path>>, RouteHandler<PathParams<Path>>];

/** Where a scope's routes and close hooks go: the server. */
export interface ScopeOwner {
  addRoute(route: HttpRoute): void;
  addPreClose(hook: () => Promise<void>): void;
}

interface ScopeHooks {
  onRequest: RequestHook[];
  preHandler: RequestHook[];
  onSend: OnSendHook[];
}

/**
 * A group of routes under a path prefix: the hooks added to a scope apply to its routes and to those of the scopes
 * registered inside it (outer hooks first), and its body parsers start as a copy of its parent's. This is the part
 * of Fastify's plugin model the station used; see http-app.ts for why the station no longer runs on Fastify.
 */
export class HttpScope {
  readonly prefix: string;
  readonly #owner: ScopeOwner;
  readonly #parent: HttpScope | undefined;
  readonly #hooks: ScopeHooks = { onRequest: [], preHandler: [], onSend: [] };
  readonly #bodyParsers: Map<string, BodyParser>;

  constructor(owner: ScopeOwner, parent: HttpScope | undefined, prefix: string, bodyParsers: ReadonlyMap<string, BodyParser>) {
    this.#owner = owner;
    this.#parent = parent;
    this.prefix = prefix;
    this.#bodyParsers = new Map(bodyParsers);
  }

  get<Path extends string>(path: Path, ...rest: RouteArguments<Path>): void {
    this.route('GET', path, ...rest);
  }

  post<Path extends string>(path: Path, ...rest: RouteArguments<Path>): void {
    this.route('POST', path, ...rest);
  }

  delete<Path extends string>(path: Path, ...rest: RouteArguments<Path>): void {
    this.route('DELETE', path, ...rest);
  }

  options<Path extends string>(path: Path, ...rest: RouteArguments<Path>): void {
    this.route('OPTIONS', path, ...rest);
  }

  route<Path extends string>(method: string, path: Path, ...rest: RouteArguments<Path>): void {
    const [options, handler] = rest.length === 1 ? [{}, rest[0]] : rest;
    // The table calls a handler only with the parameters of its own path.
    this.#owner.addRoute(this.makeRoute(method, path === '*' ? '*' : this.prefix + path, options as RouteOptions, handler as RouteHandler));
  }

  /** A route of this scope, not yet in any table. */
  protected makeRoute(method: string, url: string, options: RouteOptions, handler: RouteHandler): HttpRoute {
    let steps: RouteSteps | undefined;
    return { method, url, handler, options, steps: () => (steps ??= this.#steps()) };
  }

  async register(plugin: HttpPlugin, { prefix = '' }: { prefix?: string } = {}): Promise<void> {
    await plugin(new HttpScope(this.#owner, this, this.prefix + prefix, this.#bodyParsers));
  }

  addHook(name: 'onRequest' | 'preHandler', hook: RequestHook): void;
  addHook(name: 'onSend', hook: OnSendHook): void;
  addHook(name: 'preClose', hook: () => Promise<void>): void;
  addHook(name: keyof ScopeHooks | 'preClose', hook: RequestHook | OnSendHook | (() => Promise<void>)): void {
    if (name === 'preClose') this.#owner.addPreClose(hook as () => Promise<void>);
    else (this.#hooks[name] as unknown[]).push(hook);
  }

  /** Reads bodies of these media types (`*`: any other) with `parser` in this scope and the scopes inside it. */
  addBodyParser(mediaTypes: string | readonly string[], parser: BodyParser): void {
    for (const mediaType of [mediaTypes].flat()) this.#bodyParsers.set(mediaType, parser);
  }

  /** This scope reads no media type until it adds its own: anything else is refused with 415. */
  removeAllBodyParsers(): void {
    this.#bodyParsers.clear();
  }

  #steps(): RouteSteps {
    const chain: HttpScope[] = [];
    for (let scope: HttpScope | undefined = this; scope; scope = scope.#parent) chain.unshift(scope);
    return {
      onRequest: chain.flatMap((scope) => scope.#hooks.onRequest),
      preHandler: chain.flatMap((scope) => scope.#hooks.preHandler),
      onSend: chain.flatMap((scope) => scope.#hooks.onSend),
      bodyParsers: this.#bodyParsers,
    };
  }
}
