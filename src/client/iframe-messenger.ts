import { IFRAME_REPLY_SENDER, IFRAME_USER_CANCEL } from '../core/schemas/iframe-reply-tags.js';
import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import { ClientError } from './client-error.js';
import { passedOn } from '../core/errors/browser-error-codes.js';
import type { ModuleRun } from './module-run.js';
import { frameTitle } from './frame-title.js';

type Reply = ServiceAnswer & { sender?: unknown; operation?: unknown; result?: unknown };

/** How long the helper has to announce itself before the user is told why it may not (a station starting is quick). */
const READY_TIMEOUT_MS = 8_000;
/** Chrome's Local Network Access permission for a page framing 127.0.0.1, under its current and its earlier name. */
const LOOPBACK_PERMISSIONS = ['loopback-network', 'local-network-access'];

const unreachable = (): ClientError =>
  new ClientError('ERR_CLIENT_HELPER_UNREACHABLE', 'Signing Station did not answer.', {
    userMessage:
      'Signing Station did not answer. Check that it is running on this computer, and that this site may access devices on your local network (the browser asks once; see the site settings).',
  });
const blocked = (): ClientError =>
  new ClientError('ERR_CLIENT_HELPER_BLOCKED', 'The browser blocks this page from reaching Signing Station.', {
    userMessage:
      'Your browser blocks this site from reaching Signing Station on this computer. Allow "access to devices on your local network" for this site in the browser\'s site settings (or ask your administrator to allow it), then try again.',
  });

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

  /**
   * `language`: the page's (the client's setting), for the frame's title. `allow`: more permissions the framed page
   * needs (a wallet page: `digital-credentials-get`).
   */
  constructor(holder: HTMLElement, url: string, run: ModuleRun, options: { language: string | undefined; allow?: readonly string[] }) {
    this.#origin = new URL(url).origin;
    this.#run = run;
    this.#frame = document.createElement('iframe');
    this.#frame.src = url;
    this.#frame.title = frameTitle(options.language);
    this.#frame.setAttribute('referrerpolicy', 'origin');
    // Chrome 142+ lets a public page frame 127.0.0.1 only with this policy and the user's permission.
    this.#frame.setAttribute('allow', [...LOOPBACK_PERMISSIONS, ...(options.allow ?? [])].join('; '));
    this.#frame.style.cssText = 'border:0;width:100%;height:100%';
    this.#ready = this.#announced(this.#next('ready'));
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
  #announced(ready: Promise<Reply>): Promise<Reply> {
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

  async request(operation: string, payload: Record<string, unknown> = {}): Promise<Reply> {
    await this.#ready;
    const reply = this.#next(operation);
    this.#frame.contentWindow?.postMessage({ operation, ...payload }, this.#origin);
    return reply;
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
