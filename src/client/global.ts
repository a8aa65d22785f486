// The browser client's IIFE entry: `window.serviceBrowserClient`, as integrators' pages use it.
import { createClient, version } from './index.js';

export * from './index.js';

declare global {
  interface Window {
    serviceBrowserClient: { createClient: typeof createClient; version: string };
  }
}

window.serviceBrowserClient = Object.freeze({ createClient, version });
