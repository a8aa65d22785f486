import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import type { ClientError } from './client-error.js';

/** URLs the client calls, each a function as in the published client; `base` is the service. */
export interface ApiEndpoints {
  base?: () => string;
  identityStart?: () => string;
  identityFinish?: () => string;
  readCard?: () => string;
}

/** What `modifyRequestSettings` may change before a call goes out. */
export interface RequestSettings {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  withCredentials: boolean;
  data?: Record<string, unknown>;
}

export interface Result {
  data: ServiceAnswer;
}

export interface Callbacks {
  started?: (result: Result) => void;
  success?: (result: Result | undefined) => void;
  fail?: (error: ClientError) => void;
  finished?: () => void;
  /** Redirect-based methods: replaces the default navigation; receives `{data: {redirect_uri, ...}}`. */
  redirect?: (context: Result) => unknown;
  onTryComplete?: (result: Result) => void;
  confirmationCodeRequest?: (result: Result, resolve: (code: string) => void, reject: (reason?: unknown) => void) => void;
}

/** createClient(settings), as the published client takes them (docs/browser-client.md#use). */
export interface ClientSettings extends Callbacks {
  clientId: string;
  countryCode?: string;
  sandbox?: boolean;
  redirectUri?: string;
  docId?: string;
  contractId?: string;
  language?: string;
  oauthParamState?: string;
  apiEndpoints?: ApiEndpoints;
  modifyRequestSettings?: (settings: RequestSettings) => RequestSettings | void;
}

/** start(options): settings may be overridden per call, plus each module's own inputs. */
export interface StartOptions extends Partial<ClientSettings> {
  idcode?: string;
  phone?: string;
  email?: string;
  username?: string;
  password?: string;
  pin?: string;
  signingPin?: string;
  otpCode?: string;
  userId?: string;
  profileId?: string;
  name?: string;
  documentType?: string;
  smsToken?: string;
  emailToken?: string;
  /** Handwritten signing: the drawn signature (base64 image), or the same as a data: URL. */
  handwrittenSignatureData?: string;
  handwrittenSignatureDataUrl?: string;
  iframeHolder?: HTMLElement;
  /** Smart-ID signing: false (recommended) answers start at once and shows the challenge in a later poll. */
  waitForChallengeCode?: boolean;
  /** Iframe signing: the certificate to sign with, when the page already chose one. */
  signingCertificate?: string;
  /**
   * How long each request to the station's iframe helper may wait for the user, in ms (1000-600000; default the
   * flow's own limit: 360000 signing, 120000 identification): then `fail` gets ERR_CLIENT_TIMEOUT, and the station
   * withdraws that request's prompts.
   */
  helperTimeoutMs?: number;
}

export type Settings = ClientSettings & StartOptions;

const TYPES: Readonly<Record<string, string>> = {
  clientId: 'string',
  countryCode: 'string',
  sandbox: 'boolean',
  redirectUri: 'string',
  docId: 'string',
  contractId: 'string',
  language: 'string',
  oauthParamState: 'string',
  apiEndpoints: 'object',
  modifyRequestSettings: 'function',
  started: 'function',
  success: 'function',
  fail: 'function',
  finished: 'function',
  redirect: 'function',
  onTryComplete: 'function',
  confirmationCodeRequest: 'function',
  waitForChallengeCode: 'boolean',
  iframeHolder: 'object',
  helperTimeoutMs: 'number',
  ...Object.fromEntries(
    ['idcode', 'phone', 'email', 'username', 'password', 'pin', 'signingPin', 'otpCode', 'userId', 'profileId', 'name', 'documentType', 'smsToken', 'emailToken', 'handwrittenSignatureData', 'handwrittenSignatureDataUrl', 'signingCertificate'].map(
      (input) => [input, 'string'],
    ),
  ),
};

/**
 * The published client's checks and messages, which integrators' code and tests match on: a missing required
 * setting, then each present setting's type. Caller mistakes, so TypeError.
 */
export function validateSettings(settings: Settings, required: readonly string[]): void {
  const record = settings as unknown as Record<string, unknown>;
  for (const name of required) {
    if (record[name] === undefined || record[name] === null || record[name] === '') throw new TypeError(`Missing required setting "${name}"`);
  }
  for (const [name, value] of Object.entries(record)) {
    const expected = TYPES[name];
    if (expected && value !== undefined && typeof value !== expected) throw new TypeError(`Expected "${name}" to be type of "${expected}"`);
  }
}
