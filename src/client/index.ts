// The browser client's ESM entry. CLIENT_VERSION is set by the build (scripts/build-client.js).
export { createClient, type Client, type Module } from './create-client.js';
export type { ApiEndpoints, Callbacks, ClientSettings, RequestSettings, Result, StartOptions } from './client-settings.js';
export type { Controls } from './start-module.js';
export { ClientError } from './client-error.js';
/** Replaced by the build (esbuild --define) with the client package's version. */
declare const CLIENT_VERSION: string;
export const version: string = CLIENT_VERSION;
