/**
 * Per-route policy, set as a route's Fastify `config` and read back from `request.routeOptions.config`. The
 * server's hooks and its one error handler read it, so a route states what it is instead of re-implementing checks.
 */
export interface StationRouteConfig {
  /**
   * How errors are answered: 'json' `{status:"error", message, code, errors?}` (default), 'oauth' RFC 6749
   * `{error, error_description}`, 'tsa' a DER TimeStampResp with a PKIStatus rejection, for every failure.
   */
  errorFormat?: 'json' | 'oauth' | 'tsa';
  /**
   * Which browser origins may call the route (Origin header). 'none': server-to-server only, any Origin header is
   * refused; 'station': the station's own UI origin only; 'client': an origin registered by the client named in
   * the route's `client_id` (path parameter or JSON body). Requests without an Origin header are not browsers
   * and are let through to the route's own authentication.
   */
  browserAccess?: 'none' | 'station' | 'client';
  /**
   * Refuses a request without an Origin header. For routes only browsers call and whose effect borrows a secret
   * the caller does not hold (the integrator routes add the client's API secret): any local process could
   * otherwise leave the header out and be treated as a non-browser.
   */
  originRequired?: boolean;
  /** Requires the station UI credential (`Authorization: Bearer`) and the station's own Origin: admin API, prompts. */
  requiresUiSession?: boolean;
  /** Requires the station's own Origin, without a credential: the exchange of a launch token for one. */
  requiresOwnOrigin?: boolean;
  /**
   * The route reads its body as a stream and keeps only a small window of it in memory (its documents go to disk):
   * the body budget counts it at STREAMED_BODY_BYTES, not at its length.
   */
  bodyStreamed?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig extends StationRouteConfig {}
}
