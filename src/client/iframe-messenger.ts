import { IFRAME_REPLY_SENDER, IFRAME_USER_CANCEL } from '../core/schemas/iframe-reply-tags.js';
import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import { ClientError } from './client-error.js';
import type { ModuleRun } from './module-run.js';

type Reply = ServiceAnswer & { sender?: unknown; operation?: unknown; result?: unknown };

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

  constructor(holder: HTMLElement, url: string, run: ModuleRun) {
    this.#origin = new URL(url).origin;
    this.#run = run;
    this.#frame = document.createElement('iframe');
    this.#frame.src = url;
    this.#frame.setAttribute('referrerpolicy', 'origin');
    this.#frame.setAttribute('allow', 'local-network-access');
    this.#frame.style.cssText = 'border:0;width:100%;height:100%';
    this.#ready = this.#next('ready');
    holder.replaceChildren(this.#frame);
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
          reject(new ClientError(reply.code ?? 'ERR_CLIENT_IFRAME', reply.message ?? 'The iframe helper refused.', { isCancel, answer: reply }));
        };
        window.addEventListener('message', listen);
        this.#run.signal.addEventListener('abort', () => window.removeEventListener('message', listen), { once: true });
      }),
    );
  }
}
