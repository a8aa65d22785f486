import { StationError } from '../../../core/errors/station-error.js';

export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

interface Node<T> {
  readonly staticChildren: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  /** `*` as the last segment: the rest of the path, `/` included, as the `*` parameter. */
  readonly wildcard: Map<string, T>;
  readonly values: Map<string, T>;
}

const newNode = <T>(): Node<T> => ({ staticChildren: new Map(), wildcard: new Map(), values: new Map() });

/**
 * Routes by method and path, a tree of path segments: a literal segment before a `:name` parameter before a `*`
 * rest, each tried in that order (so `/ui/app.js` is the static file's route if there is one, else `/ui/*`'s).
 * Paths match exactly: no trailing-slash or case folding. HEAD finds the GET route.
 */
export class RouteTable<T> {
  readonly #root = newNode<T>();

  add(method: string, path: string, value: T): void {
    if (!path.startsWith('/') && path !== '*') throw new TypeError(`A route path starts with "/": ${path}`);
    let node = this.#root;
    const segments = path === '*' ? ['*'] : path.slice(1).split('/');
    for (const [index, segment] of segments.entries()) {
      if (segment === '*') {
        if (index !== segments.length - 1) throw new TypeError(`"*" must end a route path: ${path}`);
        return set(node.wildcard, method, value, path);
      }
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) throw new TypeError(`Two parameter names at one place: :${node.param.name} and ${segment} (${path})`);
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let child = node.staticChildren.get(segment);
        if (!child) node.staticChildren.set(segment, (child = newNode()));
        node = child;
      }
    }
    set(node.values, method, value, path);
  }

  /** The route of a request path (no query string), with its parameters percent-decoded. */
  find(method: string, path: string): RouteMatch<T> | undefined {
    if (!path.startsWith('/')) return undefined;
    const params: Record<string, string> = {};
    const value = lookup(this.#root, path.slice(1).split('/'), 0, method === 'HEAD' ? ['HEAD', 'GET'] : [method], params);
    return value === undefined ? undefined : { value, params };
  }
}

function set<T>(values: Map<string, T>, method: string, value: T, path: string): void {
  if (values.has(method)) throw new TypeError(`Route ${method} ${path} is registered twice`);
  values.set(method, value);
}

function lookup<T>(node: Node<T>, segments: string[], index: number, methods: string[], params: Record<string, string>): T | undefined {
  if (index === segments.length) return first(node.values, methods);
  const segment = segments[index]!;
  const child = node.staticChildren.get(segment);
  const found = child && lookup(child, segments, index + 1, methods, params);
  if (found !== undefined) return found;
  if (node.param && segment !== '') {
    const value = lookup(node.param.node, segments, index + 1, methods, params);
    if (value !== undefined) {
      params[node.param.name] = decodeSegment(segment);
      return value;
    }
  }
  const rest = first(node.wildcard, methods);
  if (rest !== undefined) params['*'] = decodeSegment(segments.slice(index).join('/'));
  return rest;
}

function first<T>(values: Map<string, T>, methods: string[]): T | undefined {
  for (const method of methods) {
    const value = values.get(method);
    if (value !== undefined) return value;
  }
  return undefined;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch (cause) {
    throw new StationError('ERR_HTTP_BAD_REQUEST', 'The request path is not valid percent-encoding.', { status: 400, cause });
  }
}
