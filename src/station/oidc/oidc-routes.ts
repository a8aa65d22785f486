import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { assertSandbox } from './assert-sandbox.js';
import type { OidcRoutesDeps } from './oidc-routes-deps.js';
import { OIDC_PATHS } from './oidc-paths.js';
import { loginInteractionRoutes } from './login-interaction-routes.js';
import { LOGIN_PAGE_CSP } from './views/html.js';
import { setSecurityHeaders } from '../http/install-security-headers.js';

/**
 * The OIDC endpoints (docs/oidc-provider.md#endpoints) served by oidc-provider's own request handler under their exact
 * paths, and the station's login pages. Only in sandbox mode: the service's OIDC flow is a sandbox-only beta.
 */
export function oidcRoutes(deps: OidcRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(providerEndpoints(deps));
    await app.register(loginInteractionRoutes(deps));
  };
}

function providerEndpoints(deps: OidcRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    // Requests here log through the provider's own events, not a child logger made for each request's id.
    app.setChildLoggerFactory((logger) => logger);

    // Koa composes its middleware on every callback() call: keep one handler per provider instance.
    const handlers = new WeakMap<Provider, { handle: ReturnType<Provider['callback']>; issuerHost: string }>();
    // oidc-provider reads and limits request bodies itself, so it takes each request over in the route's onRequest
    // hook, after the station's guards and before Fastify's body step (content-type parsers, preHandler, handler).
    const forward = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      assertSandbox(deps.mode);
      const provider = await deps.oidc.provider();
      let handler = handlers.get(provider);
      if (!handler) handlers.set(provider, (handler = { handle: provider.callback(), issuerHost: new URL(provider.issuer).host }));
      // The Host guard admitted only the station's own names; oidc-provider builds endpoint URLs from Host, and
      // they must all be the issuer's (the exact token endpoint audience depends on it).
      request.raw.headers.host = handler.issuerHost;
      reply.hijack();
      setSecurityHeaders(reply.raw, LOGIN_PAGE_CSP);
      await handler.handle(request.raw, reply.raw);
    };
    // Fastify requires a handler; a hijacked or refused request never reaches it.
    const answeredInOnRequest = (): never => {
      throw new TypeError('The OIDC provider answers from the route’s onRequest hook');
    };

    // GET endpoints: any browser may read them (default for safe methods); the token endpoint is server to server.
    const frontChannel = { config: { errorFormat: 'json' }, onRequest: forward } as const;
    const backChannel = { config: { browserAccess: 'none', errorFormat: 'oauth' }, onRequest: forward } as const;
    app.get(OIDC_PATHS.discovery, frontChannel, answeredInOnRequest);
    app.get(OIDC_PATHS.jwks, frontChannel, answeredInOnRequest);
    app.get(OIDC_PATHS.authorization, frontChannel, answeredInOnRequest);
    app.get(`${OIDC_PATHS.authorization}/:uid`, frontChannel, answeredInOnRequest);
    app.post(OIDC_PATHS.token, backChannel, answeredInOnRequest);
  };
}
