import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import * as z from 'zod';
import { StationError } from '../../core/errors/station-error.js';
import { toStationError } from '../http/to-station-error.js';
import { parseZod } from '../validation/parse-zod.js';
import type { IdentityMethod } from '../identity/identity-method.js';
import type { OidcRoutesDeps } from './oidc-routes.js';
import { assertSandbox } from './assert-sandbox.js';
import { OIDC_PATHS } from './oidc-paths.js';
import { LOGIN_PAGE_CSP } from './views/html.js';
import { LOGIN_CSS } from './views/login-css.js';
import { renderErrorPage } from './views/error-page.js';
import { renderLoginPage, renderWaitPage } from './views/login-page.js';
import { renderConsentPage, renderContinuePage } from './views/consent-page.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

interface PendingLogin {
  method: IdentityMethod;
  clientId: string;
  token: string;
  challenge?: string | undefined;
  qrCode?: string | undefined;
  expiry: NodeJS.Timeout;
}

const startFormSchema = z.object({
  method: z.string().min(1).max(64),
  idcode: z.string().trim().max(64).optional(),
  phone: z.string().trim().max(20).optional(),
  country: z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/).optional(),
});

const consentFormSchema = z.object({ decision: z.enum(['allow', 'deny']) });

/** How long one wait-page request may hold for the result before the page refreshes itself. */
const WAIT_SECONDS = 1;

/**
 * The station's login pages for oidc-provider interactions: method choice, start, a self-refreshing wait page
 * that completes the identification, and cancel. The interaction cookie (SameSite=Lax, bound to the uid) and the
 * Origin guard (POST only from the station's own pages) keep other sites out of a user's login.
 */
