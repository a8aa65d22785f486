import { IFRAME_REPLY_SENDER, IFRAME_USER_CANCEL } from '../core/schemas/iframe-reply-tags.js';
import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import { ClientError } from './client-error.js';
import { passedOn } from '../core/errors/browser-error-codes.js';
import type { ModuleRun } from './module-run.js';
import { frameTitle } from './frame-title.js';

type Reply = ServiceAnswer & { sender?: unknown; operation?: unknown; result?: unknown };

/** How long the helper has to announce itself before the user is told why it may not (a station starting is quick). */
const READY_TIMEOUT_MS = 8_000;
/** The range of request timeouts the station accepts. */
const HELPER_TIMEOUT_MS = { min: 1_000, max: 600_000 };
/** Chrome's Local Network Access permission for a page framing 127.0.0.1, under its current and its earlier name. */
const LOOPBACK_PERMISSIONS = ['loopback-network', 'local-network-access'];

// The page's person reads `userMessage` (from the client's catalogue); `message` is for the integrator's developer.
const unreachable = (): ClientError =>
  new ClientError(
    'ERR_CLIENT_HELPER_UNREACHABLE',
    `The station's iframe helper did not announce itself within ${READY_TIMEOUT_MS / 1000} s: the station is not running, or the browser's Local Network Access permission prompt was not answered.`,
  );
const blocked = (): ClientError =>
  new ClientError(
    'ERR_CLIENT_HELPER_BLOCKED',
    'The browser denies this page Local Network Access to the station: the iframe needs allow="local-network-access" (the client sets it), the user must allow the permission in the site settings, or a managed browser needs the LocalNetworkAccessAllowedForUrls policy for this origin.',
  );

const notRegistered = (): ClientError =>
  new ClientError('ERR_CLIENT_ORIGIN_NOT_REGISTERED', `${location.origin} is not one of this client's registered origins at the station (signing-station clients add/update --allowed-origin).`);

/** Whether the station has this page's origin registered for the client; undefined when it cannot be asked. */
async function registered(url: string, signal: AbortSignal): Promise<boolean | undefined> {
  try {
    const answer = (await (await fetch(url, { signal })).json()) as { registered?: unknown };
    return typeof answer.registered === 'boolean' ? answer.registered : undefined;
  } catch {
    return undefined; // not running, blocked, or an older station: the helper's own announcement decides
  }
}

/**
 * The station's iframe helper in the integrator's holder. Unlike the published client, a message counts only when
 * it comes from this iframe's window and from the helper's origin, and requests go to that origin only. The
 * helper announces `ready` on load; requests wait for it.
 */
export class IframeMessenger {
  readonly #origin: string;
  readonly #frame: HTMLIFrameElement;
  readonly #run: ModuleRun;
  readonly #ready: Promise<unknown>;
  readonly #timeoutMs: number;

