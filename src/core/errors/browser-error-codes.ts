/**
 * Codes that code running in a browser raises itself: the browser client (src/client), the iframe helper page
 * (src/iframe) and the station window (src/renderer). Beside these they pass on, unchanged, the code a service
 * answered with (`passedOn`): the station's own (StationErrorCode), or, for the client talking to another
 * deployment of the service, that service's. Add a code here before raising it; never rename one.
 */
export const BROWSER_ERROR_CODES = [
  'ERR_CLIENT_CANCELLED',
  'ERR_CLIENT_COUNTRY_NOT_SUPPORTED',
  'ERR_CLIENT_FAILED',
  'ERR_CLIENT_HELPER_BLOCKED',
  'ERR_CLIENT_HELPER_UNREACHABLE',
  'ERR_CLIENT_IFRAME',
  'ERR_CLIENT_NETWORK',
  'ERR_CLIENT_NO_IFRAME_URL',
  'ERR_CLIENT_NO_PUBLIC_KEY',
  'ERR_CLIENT_NO_SIGNATURE',
  'ERR_CLIENT_PROVIDER_REFUSED',
  'ERR_CLIENT_TIMEOUT',
  'ERR_CLIENT_TOO_LONG_TO_ENCRYPT',
  'ERR_CLIENT_ORIGIN_NOT_REGISTERED',
  'ERR_CLIENT_SCRIPT_UNAVAILABLE',

  'ERR_IFRAME_BUSY',
  'ERR_IFRAME_FAILED',
  'ERR_IFRAME_NOTHING_TO_SIGN',
  'ERR_IFRAME_STATION_UNREACHABLE',

  /** An error answer without a JSON body (a proxy, a crash): only its HTTP status is known. */
  'ERR_HTTP',
  /** A JSON error answer without a code. */
  'ERR_UNKNOWN',
] as const;

/** The client names a service's bare HTTP failure by its status, as the published client's callers see it. */
export type BrowserErrorCode = (typeof BROWSER_ERROR_CODES)[number] | `ERR_CLIENT_HTTP_${number}`;

declare const passedOnBrand: unique symbol;
/** A code a service answered with, carried on unchanged. */
export type PassedOnErrorCode = string & { readonly [passedOnBrand]: true };

/** Marks a service's own code as passed on: the one way a code not in BROWSER_ERROR_CODES reaches an error. */
export function passedOn(code: string): PassedOnErrorCode {
  return code as PassedOnErrorCode;
}
