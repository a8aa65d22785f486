import type { IdentifiedPerson, IdentityStartResponse } from '../../core/schemas/identity-api.js';

export interface IdentityBeginRequest {
  idcode?: string | undefined;
  phone?: string | undefined;
  country?: string | undefined;
  lang?: string | undefined;
}

export interface IdentityContext {
  clientId: string;
  /** Who asks, as shown in the station's own prompts (client id, and the web origin when there is one). */
  requester: string;
}

/** A started identification: what to show the user now, and the result once the user has acted. */
export interface IdentityAttempt {
  response: Omit<IdentityStartResponse, 'token'>;
  outcome: Promise<IdentifiedPerson>;
  /** Stops waiting for the user (session expired or abandoned). */
  cancel(): void;
  /** For methods whose proof arrives with complete (Web eID's authentication token): hands it over. */
  present?(evidence: Readonly<Record<string, unknown>>): Promise<void>;
}

/**
 * One way of identifying a person. `sandbox` methods simulate a provider that lives elsewhere and are refused in
 * production mode; `local` methods use the station's own hardware and are real in every mode.
 */
export interface IdentityMethod {
  readonly code: string;
  readonly label: string;
  readonly kind: 'sandbox' | 'local';
  /** The start fields this method needs, so forms (login page) ask for exactly these. */
  readonly inputs: ReadonlyArray<'idcode' | 'phone'>;
  /** False for methods whose proof comes from the client's own web page (Web eID): not on the station's login page. */
  readonly onLoginPage?: false;
  /**
   * How long complete waits for the user when the caller names no `timeout`: callers that complete once instead of
   * polling (the published client's ID-card finish) need the answer, not RUNNING. Default 0.
   */
  readonly completeWaitMs?: number;
  begin(request: IdentityBeginRequest, context: IdentityContext): Promise<IdentityAttempt>;
}
