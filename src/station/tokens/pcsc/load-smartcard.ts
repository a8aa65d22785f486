import { createRequire } from 'node:module';
import type * as Smartcard from 'smartcard';
import { PcscUnavailableError } from './pcsc-unavailable-error.js';

export type SmartcardModule = typeof Smartcard;

/**
 * Which module provides PC/SC: `smartcard` unless SIGNING_STATION_SMARTCARD_MODULE names another (a packager's
 * own build, or a missing one in the tests that prove the station runs without PC/SC).
 */
const SMARTCARD_MODULE_VARIABLE = 'SIGNING_STATION_SMARTCARD_MODULE';

let loaded: { module: SmartcardModule } | { error: PcscUnavailableError } | undefined;

/**
 * The `smartcard` package, loaded on first use. It is an optional dependency with a native part built against
 * pcsc-lite: where that build failed at install time (no libpcsclite-dev) or the library is missing at run time,
 * PC/SC is reported unavailable with what to install, and everything else in the station works. Loading it
 * lazily also keeps its native library and thread out of the start of a station that never sees a reader.
 */
export function loadSmartcard(): SmartcardModule {
  loaded ??= tryLoad(process.env[SMARTCARD_MODULE_VARIABLE] || 'smartcard');
  if ('error' in loaded) throw loaded.error;
  return loaded.module;
}

function tryLoad(specifier: string): { module: SmartcardModule } | { error: PcscUnavailableError } {
  try {
    return { module: createRequire(import.meta.url)(specifier) as SmartcardModule };
  } catch (error) {
    return { error: new PcscUnavailableError(specifier, error) };
  }
}
