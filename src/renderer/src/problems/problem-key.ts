import type { StationErrorCode } from '../../../core/errors/station-error-codes.js';
import type { BROWSER_ERROR_CODES } from '../../../core/errors/browser-error-codes.js';
import type { MessageKey } from '../i18n/messages-en.js';

/** The plain-words messages: what went wrong and what to do. */
export type ProblemKey = Extract<MessageKey, `problem.${string}`>;

/**
 * Every error code the station or the browser code can raise, to the message a person reads. Typed over the whole
 * closed union, so a new code does not build until it is given words; several codes share a message where the
 * person's next step is the same.
 */
const PROBLEM_KEYS: Readonly<Record<StationErrorCode | (typeof BROWSER_ERROR_CODES)[number], ProblemKey>> = {
  ERR_CLIENT_AUTH_FAILED: 'problem.station',
  ERR_CLIENT_EXISTS: 'problem.clientExists',
  ERR_CLIENT_FILE_NOT_FOUND: 'problem.station',
  ERR_CLIENT_NOT_BUILT: 'problem.station',
  ERR_CLIENT_NOT_FOUND: 'problem.notFound',

  ERR_CONFIG_DATA_DIR_UNWRITABLE: 'problem.station',
  ERR_CONFIG_INVALID: 'problem.station',
  ERR_CONFIG_TRUSTED_ISSUERS: 'problem.notTrusted',
  ERR_CONFIG_UNREADABLE: 'problem.station',

  ERR_CONTAINER_ENTRY_TOO_LARGE: 'problem.tooLarge',

  ERR_DESK_NOT_SIGNED: 'problem.interrupted',

  ERR_DOCS_NOT_FOUND: 'problem.notFound',

  ERR_HTTP_BAD_REQUEST: 'problem.input',
  ERR_HTTP_BODY_TOO_LARGE: 'problem.tooLarge',
  ERR_HTTP_BUSY: 'problem.busy',
  ERR_HTTP_HOST_FORBIDDEN: 'problem.link',
  ERR_HTTP_NOT_FOUND: 'problem.notFound',
  ERR_HTTP_ORIGIN_FORBIDDEN: 'problem.link',
  ERR_HTTP_ORIGIN_REQUIRED: 'problem.link',
  ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: 'problem.internal',

  ERR_IDENTITY_ACCOUNT_NOT_FOUND: 'problem.accountNotFound',
  ERR_IDENTITY_CANCELLED: 'problem.cancelled',
  ERR_IDENTITY_CERTIFICATE_EXPIRED: 'problem.certificateNotValid',
  ERR_IDENTITY_CERTIFICATE_UNSUPPORTED: 'problem.certificateUnusable',
  ERR_IDENTITY_CLIENT_UNAUTHENTICATED: 'problem.station',
  ERR_IDENTITY_FAILED: 'problem.failed',
  ERR_IDENTITY_ISSUER_NOT_TRUSTED: 'problem.notTrusted',
  ERR_IDENTITY_METHOD_UNKNOWN: 'problem.methodUnavailable',
  ERR_IDENTITY_NOT_MID_CLIENT: 'problem.methodUnavailable',
  ERR_IDENTITY_NO_AUTH_CERTIFICATE: 'problem.certificateUnusable',
  ERR_IDENTITY_SANDBOX_ONLY: 'problem.sandboxOnly',
  ERR_IDENTITY_SESSION_EXPIRED: 'problem.timeout',
  ERR_IDENTITY_SESSION_NOT_FOUND: 'problem.interrupted',
  ERR_IDENTITY_SIGNATURE_INVALID: 'problem.failed',
  ERR_IDENTITY_TIMEOUT: 'problem.timeout',
  ERR_IDENTITY_TOKEN_INVALID: 'problem.failed',
  ERR_IDENTITY_TRUST_NOT_CONFIGURED: 'problem.notTrusted',
  ERR_IDENTITY_USER_REFUSED: 'problem.cancelled',

  ERR_IFRAME_CERTIFICATE_ABSENT: 'problem.certificateUnusable',
  ERR_IFRAME_CLIENT_UNKNOWN: 'problem.station',
  ERR_IFRAME_DIGEST_UNKNOWN: 'problem.interrupted',
  ERR_IFRAME_NOT_BUILT: 'problem.station',
  ERR_IFRAME_NO_CERTIFICATE: 'problem.noCertificate',
  ERR_IFRAME_ORIGIN_FORBIDDEN: 'problem.link',
  ERR_IFRAME_TICKET_UNKNOWN: 'problem.interrupted',

  ERR_INPUT_INVALID: 'problem.input',

  ERR_INTEGRATOR_NO_SECRET: 'problem.station',
  ERR_INTEGRATOR_SERVICE_BAD_RESPONSE: 'problem.serviceUnreachable',
  ERR_INTEGRATOR_SERVICE_UNREACHABLE: 'problem.serviceUnreachable',

  ERR_INTERNAL: 'problem.internal',

  ERR_KEYCHAIN_KEY_FILE_DAMAGED: 'problem.station',
  ERR_KEYCHAIN_UNAVAILABLE: 'problem.station',

  ERR_OIDC_INTERACTION_MISMATCH: 'problem.interrupted',
  ERR_OIDC_NO_SESSION: 'problem.interrupted',
  ERR_OIDC_SANDBOX_ONLY: 'problem.sandboxOnly',
  ERR_OIDC_SIGNING_KEY_MISSING: 'problem.station',

  ERR_OUTPUT_EXISTS: 'problem.output',
  ERR_OUTPUT_UNWRITABLE: 'problem.output',

  ERR_PCSC_CARD_STATUS: 'problem.tokenUnreachable',
  ERR_PCSC_SERVICE_NOT_RUNNING: 'problem.readerService',
  ERR_PCSC_UNAVAILABLE: 'problem.readerService',
  ERR_PCSC_UNKNOWN_CARD: 'problem.tokenUnknown',

  ERR_PROMPT_NOT_FOUND: 'problem.interrupted',
  ERR_PROMPT_TOO_MANY: 'problem.busy',

  ERR_REASON_MISMATCH: 'problem.reason',
  ERR_REASON_NOT_ACCEPTED: 'problem.reason',
  ERR_REASON_NOT_SET: 'problem.reason',

  ERR_SANDBOX_ONLY: 'problem.sandboxOnly',

  ERR_SERVER_PORT_FORBIDDEN: 'problem.station',
  ERR_SERVER_PORT_IN_USE: 'problem.station',

  ERR_SESSION_EXPIRED: 'problem.timeout',
  ERR_SESSION_NOT_FOUND: 'problem.interrupted',
  ERR_SESSION_NOT_SIGNED: 'problem.interrupted',

  ERR_SIGNING_ACCOUNT_NOT_FOUND: 'problem.accountNotFound',
  ERR_SIGNING_CERTIFICATE_REVOKED: 'problem.certificateRevoked',
  ERR_SIGNING_CERTIFIED_NO_CHANGES: 'problem.certifiedNoChanges',
  ERR_SIGNING_CODE_NOT_SENT: 'problem.failed',
  ERR_SIGNING_DECLINED: 'problem.cancelled',
  ERR_SIGNING_DISK_FULL: 'problem.diskFull',
  ERR_SIGNING_DOCUMENT_CHANGED: 'problem.documentChanged',
  ERR_SIGNING_INVALID_PLACEMENT: 'problem.placement',
  ERR_SIGNING_METHOD_UNKNOWN: 'problem.methodUnavailable',
  ERR_SIGNING_NOT_MID_CLIENT: 'problem.methodUnavailable',
  ERR_SIGNING_NOT_STARTED: 'problem.interrupted',
  ERR_SIGNING_NO_CONTINUE: 'problem.interrupted',
  ERR_SIGNING_OUTPUT_EXISTS: 'problem.output',
  ERR_SIGNING_PKCS12_UNREADABLE: 'problem.certificateUnusable',
  ERR_SIGNING_REVOCATION_UNAVAILABLE: 'problem.revocationUnavailable',
  ERR_SIGNING_SANDBOX_ONLY: 'problem.sandboxOnly',
  ERR_SIGNING_SESSION_EXPIRED: 'problem.timeout',
  ERR_SIGNING_SESSION_NOT_FOUND: 'problem.interrupted',
  ERR_SIGNING_SIGNATURE_INVALID: 'problem.failed',
  ERR_SIGNING_SIGNATURE_TOO_LARGE: 'problem.tooLarge',
  ERR_SIGNING_TIMEOUT: 'problem.timeout',
  ERR_SIGNING_TIMESTAMP_FAILED: 'problem.timestampFailed',
  ERR_SIGNING_UNSUPPORTED_DOCUMENT: 'problem.documentUnsupported',
  ERR_SIGNING_UNSUPPORTED_SIGNER: 'problem.certificateUnusable',
  ERR_SIGNING_USER_REFUSED: 'problem.cancelled',

  ERR_STORE_DAMAGED: 'problem.station',
  ERR_STORE_DISK_FULL: 'problem.diskFull',
  ERR_STORE_FAILED: 'problem.station',
  ERR_STORE_IN_USE: 'problem.busy',
  ERR_STORE_MISMATCH: 'problem.station',
  ERR_STORE_MISSING: 'problem.station',

  ERR_TOKEN_CERTIFICATE_NOT_FOUND: 'problem.certificateUnusable',
  ERR_TOKEN_CERTIFICATE_NOT_VALID: 'problem.certificateNotValid',
  ERR_TOKEN_KEY_NOT_FOUND: 'problem.certificateUnusable',
  ERR_TOKEN_KEY_UNSUPPORTED: 'problem.certificateUnusable',
  ERR_TOKEN_KEY_USAGE: 'problem.certificateUnusable',
  ERR_TOKEN_MECHANISM_REFUSED: 'problem.certificateUnusable',
  ERR_TOKEN_MODULE_NOT_FOUND: 'problem.module',
  ERR_TOKEN_MODULE_NOT_TRUSTED: 'problem.module',
  ERR_TOKEN_MODULE_UNSAFE_PATH: 'problem.module',
  ERR_TOKEN_NOT_FOUND: 'problem.tokenUnreachable',
  ERR_TOKEN_NOT_INITIALIZED: 'problem.tokenUnknown',
  ERR_TOKEN_NOT_RECOGNISED: 'problem.tokenUnknown',
  ERR_TOKEN_PIN_EMPTY: 'problem.pinWrong',
  ERR_TOKEN_PIN_EXPIRED: 'problem.pinLocked',
  ERR_TOKEN_PIN_FORMAT: 'problem.pinWrong',
  ERR_TOKEN_PIN_INCORRECT: 'problem.pinWrong',
  ERR_TOKEN_PIN_LOCKED: 'problem.pinLocked',
  ERR_TOKEN_PIN_REQUIRED: 'problem.pinWrong',
  ERR_TOKEN_REMOVED: 'problem.tokenUnreachable',
  ERR_TOKEN_SCHEME_MISMATCH: 'problem.certificateUnusable',
  ERR_TOKEN_UNAVAILABLE: 'problem.tokenUnreachable',
  ERR_TOKEN_USER_CANCELLED: 'problem.cancelled',

  ERR_TSA_ADD_INFO_NOT_AVAILABLE: 'problem.timestampFailed',
  ERR_TSA_BAD_ALG: 'problem.timestampFailed',
  ERR_TSA_BAD_DATA_FORMAT: 'problem.timestampFailed',
  ERR_TSA_BAD_REQUEST: 'problem.timestampFailed',
  ERR_TSA_CERTIFICATE_INVALID: 'problem.timestampAuthority',
  ERR_TSA_CLIENT_BAD_RESPONSE: 'problem.timestampFailed',
  ERR_TSA_CLIENT_HTTP: 'problem.timestampFailed',
  ERR_TSA_CLIENT_MISMATCH: 'problem.timestampFailed',
  ERR_TSA_CLIENT_REJECTED: 'problem.timestampFailed',
  ERR_TSA_CLIENT_UNREACHABLE: 'problem.timestampFailed',
  ERR_TSA_FORBIDDEN: 'problem.timestampFailed',
  ERR_TSA_IDENTITY_MISSING: 'problem.timestampAuthority',
  ERR_TSA_KEY_MISMATCH: 'problem.timestampAuthority',
  ERR_TSA_KEY_MISSING: 'problem.timestampAuthority',
  ERR_TSA_SIGNER_FAILED: 'problem.timestampAuthority',
  ERR_TSA_SYSTEM_FAILURE: 'problem.timestampFailed',
  ERR_TSA_TIME_NOT_AVAILABLE: 'problem.timestampFailed',
  ERR_TSA_TOKEN_AMBIGUOUS: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_CERTIFICATE_NOT_FOUND: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_CHAIN_INVALID: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_NOT_FOUND: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_PINPAD: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_PIN_FINAL_TRY: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_PIN_INCORRECT: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_PIN_LOCKED: 'problem.timestampAuthority',
  ERR_TSA_TOKEN_PIN_MISSING: 'problem.timestampAuthority',
  ERR_TSA_UNACCEPTED_EXTENSION: 'problem.timestampFailed',
  ERR_TSA_UNACCEPTED_POLICY: 'problem.timestampFailed',

  ERR_UI_CONTROL_FORBIDDEN: 'problem.link',
  ERR_UI_NOT_BUILT: 'problem.station',
  ERR_UI_SESSION_REQUIRED: 'problem.link',
  ERR_UI_STATION_NOT_RUNNING: 'problem.unreachable',
  ERR_UI_TOKEN_INVALID: 'problem.link',

  ERR_VAULT_MASTER_KEY_INVALID: 'problem.station',
  ERR_VAULT_MASTER_KEY_MISSING: 'problem.station',
  ERR_VAULT_SECRET_CORRUPT: 'problem.station',

  ERR_VERIFY_UNSUPPORTED: 'problem.verifyUnsupported',

  ERR_CLIENT_CANCELLED: 'problem.cancelled',
  ERR_CLIENT_COUNTRY_NOT_SUPPORTED: 'problem.methodUnavailable',
  ERR_CLIENT_FAILED: 'problem.failed',
  ERR_CLIENT_HELPER_BLOCKED: 'problem.unreachable',
  ERR_CLIENT_HELPER_UNREACHABLE: 'problem.unreachable',
  ERR_CLIENT_IFRAME: 'problem.internal',
  ERR_CLIENT_NETWORK: 'problem.unreachable',
  ERR_CLIENT_NO_IFRAME_URL: 'problem.internal',
  ERR_CLIENT_NO_PUBLIC_KEY: 'problem.certificateUnusable',
  ERR_CLIENT_NO_SIGNATURE: 'problem.failed',
  ERR_CLIENT_PROVIDER_REFUSED: 'problem.failed',
  ERR_CLIENT_TIMEOUT: 'problem.timeout',
  ERR_CLIENT_TOO_LONG_TO_ENCRYPT: 'problem.internal',

  ERR_IFRAME_BUSY: 'problem.busy',
  ERR_IFRAME_FAILED: 'problem.internal',
  ERR_IFRAME_NOTHING_TO_SIGN: 'problem.internal',
  ERR_IFRAME_STATION_UNREACHABLE: 'problem.unreachable',

  ERR_HTTP: 'problem.unreachable',
  ERR_UNKNOWN: 'problem.internal',

  ERR_CLIENT_ORIGIN_NOT_REGISTERED: 'problem.station',
  ERR_CLIENT_SCRIPT_UNAVAILABLE: 'problem.unreachable',
  ERR_DESK_SAVED_NOT_FOUND: 'problem.notFound',
  ERR_INTEGRATOR_GRANT_INVALID: 'problem.station',
  ERR_INTEGRATOR_GRANT_REUSED: 'problem.station',
  ERR_INTEGRATOR_GRANT_MISMATCH: 'problem.station',
  ERR_INTEGRATOR_NO_KEY: 'problem.station',
  ERR_INTEGRATOR_DOWNLOAD_DENIED: 'problem.station',
  ERR_SIGNING_REQUESTER_GONE: 'problem.cancelled',
  ERR_TRUST_CERTIFICATE_INVALID: 'problem.input',
  ERR_TRUST_CERTIFICATE_NOT_FOUND: 'problem.notFound',
  ERR_TRUST_LIST_FETCH_FAILED: 'problem.trustListFetch',
  ERR_TRUST_LIST_INVALID: 'problem.trustListRefused',
  ERR_TRUST_LIST_PIVOT_FAILED: 'problem.trustListRefused',
  ERR_TRUST_LIST_ROLLED_BACK: 'problem.trustListRefused',
  ERR_TRUST_LIST_SIGNATURE_INVALID: 'problem.trustListRefused',
  ERR_TRUST_LIST_TOO_LARGE: 'problem.tooLarge',
  ERR_TRUST_LIST_UNANNOUNCED: 'problem.trustListRefused',
};

/** The plain-words message for an error code; a code from elsewhere (another service's, an HTTP status) gets the general one. */
export function problemKey(code: string | undefined): ProblemKey {
  return code && Object.hasOwn(PROBLEM_KEYS, code) ? PROBLEM_KEYS[code as keyof typeof PROBLEM_KEYS] : 'problem.internal';
}