export function loginInteractionRoutes(deps: OidcRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const pending = new Map<string, PendingLogin>();
    const forget = (uid: string): void => {
      const login = pending.get(uid);
      if (!login) return;
      clearTimeout(login.expiry);
      deps.identity.cancel(login.token);
      pending.delete(uid);
    };

    app.get(`${OIDC_PATHS.assets}/login.css`, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGIN_CSS),
    );

    app.get<{ Params: { uid: string } }>(`${OIDC_PATHS.interaction}/:uid`, async (request, reply) =>
      html(reply, async () => {
        const { provider, details } = await interaction(deps, request, reply);
        if (details.prompt.name === 'consent') return { status: 200, html: consentPage(details) };
        return { status: 200, html: loginPage(deps, details) };
      }),
    );

    app.post<{ Params: { uid: string } }>(`${OIDC_PATHS.interaction}/:uid/consent`, async (request, reply) =>
      html(reply, async () => {
        const { provider, details } = await interaction(deps, request, reply);
        if (details.prompt.name !== 'consent') return redirect(reply, `${OIDC_PATHS.interaction}/${encodeURIComponent(details.uid)}`);
        const { decision } = parseZod(consentFormSchema, request.body, 'Invalid consent form');
        const returnTo =
          decision === 'allow'
            ? await grantConsent(provider, details, request, reply)
            : await provider.interactionResult(request.raw, reply.raw, { error: 'access_denied', error_description: 'The user did not allow sharing their identity.' }, { mergeWithLastSubmission: false });
        return { status: 200, html: renderContinuePage(returnTo) };
      }),
    );

    app.post<{ Params: { uid: string } }>(`${OIDC_PATHS.interaction}/:uid/start`, async (request, reply) =>
      html(reply, async () => {
        const { details } = await interaction(deps, request, reply);
        const clientId = String(details.params.client_id);
        const form = parseZod(startFormSchema, request.body, 'Invalid login form');
        const method = deps.identity.available().find((candidate) => candidate.code === form.method);
        try {
          if (!method) throw new StationError('ERR_IDENTITY_METHOD_UNKNOWN', 'This identification method is not available.', { status: 400 });
          const started = await deps.identity.start(method.code, { idcode: form.idcode, phone: form.phone, country: form.country }, { clientId, requester: requester(details) });
          forget(details.uid);
          const expiry = setTimeout(() => forget(details.uid), deps.oidc.lifetimes.interaction * 1000);
          expiry.unref();
          pending.set(details.uid, { method, clientId, token: started.token, challenge: started.challenge, qrCode: started.qr_code, expiry });
          return redirect(reply, `${OIDC_PATHS.interaction}/${encodeURIComponent(details.uid)}/wait`);
        } catch (error) {
          const problem = toStationError(error);
          return { status: problem.status, html: loginPage(deps, details, problem.message) };
        }
      }),
    );

    app.get<{ Params: { uid: string }; Querystring: { poll?: string } }>(`${OIDC_PATHS.interaction}/:uid/wait`, async (request, reply) =>
      html(reply, async () => {
        const { provider, details } = await interaction(deps, request, reply);
        const login = pending.get(details.uid);
        if (!login) return redirect(reply, `${OIDC_PATHS.interaction}/${encodeURIComponent(details.uid)}`);
        const waitPage = { status: 200, html: renderWaitPage({ uid: details.uid, method: login.method, challenge: login.challenge, qrCode: login.qrCode }) };
        // The first view only shows the code: the user must see it before confirming in the app.
        if (request.query.poll === undefined) return waitPage;
        let result;
        try {
          result = await deps.identity.complete(login.method.code, login.token, login.clientId, WAIT_SECONDS);
        } catch (error) {
          forget(details.uid);
          const problem = toStationError(error);
          return { status: problem.status, html: loginPage(deps, details, problem.message) };
        }
        if (result === 'RUNNING') return waitPage;
        forget(details.uid);
        const accountId = await deps.oidc.accounts.save(result);
        const returnTo = await provider.interactionResult(request.raw, reply.raw, { login: { accountId, amr: [result.current_login_method] } }, { mergeWithLastSubmission: false });
        return redirect(reply, returnTo);
      }),
    );

    app.get<{ Params: { uid: string } }>(`${OIDC_PATHS.interaction}/:uid/abort`, async (request, reply) =>
      html(reply, async () => {
        const { provider, details } = await interaction(deps, request, reply);
        forget(details.uid);
        const returnTo = await provider.interactionResult(request.raw, reply.raw, { error: 'access_denied', error_description: 'The user cancelled the login.' }, { mergeWithLastSubmission: false });
        return redirect(reply, returnTo);
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

async function interaction(deps: OidcRoutesDeps, request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply): Promise<{ provider: Provider; details: Interaction }> {
  assertSandbox(deps.mode);
  const provider = await deps.oidc.provider();
  const details = await provider.interactionDetails(request.raw, reply.raw);
  if (details.uid !== request.params.uid) {
    throw new StationError('ERR_OIDC_INTERACTION_MISMATCH', 'This login page belongs to another login in this browser. Start again from the application.', { status: 400 });
  }
  return { provider, details };
}

function loginPage(deps: OidcRoutesDeps, details: Interaction, error?: string): string {
  return renderLoginPage({
    uid: details.uid,
    clientId: String(details.params.client_id),
    redirectOrigin: new URL(String(details.params.redirect_uri)).origin,
    methods: deps.identity.available(),
    sandbox: deps.mode() === 'sandbox',
    ...(error ? { error } : {}),
  });
}

function consentPage(details: Interaction): string {
  const missing = details.prompt.details as { missingOIDCScope?: string[] };
  return renderConsentPage({
    uid: details.uid,
    clientId: String(details.params.client_id),
    redirectOrigin: new URL(String(details.params.redirect_uri)).origin,
    scopes: missing.missingOIDCScope ?? String(details.params.scope).split(' '),
  });
}

function requester(details: Interaction): string {
  return `${String(details.params.client_id)} (${new URL(String(details.params.redirect_uri)).origin})`;
}

/**
 * The user allowed this client, on a page that names it, where the answer goes and what it receives: recorded as
 * the grant oidc-provider asks for, so the same client asking for the same scopes is not asked again in this
 * login session, and any other client is.
 */
async function grantConsent(provider: Provider, details: Interaction, request: FastifyRequest, reply: FastifyReply): Promise<string> {
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  const accountId = details.session?.accountId;
  if (!accountId) throw new StationError('ERR_OIDC_NO_SESSION', 'The login session is gone. Start again from the application.', { status: 400 });
  const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  return provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
