import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import { ClientError } from './client-error.js';
import type { Result } from './client-settings.js';
import { bodyFields, type Flow, type FlowContext } from './flow-context.js';
import { IframeMessenger } from './iframe-messenger.js';
import type { ModuleFlow } from './module-table.js';
import { IDENTIFICATION_POLL, pollUntilDone } from './poll.js';
import { get, post } from './transport.js';
import { redirectTo } from './redirect-to.js';

const identityStart = (context: FlowContext): string => context.settings.apiEndpoints!.identityStart!();
const identityFinish = (context: FlowContext): string => context.settings.apiEndpoints!.identityFinish!();

/** Polls the integrator's finish endpoint (credentials included) until the person is identified. */
async function finish(context: FlowContext, body: Record<string, unknown>): Promise<Result> {
  const request = post(identityFinish(context), { method: context.method, timeout: 2, lang: context.settings.language, ...body }, true);
  return { data: await pollUntilDone(() => context.call(request), IDENTIFICATION_POLL, context.run) };
}

async function started(context: FlowContext, body: Record<string, unknown>): Promise<ServiceAnswer> {
  const answer = await context.call(post(identityStart(context), { ...body, method: context.method }, true));
  context.settings.started?.({ data: answer });
  return answer;
}

/** Smart-ID, Mobile-ID, Freja, EUDI wallet...: start shows a challenge, finish is polled. */
const poll: Flow = async (context) => {
  const answer = await started(context, bodyFields(context, 'start'));
  return finish(context, { token: answer.token });
};

/** ID card: a credentialed GET to readCard gives a token, which finish turns into the person. */
const card: Flow = async (context) => {
  const readCard = context.settings.apiEndpoints?.readCard?.() ?? `${context.base}/api/identity/${context.settings.clientId}/${context.method}/read-card`;
  const { token } = await context.call(get(readCard, true));
  return finish(context, { token, country: context.settings.countryCode });
};

/** Web eID: start gives a nonce, the iframe's authentication token proves the card. */
const webEid: Flow = async (context) => {
  const url = `${context.base}/web-element/os-broker/${context.settings.clientId}/${context.row[2]}?doc_id=`;
  const messenger = new IframeMessenger(context.settings.iframeHolder!, url, context.run, { language: context.settings.language, clientId: context.settings.clientId, timeoutMs: context.settings.helperTimeoutMs ?? IDENTIFICATION_POLL.maxDurationMs });
  const answer = await started(context, { country: context.settings.countryCode, lang: context.settings.language });
  const reply = await messenger.request('getAuthToken', { nonce: answer.nonce });
  return finish(context, { token: reply.token, auth_token: answer.token });
};

/**
 * Wallet in the browser (Google Wallet): start gives the credential request (`object`) and the claim's token; the
 * service's wallet page answers getAuthToken with the presented credential; finish gets both. Started before the
 * page is framed, so a service without the method says so at once.
 */
const wallet: Flow = async (context) => {
  const answer = await started(context, { country: context.settings.countryCode, lang: context.settings.language, document_type: context.settings.documentType });
  const url = `${context.base}/web-element/os-broker/${context.settings.clientId}/${context.row[2]}?doc_id=`;
  const reply = await new IframeMessenger(context.settings.iframeHolder!, url, context.run, { language: context.settings.language, clientId: context.settings.clientId, timeoutMs: context.settings.helperTimeoutMs ?? IDENTIFICATION_POLL.maxDurationMs, allow: ['digital-credentials-get'] }).request('getAuthToken', { payload: answer.object });
  return finish(context, { token: reply.token, claim_id: answer.token, document_type: context.settings.documentType });
};

/**
 * ZealiD-type: the service names the provider page to frame; when the user is done, that page posts where its flow
 * ends, an address carrying `code` (or `error`), which finish turns into the person. Only a message from that
 * frame and the provider's origin counts (the published client checks the origin only).
 */
const zealid: Flow = async (context) => {
  const { url } = await context.call(get(`${context.base}/api/identity/${context.settings.clientId}/zealid/get_iframe_url`, false));
  if (typeof url !== 'string') throw new ClientError('ERR_CLIENT_NO_IFRAME_URL', 'The service gave no iframe URL.');
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.title = 'Identity provider';
  frame.setAttribute('referrerpolicy', 'origin');
  frame.style.border = '0';
  context.settings.iframeHolder!.replaceChildren(frame);
  const message = await context.run.race(
    new Promise<string>((resolve) => {
      const listen = (event: MessageEvent<unknown>): void => {
        if (event.source !== frame.contentWindow || event.origin !== new URL(url).origin || typeof event.data !== 'string') return;
        window.removeEventListener('message', listen);
        resolve(event.data);
      };
      window.addEventListener('message', listen);
      context.run.signal.addEventListener('abort', () => window.removeEventListener('message', listen), { once: true });
    }),
  );
  const ended = new URLSearchParams(message.split('?')[1]?.split('#')[0]);
  const code = ended.get('code');
  if (!code) throw new ClientError('ERR_CLIENT_PROVIDER_REFUSED', `The provider ended without identifying: ${ended.get('error') ?? message}.`);
  return finish(context, { code });
};

/** Redirect-based: to the service's OAuth start for the method, back to redirectUri with a code. */
const oauth: Flow = async (context) => {
  const { clientId, redirectUri, language, oauthParamState } = context.settings;
  const [path, method] = context.row[2].split(':');
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri!, response_type: 'code', lang: language ?? 'en' });
  if (method) query.set('method', method);
  if (oauthParamState) query.set('state', oauthParamState);
  const target = method ? `${context.base}/oauth/authorize?${query}` : `${context.base}/oauth/start/${path}?${query}`;
  return redirectTo(context, { redirect_uri: target });
};

export const IDENTIFICATION_FLOWS: Partial<Record<ModuleFlow, Flow>> = { poll, card, webEid, wallet, zealid, oauth };
