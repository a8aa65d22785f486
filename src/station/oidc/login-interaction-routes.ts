import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { WithParams, WithQuery } from '../http/route-types.js';
import type Provider from 'oidc-provider';
import { StationError } from '../../core/errors/station-error.js';
import { toStationError } from '../http/to-station-error.js';
import type { OidcRoutesDeps } from './oidc-routes-deps.js';
import { assertSandbox } from './assert-sandbox.js';
import { grantConsent } from './grant-consent.js';
import { LoginInteractionService, parseConsentDecision, parseLoginStartForm, type LoginInteraction } from './login-interaction-service.js';
import { OIDC_PATHS } from './oidc-paths.js';
import { LOGIN_PAGE_CSP } from './views/html.js';
import { LOGIN_CSS } from './views/login-css.js';
import { renderErrorPage } from './views/error-page.js';
import { renderLoginPage, renderWaitPage } from './views/login-page.js';
import { renderConsentPage, renderContinuePage } from './views/consent-page.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type UidRoute = WithParams<'uid'> & WithQuery;
type UidRequest = FastifyRequest<UidRoute>;

/** How long one wait-page request may hold for the result before the page refreshes itself. */
const WAIT_SECONDS = 1;

const USER_DENIED = { error: 'access_denied', error_description: 'The user did not allow sharing their identity.' };
const USER_CANCELLED = { error: 'access_denied', error_description: 'The user cancelled the login.' };

/**
 * The station's login pages for oidc-provider interactions: method choice, start, a self-refreshing wait page
 * that completes the identification, consent and cancel. Each handler reads the interaction, asks the
 * LoginInteractionService, and answers a page or a redirect. The interaction cookie (SameSite=Lax, bound to the
 * uid) and the Origin guard (POST only from the station's own pages) keep other sites out of a user's login.
 * Long only as a route table: one short handler per path, read top to bottom in the order a login takes them.
 */
export function loginInteractionRoutes(deps: OidcRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const logins = new LoginInteractionService({ identity: deps.identity, accounts: deps.oidc.accounts, interactionSeconds: deps.oidc.lifetimes.interaction });

    app.get(`${OIDC_PATHS.assets}/login.css`, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGIN_CSS),
    );

    app.get<UidRoute>(`${OIDC_PATHS.interaction}/:uid`, async (request, reply) =>
      html(reply, async () => {
        const { details } = await interaction(deps, request, reply);
        return { status: 200, html: details.prompt.name === 'consent' ? consentPage(details) : loginPage(deps, details) };
      }),
    );

    app.post<UidRoute>(`${OIDC_PATHS.interaction}/:uid/consent`, async (request, reply) =>
      html(reply, async () => {
        const { provider, details } = await interaction(deps, request, reply);
        if (details.prompt.name !== 'consent') return redirect(reply, interactionPath(details));
        const allowed = parseConsentDecision(request.body) === 'allow';
        const result = allowed ? { consent: { grantId: await grantConsent(provider, details) } } : USER_DENIED;
        const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: allowed });
        return { status: 200, html: renderContinuePage(returnTo) };
      }),
    );

    app.post<UidRoute>(`${OIDC_PATHS.interaction}/:uid/start`, async (request, reply) =>
      html(reply, async () => {
        const { details } = await interaction(deps, request, reply);
        const form = parseLoginStartForm(request.body);
        try {
          await logins.start(loginOf(details), form);
        } catch (error) {
          return loginPageWithError(deps, details, error);
        }
        return redirect(reply, `${interactionPath(details)}/wait`);
      }),
    );

    app.get<UidRoute>(`${OIDC_PATHS.interaction}/:uid/wait`, async (request, reply) =>
      html(reply, async () => {
        const { provider, details } = await interaction(deps, request, reply);
        const view = logins.waiting(details.uid);
        if (!view) return redirect(reply, interactionPath(details));
        const waitPage = { status: 200, html: renderWaitPage(view) };
        // The first view only shows the code: the user must see it before confirming in the app.
        if (request.query.poll === undefined) return waitPage;
        let login;
        try {
          login = await logins.complete(details.uid, WAIT_SECONDS);
        } catch (error) {
          return loginPageWithError(deps, details, error);
        }
        if (login === 'RUNNING') return waitPage;
        return redirect(reply, await provider.interactionResult(request.raw, reply.raw, { login: { ...login } }, { mergeWithLastSubmission: false }));
      }),
    );

    app.get<UidRoute>(`${OIDC_PATHS.interaction}/:uid/abort`, async (request, reply) =>
      html(reply, async () => {
        const { provider, details } = await interaction(deps, request, reply);
        logins.forget(details.uid);
        return redirect(reply, await provider.interactionResult(request.raw, reply.raw, USER_CANCELLED, { mergeWithLastSubmission: false }));
      }),
    );
  };
}

