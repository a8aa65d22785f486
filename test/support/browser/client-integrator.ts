// Runs a module of either browser client (the published one, `eidEasyBrowserClient`, or the station's,
// `serviceBrowserClient`) in an integrator page and records its callbacks, so one test drives both clients; and
// the testbed those tests share.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { startTestStation, type TestStation } from '../station/test-station.js';
import { startIntegrator, type Integrator } from './iframe-integrator.js';

export type ClientGlobal = 'eidEasyBrowserClient' | 'serviceBrowserClient';
export const BOTH_CLIENTS: readonly ClientGlobal[] = ['serviceBrowserClient', 'eidEasyBrowserClient'];

export interface ModuleRunRequest {
  client: ClientGlobal;
  kind: 'identification' | 'signature';
  module: string;
  /** JSON settings; apiEndpoints are given as URLs and turned into the functions the clients expect. */
  settings: { clientId: string; docId?: string; countryCode?: string; language?: string; redirectUri?: string; base: string; identityStart?: string; identityFinish?: string; readCard?: string };
  /** JSON options; `iframeHolder: true` passes the page's holder element. */
  options?: Record<string, unknown>;
  /** Calls the returned cancel() once `started` has been called. */
  cancelWhenStarted?: boolean;
  /** Gives a `redirect` callback that records its argument instead of the clients' default navigation. */
  captureRedirect?: boolean;
  /**
   * Answers confirmationCodeRequest with this code, or with what the page's `window.confirmationCode()` gives (a
   * function the test exposes, e.g. reading the station's outbox) when it is 'exposed'.
   */
  confirmationCode?: string;
}

export interface ModuleOutcome {
  /** Callback names in order, e.g. ['started', 'success', 'finished']. */
  calls: string[];
  started?: unknown;
  /** What onTryComplete received, poll by poll. */
  tries: unknown[];
  redirected?: unknown;
  result?: unknown;
  error?: { message: string; isCancel?: boolean; userMessage?: string; userDetails?: unknown; code?: unknown; details?: unknown };
  thrown?: string;
}

/** Identification settings for client `shop` whose identity calls go through the station's integrator-server role. */
export function stationIdentitySettings(baseUrl: string): ModuleRunRequest['settings'] {
  return {
    clientId: 'shop',
    countryCode: 'EE',
    base: baseUrl,
    identityStart: `${baseUrl}/integrator/shop/identity/start`,
    identityFinish: `${baseUrl}/integrator/shop/identity/finish`,
  };
}

export function runModule(page: Page, request: ModuleRunRequest): Promise<ModuleOutcome> {
  return page.evaluate(
    (run) =>
      new Promise<ModuleOutcome>((resolve) => {
        type Factory = { createClient(settings: object): Record<string, Record<string, { start(options: object): { cancel(): void } }>> };
        const factory = (window as unknown as Record<string, Factory>)[run.client]!;
        const { base, identityStart, identityFinish, readCard, ...plain } = run.settings;
        const outcome: ModuleOutcome = { calls: [], tries: [] };
        let controls: { cancel(): void } | undefined;
        try {
          const client = factory.createClient({
            ...plain,
            sandbox: true,
            apiEndpoints: { base: () => base, ...(identityStart ? { identityStart: () => identityStart } : {}), ...(identityFinish ? { identityFinish: () => identityFinish } : {}), ...(readCard ? { readCard: () => readCard } : {}) },
          });
          const options = { ...run.options, ...(run.options?.iframeHolder ? { iframeHolder: document.getElementById('holder') } : {}) };
          controls = client[run.kind]![run.module]!.start({
            ...options,
            started: (result: unknown) => {
              outcome.calls.push('started');
              outcome.started = result;
              if (run.cancelWhenStarted) setTimeout(() => controls?.cancel(), 0);
            },
            success: (result: unknown) => {
              outcome.calls.push('success');
              outcome.result = result;
            },
            fail: (error: { message: string; isCancel?: boolean; userMessage?: string; userDetails?: unknown; code?: unknown; details?: unknown }) => {
              outcome.calls.push('fail');
              outcome.error = { message: String(error?.message), isCancel: error?.isCancel, userMessage: error?.userMessage, userDetails: error?.userDetails, code: error?.code, details: error?.details };
            },
            finished: () => {
              outcome.calls.push('finished');
              resolve(outcome);
            },
            onTryComplete: (result: unknown) => outcome.tries.push(result),
            ...(run.captureRedirect ? { redirect: (context: unknown) => void (outcome.redirected = context) } : {}),
            confirmationCodeRequest: (_result: unknown, answer: (code: string) => void) => {
              outcome.calls.push('confirmationCodeRequest');
              const exposed = (window as unknown as { confirmationCode?: () => Promise<string> }).confirmationCode;
              if (run.confirmationCode === 'exposed' && exposed) void exposed().then(answer);
              else answer(run.confirmationCode ?? '');
            },
          });
        } catch (error) {
          resolve({ calls: [], tries: [], thrown: (error as Error).message });
        }
      }),
    request,
  );
}

/** A headless station, an integrator page on another port with both clients loaded, and Chromium on that page. */
export interface ClientTestbed {
  station: TestStation;
  integrator: Integrator;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * Starts the testbed with client `shop` registered for the integrator's origin (secret `secret`, redirect URI
 * `<integrator>/back`). `sandboxTimings` shortens the simulated users' delays.
 */
export async function startClientTestbed(options: { secret: string; sandboxTimings?: { userActionMs: number; userTimeoutMs: number } }): Promise<ClientTestbed> {
  const station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } }, options.sandboxTimings ? { tuning: { sandboxTimings: options.sandboxTimings } } : {});
  const integrator = await startIntegrator({ scripts: [`${station.baseUrl}/client/service-browser-client.js`] });
  await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [integrator.origin], redirectUris: [`${integrator.origin}/back`] }, Buffer.from(options.secret));
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(`${integrator.origin}/`);
  return {
    station,
    integrator,
    browser,
    page,
    close: async () => {
      await browser.close();
      await integrator.close();
      await station.dispose();
    },
  };
}