  /**
   * `language`: the page's (the client's setting), for the frame's title. `allow`: more permissions the framed page
   * needs (a wallet page: `digital-credentials-get`). `clientId`: whose helper it is, to ask whether this page's
   * origin is registered. `timeoutMs`: how long each request waits (the client's `helperTimeoutMs`, else the flow's own limit).
   */
  constructor(holder: HTMLElement, url: string, run: ModuleRun, options: { language: string | undefined; clientId: string; allow?: readonly string[]; timeoutMs: number }) {
    this.#origin = new URL(url).origin;
    this.#timeoutMs = Math.min(HELPER_TIMEOUT_MS.max, Math.max(HELPER_TIMEOUT_MS.min, options.timeoutMs));
    this.#run = run;
    this.#frame = document.createElement('iframe');
    this.#frame.src = url;
    this.#frame.title = frameTitle(options.language);
    this.#frame.setAttribute('referrerpolicy', 'origin');
    // Chrome 142+ lets a public page frame 127.0.0.1 only with this policy and the user's permission.
    this.#frame.setAttribute('allow', [...LOOPBACK_PERMISSIONS, ...(options.allow ?? [])].join('; '));
    this.#frame.style.cssText = 'border:0;width:100%;height:100%';
    this.#ready = this.#announced(this.#next('ready'), `${this.#origin}/web-element/api/embedder/${encodeURIComponent(options.clientId)}`);
    // Awaited by the first request, which may come later (after start-signing): not an unhandled rejection meanwhile.
    this.#ready.catch(() => undefined);
    holder.replaceChildren(this.#frame);
    // The page no longer waits (cancel(), a timeout, a failure elsewhere in the flow): the helper drops its pending
    // request, and the station withdraws the prompts it holds for it.
    run.signal.addEventListener('abort', () => this.#frame.contentWindow?.postMessage({ operation: 'cancel' }, this.#origin), { once: true });
  }

  /**
   * `ready`, or a rejection when the helper cannot announce itself: at once when the browser's Local Network Access permission is
   * denied for this page, otherwise after READY_TIMEOUT_MS (the station is not running, or the permission prompt
   * was not answered). A frame the browser blocks loads an error page, which no event tells apart.
   */
  #announced(ready: Promise<Reply>, embedderUrl: string): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => reject(unreachable()), READY_TIMEOUT_MS);
      const settle = (finish: () => void): void => {
        clearTimeout(timer);
        finish();
      };
      ready.then(
        (reply) => settle(() => resolve(reply)),
        (error: unknown) => settle(() => reject(error)),
      );
      void this.#permissionDenied().then((denied) => denied && settle(() => reject(blocked())));
      void registered(embedderUrl, this.#run.signal).then((known) => known === false && settle(() => reject(notRegistered())));
    });
  }

  async #permissionDenied(): Promise<boolean> {
    for (const name of LOOPBACK_PERMISSIONS) {
      try {
        // Names outside the PermissionName union of today's DOM typings.
        if ((await navigator.permissions.query({ name } as unknown as PermissionDescriptor)).state === 'denied') return true;
      } catch {
        // A browser without this permission: nothing to detect.
      }
    }
    return false;
  }

  /**
   * Sends a request with this client's timeout, which the station takes as the deadline of the request's prompts;
   * the client gives up at that time too (ERR_CLIENT_TIMEOUT) and tells the helper to drop the request.
   */
  async request(operation: string, payload: Record<string, unknown> = {}): Promise<Reply> {
    await this.#ready;
    const reply = this.#next(operation);
    this.#frame.contentWindow?.postMessage({ operation, ...payload, timeoutMs: this.#timeoutMs }, this.#origin);
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#frame.contentWindow?.postMessage({ operation: 'cancel' }, this.#origin);
        reject(new ClientError('ERR_CLIENT_TIMEOUT', `The station's iframe helper did not answer ${operation} within ${this.#timeoutMs / 1000} s.`));
      }, this.#timeoutMs);
      reply.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  #next(operation: string): Promise<Reply> {
    return this.#run.race(
      new Promise<Reply>((resolve, reject) => {
        const listen = (event: MessageEvent<Reply>): void => {
          const reply = event.data;
          if (event.source !== this.#frame.contentWindow || event.origin !== this.#origin) return;
          if (reply?.sender !== IFRAME_REPLY_SENDER || reply.operation !== operation) return;
          window.removeEventListener('message', listen);
          if (reply.status === 'OK') return resolve(reply);
          const isCancel = reply.result === IFRAME_USER_CANCEL || reply.message === IFRAME_USER_CANCEL;
          reject(new ClientError(reply.code ? passedOn(reply.code) : 'ERR_CLIENT_IFRAME', reply.message ?? 'The iframe helper refused.', { isCancel, answer: reply }));
        };
        window.addEventListener('message', listen);
        this.#run.signal.addEventListener('abort', () => window.removeEventListener('message', listen), { once: true });
      }),
    );
  }
}
