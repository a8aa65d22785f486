// The iframe helper page's script: answers the embedding page's postMessage requests through the station.
// Checks both ways: it talks only to its parent, only when the parent's origin is one of the client's allowed
// origins, and replies to that origin only (never `*`). One request at a time.
import {
  IFRAME_REPLY_SENDER,
  IFRAME_USER_CANCEL,
  iframeAuthTokenAnswerSchema,
  iframeCertificateAnswerSchema,
  iframeRequestSchema,
  iframeSignatureAnswerSchema,
  type IframeOperation,
  type IframeReply,
  type IframeRequest,
} from '../core/schemas/iframe-protocol.js';
import { readFrameData } from './read-frame-data.js';
import { embeddingOrigin } from './embedding-origin.js';
import { callStation } from './call-station.js';
import { StationCallError } from './station-call-error.js';
import { helperTexts } from './helper-texts.js';

const status = document.getElementById('status')!;
const frame = readFrameData();
const embedder = embeddingOrigin();
const { language, texts } = helperTexts(navigator.languages);
document.documentElement.lang = language;
document.title = texts.title;
document.getElementById('title')!.textContent = texts.title;

if (window.parent === window) {
  status.textContent = texts.openedAlone;
} else if (!embedder || !frame.allowedOrigins.includes(embedder)) {
  status.textContent = texts.notAllowed;
} else {
  status.textContent = texts.ready;
  start(embedder);
}

function start(parentOrigin: string): void {
  const reply = (message: IframeReply): void => window.parent.postMessage(message, parentOrigin);
  // The deployed client's own `ready` is sent before this page exists, so the page announces itself.
  reply({ sender: IFRAME_REPLY_SENDER, operation: 'ready', status: 'OK' });

  // The request in flight, if any: a `cancel` from the page aborts it, so the station withdraws its prompts.
  let pending: AbortController | undefined;

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.source !== window.parent || event.origin !== parentOrigin) return;
    const parsed = iframeRequestSchema.safeParse(event.data);
    if (!parsed.success) return;
    const request = parsed.data;
    if (request.operation === 'ready') return reply({ sender: IFRAME_REPLY_SENDER, operation: 'ready', status: 'OK' });
    if (request.operation === 'cancel') return pending?.abort();
    if (pending) return reply(failure(request.operation, new StationCallError('ERR_IFRAME_BUSY', 'Another request to Signing Station is still waiting.', true)));
    const current = new AbortController();
    pending = current;
    void answer(request, parentOrigin, current.signal)
      .then(
        (answered) => {
          status.textContent = texts.ready;
          reply(answered);
        },
        (error: unknown) => {
          const refusal = failure(request.operation, error);
          status.textContent = refusal.status === 'error' && (TOKEN_MISSING_CODES as readonly string[]).includes(refusal.code) ? texts.tokenMissing : texts.ready;
          reply(refusal);
        },
      )
      .finally(() => (pending = undefined));
  });
}

async function answer(request: Exclude<IframeRequest, { operation: 'ready' | 'cancel' }>, parentOrigin: string, signal: AbortSignal): Promise<IframeReply> {
  const call = { ticket: frame.ticket, embeddingOrigin: parentOrigin, ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}) };
  status.textContent = texts.confirmInStation;
  switch (request.operation) {
    case 'getCertificate': {
      const { certificate } = iframeCertificateAnswerSchema.parse(await callStation('certificate', call, signal));
      return { sender: IFRAME_REPLY_SENDER, operation: request.operation, status: 'OK', certificate };
    }
    case 'getSignature': {
      const body = { ...call, hexDigest: digestToSign(request), ...(request.certificate ? { certificate: request.certificate } : {}) };
      const { signatures } = iframeSignatureAnswerSchema.parse(await callStation('signature', body, signal));
      return { sender: IFRAME_REPLY_SENDER, operation: request.operation, status: 'OK', signatures };
    }
    case 'getAuthToken': {
      const { token } = iframeAuthTokenAnswerSchema.parse(await callStation('auth-token', { ...call, nonce: request.nonce }, signal));
      return { sender: IFRAME_REPLY_SENDER, operation: request.operation, status: 'OK', token };
    }
  }
}

/** The digest a getSignature asks for: its hexDigests, or the AutoFirma-type fileContent (that digest, base64). */
function digestToSign(request: Extract<IframeRequest, { operation: 'getSignature' }>): string {
  if (request.hexDigests) return request.hexDigests[0]!;
  if (!request.fileContent) throw new StationCallError('ERR_IFRAME_NOTHING_TO_SIGN', 'The request names nothing to sign (hexDigests or fileContent).', false);
  return Array.from(atob(request.fileContent), (char) => char.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}

/** The codes of a request that failed because no card or token with the certificate is connected. */
const TOKEN_MISSING_CODES = ['ERR_TOKEN_REMOVED', 'ERR_IFRAME_NO_CERTIFICATE', 'ERR_IFRAME_CERTIFICATE_ABSENT'] as const;

/** The codes of a request the user (or the page) chose to end: the reply says `user_cancel`, as the deployed client expects. */
const CANCEL_CODES = ['ERR_TOKEN_USER_CANCELLED', 'ERR_SIGNING_DECLINED', 'ERR_CLIENT_CANCELLED', 'ERR_SIGNING_REQUESTER_GONE'] as const;

function failure(operation: IframeOperation, error: unknown): IframeReply {
  const problem = error instanceof StationCallError ? error : new StationCallError('ERR_IFRAME_FAILED', 'Signing Station could not answer.', true);
  const cancelled = (CANCEL_CODES as readonly string[]).includes(problem.code);
  return {
    sender: IFRAME_REPLY_SENDER,
    operation,
    status: 'error',
    code: problem.code,
    retriable: problem.retriable,
    ...(cancelled ? { result: IFRAME_USER_CANCEL, message: IFRAME_USER_CANCEL } : { message: problem.message }),
    ...(problem.details ? { details: problem.details } : {}),
  };
}
