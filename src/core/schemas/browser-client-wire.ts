/**
 * What the browser client and the service exchange over HTTP, as plain types (the client ships to web pages and
 * carries no schema library; the station validates the same bodies with its zod schemas). The bodies:
 * docs/service-interface.md.
 */

/** Statuses the client keeps polling on. */
export const PENDING_STATUSES = ['RUNNING', 'IN_PROGRESS'] as const;

/** Any answer of the service: `status` plus method-specific members (challenge, token, redirect_uri, person...). */
export interface ServiceAnswer {
  status?: string;
  message?: string;
  code?: string;
  errors?: Record<string, string[]>;
  [member: string]: unknown;
}

/** After a wrong PIN: what the token said of the tries left (a count where it tells one, else its flags). */
export interface WrongPin {
  wrong: true;
  retriesLeft?: number;
  countLow: boolean;
  finalTry: boolean;
}

/** The body every call carries (the published client's header set, which every CORS preflight must allow). */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  Accept: 'application/json',
  'Cache-Control': 'no-cache',
};

/** One entry of `getAllMethods()`. */
export interface MethodDescription {
  actionType: string;
  handlingModule: string;
  supportedCountries: string[];
}
