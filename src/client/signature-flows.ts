import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import { ClientError } from './client-error.js';
import { bodyFields, type Flow, type FlowContext } from './flow-context.js';
import { IframeMessenger } from './iframe-messenger.js';
import type { ModuleFlow } from './module-table.js';
import { IFRAME_SIGNING_POLL, SIGNING_POLL, pollUntilDone } from './poll.js';
import { get, post } from './transport.js';
import { encryptPkcs1 } from './encrypt-pkcs1.js';
import { redirectTo } from './redirect-to.js';

const signatures = (context: FlowContext): string => `${context.base}/api/signatures`;
const session = (context: FlowContext) => ({ doc_id: context.settings.docId, client_id: context.settings.clientId });

async function startSigning(context: FlowContext, extra: Record<string, unknown> = {}): Promise<ServiceAnswer> {
  const body = { ...session(context), contract_id: context.settings.contractId, sign_type: context.row[2], ...bodyFields(context, 'start'), ...extra };
  return context.call(post(`${signatures(context)}/start-signing`, body, false));
}

/** Polls `<path>/complete` every 2 s while the signer has not acted; each answer goes to onTryComplete. */
async function complete(context: FlowContext, body: Record<string, unknown>, path = context.row[3] || context.row[2]) {
  const request = post(`${signatures(context)}/${path}/complete`, { ...session(context), lang: context.settings.language, timeout: 2, ...bodyFields(context, 'complete'), ...body }, false);
  const onTry = context.settings.onTryComplete;
  return { data: await pollUntilDone(() => context.call(request), SIGNING_POLL, context.run, onTry && ((data) => onTry({ data }))) };
}

/** Asks the integrator's confirmationCodeRequest for the code the user received. */
function confirmationCode(context: FlowContext, data: ServiceAnswer): Promise<string> {
  const ask = context.settings.confirmationCodeRequest;
  if (!ask) return Promise.reject(new TypeError('Missing required setting "confirmationCodeRequest"'));
  return context.run.race(new Promise<string>((resolve, reject) => ask({ data }, resolve, reject)));
}

/** Smart-ID, Mobile-ID and other challenge or transaction methods: start shows the challenge, complete is polled. */
const poll: Flow = async (context) => {
  const answer = await startSigning(context);
  context.settings.started?.({ data: answer });
  return complete(context, { token: answer.token });
};

/** Icelandic qualified: start, then a continue step whose answer carries the challenge, then complete. */
const continueThenComplete: Flow = async (context) => {
  const answer = await startSigning(context);
  const continued = await context.call(post(`${signatures(context)}/${context.row[2]}/continue`, { token: answer.token, ...session(context), lang: context.settings.language }, false));
  context.settings.started?.({ data: continued });
  return complete(context, { token: continued.token ?? answer.token });
};

/** Start (with `extra` fields), ask the integrator for the code the user received, complete with it (`seal`ed). */
async function confirmThenComplete(context: FlowContext, extra: Record<string, unknown> = {}, seal = async (code: string): Promise<string> => code) {
  const answer = await startSigning(context, extra);
  context.settings.started?.({ data: answer });
  const code = await confirmationCode(context, answer);
  return complete(context, { token: answer.token, confirmation_code: await seal(code) });
}

/** Cloud certificate with a confirmation code: start, ask the code, complete with it. */
const confirm: Flow = (context) => confirmThenComplete(context);

/** Chave Móvel: the same, with the phone, the signing PIN and the code encrypted with the provider's public key. */
const sealedConfirm: Flow = async (context) => {
  const { publicKey } = await context.call(get(`${context.base}/api/chave-movel-public-key`, false));
  if (typeof publicKey !== 'string') throw new ClientError('ERR_CLIENT_NO_PUBLIC_KEY', 'The service gave no public key.');
  const seal = (value: string): Promise<string> => encryptPkcs1(atob(publicKey), value);
  const { signingPin, phone } = context.settings;
  return confirmThenComplete(context, { signing_pin: await seal(String(signingPin)), phone: await seal(String(phone)) }, seal);
};

/**
 * One-time password (and handwritten signing, which adds the drawn signature): complete with the codes the user
 * typed. Without codes and with confirmationCodeRequest, the client first asks the service to send one and then
 * asks the integrator for what the user received.
 */
const otp: Flow = async (context) => {
  let { smsToken, emailToken } = context.settings;
  const { handwrittenSignatureData, handwrittenSignatureDataUrl } = context.settings;
  if (smsToken === undefined && emailToken === undefined) {
    const sent = await startSigning(context, { sign_type: context.method, email: context.settings.email, phone: context.settings.phone });
    const code = await confirmationCode(context, sent);
    if (context.settings.phone) smsToken = code;
    else emailToken = code;
  }
  const drawn = { handwritten_signature_data: handwrittenSignatureData, handwritten_signature_data_url: handwrittenSignatureDataUrl };
  return complete(context, { email_token: emailToken, sms_token: smsToken, ...drawn }, context.row[2]);
};

const redirect: Flow = async (context) => redirectTo(context, await startSigning(context));

const zealid: Flow = (context) => {
  const query = new URLSearchParams({ client_id: context.settings.clientId, doc_id: context.settings.docId! });
  return redirectTo(context, { redirect_uri: `${context.base}/zealid/signature/start?${query}` });
};

/** ID card, USB token, certificate store: the station's iframe helper reads the certificate and signs the digest. */
const iframe: Flow = async (context) => {
  const { clientId, docId, iframeHolder, signingCertificate, countryCode } = context.settings;
  const url = `${context.base}/web-element/os-broker/${clientId}/${context.method}?doc_id=${encodeURIComponent(docId!)}`;
  const messenger = new IframeMessenger(iframeHolder!, url, context.run, { language: context.settings.language, clientId: context.settings.clientId, timeoutMs: context.settings.helperTimeoutMs ?? IFRAME_SIGNING_POLL.maxDurationMs });
  const certificate = signingCertificate ?? (await messenger.request('getCertificate', { country: countryCode })).certificate;
  const started = await startSigning(context, { sign_type: context.method, certificate, base64_certificate: certificate, country: countryCode, lang: undefined });
  const signed = await messenger.request('getSignature', { hexDigests: [started.hexDigest], signedInfoDigests: started.signedInfoDigests, ...(signingCertificate ? { certificate } : {}) });
  const signatureValue = (signed.signatures as string[] | undefined)?.[0];
  if (!signatureValue) throw new ClientError('ERR_CLIENT_NO_SIGNATURE', 'The iframe helper returned no signature.');
  const request = post(`${signatures(context)}/${context.method}/complete`, { ...session(context), token: started.token, signature_value: signatureValue, signatures: [signatureValue] }, false);
  return { data: await pollUntilDone(() => context.call(request), IFRAME_SIGNING_POLL, context.run) };
};

export const SIGNATURE_FLOWS: Record<Exclude<ModuleFlow, 'oauth' | 'card' | 'webEid' | 'wallet'>, Flow> = {
  poll,
  continue: continueThenComplete,
  confirm,
  sealedConfirm,
  otp,
  redirect,
  zealid,
  iframe,
};
