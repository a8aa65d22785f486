// The browser client's IIFE entry: `window.serviceBrowserClient`, as integrators' pages use it.
import { createClient, version } from './index.js';

export * from './index.js';

declare global {
  interface Window {
    serviceBrowserClient: { createClient: typeof createClient; version: string };
  }
}

window.serviceBrowserClient = Object.freeze({ createClient, version });

// Opt-in, for pages that swap only the script tag: `<script src=".../service-browser-client.js"
// data-global="eidEasyBrowserClient">` also answers to the published client's global name. Never over a client
// already there, and under no other name, so a script tag cannot make the client clobber the page's globals.
const alias = (document.currentScript as HTMLScriptElement | null)?.dataset.global;
if (alias === 'eidEasyBrowserClient' && !(alias in window)) Object.assign(window, { [alias]: window.serviceBrowserClient });