interface Page {
  status: number;
  html: string;
}
type PageResult = Page | FastifyReply;

/** Runs a page handler; any failure becomes the station's error page, never a JSON body in the user's browser. */
async function html(reply: FastifyReply, work: () => Promise<PageResult>): Promise<FastifyReply> {
  let result: PageResult;
  try {
    result = await work();
  } catch (error) {
    const problem = toStationError(error);
    const oidcError = error as { error?: string; error_description?: string; status?: number };
    const status = typeof oidcError.status === 'number' && oidcError.error ? oidcError.status : problem.status;
    result = { status, html: renderErrorPage(oidcError.error ?? problem.code, oidcError.error_description ?? problem.message) };
  }
  if (!('html' in result)) return result;
  return reply.code(result.status).type('text/html; charset=utf-8').header('content-security-policy', LOGIN_PAGE_CSP).header('x-frame-options', 'DENY').send(result.html);
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}

function interactionPath(details: Interaction): string {
  return `${OIDC_PATHS.interaction}/${encodeURIComponent(details.uid)}`;
}

/** The interaction of this browser (its cookie), which must be the one the page's path names. */
async function interaction(deps: OidcRoutesDeps, request: UidRequest, reply: FastifyReply): Promise<{ provider: Provider; details: Interaction }> {
  assertSandbox(deps.mode);
  const provider = await deps.oidc.provider();
  const details = await provider.interactionDetails(request.raw, reply.raw);
  if (details.uid !== request.params.uid) {
    throw new StationError('ERR_OIDC_INTERACTION_MISMATCH', 'This login page belongs to another login in this browser. Start again from the application.', { status: 400 });
  }
  return { provider, details };
}

function loginOf(details: Interaction): LoginInteraction {
  const clientId = String(details.params.client_id);
  return { uid: details.uid, clientId, requester: `${clientId} (${redirectOrigin(details)})` };
}

function redirectOrigin(details: Interaction): string {
  return new URL(String(details.params.redirect_uri)).origin;
}

function loginPage(deps: OidcRoutesDeps, details: Interaction, error?: string): string {
  return renderLoginPage({
    uid: details.uid,
    clientId: String(details.params.client_id),
    redirectOrigin: redirectOrigin(details),
    methods: deps.identity.available(),
    sandbox: deps.mode() === 'sandbox',
    ...(error ? { error } : {}),
  });
}

/** The method choice again, saying why the last attempt failed, with that failure's status. */
function loginPageWithError(deps: OidcRoutesDeps, details: Interaction, error: unknown): Page {
  const problem = toStationError(error);
  return { status: problem.status, html: loginPage(deps, details, problem.message) };
}

function consentPage(details: Interaction): string {
  const missing = details.prompt.details as { missingOIDCScope?: string[] };
  return renderConsentPage({
    uid: details.uid,
    clientId: String(details.params.client_id),
    redirectOrigin: redirectOrigin(details),
    scopes: missing.missingOIDCScope ?? String(details.params.scope).split(' '),
  });
}
