/**
 * Route generics for Fastify handlers: `app.get<WithParams<'client_id'>>('/x/:client_id', ...)` types
 * `request.params.client_id` as a string (Fastify does not read parameter names from the path).
 */
export interface WithParams<Names extends string> {
  Params: Readonly<Record<Names, string>>;
}

/** A query string as node:querystring parses it: a repeated name gives an array. */
export interface WithQuery {
  Querystring: Readonly<Record<string, string | string[] | undefined>>;
}
