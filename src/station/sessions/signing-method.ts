/**
 * One way of signing a prepared document through the browser-facing endpoints: `POST /api/signatures/start-signing`
 * picks the method by the `sign_type` it is sent, `POST /api/signatures/<path>/complete` by the path. The two do
 * not always match (the published browser client sends `sign_type:"smart-id"` and polls `sk-smart-id/complete`), so
 * each method lists both. Bodies arrive unparsed: each method validates its own with its own schema.
 */
export interface SigningMethod {
  readonly signTypes: readonly string[];
  readonly completePaths: readonly string[];
  start(body: unknown, context: SigningRequestContext): Promise<Record<string, unknown>>;
  complete(completePath: string, body: unknown, context: SigningRequestContext): Promise<Record<string, unknown>>;
  /** `POST /api/signatures/<path>/continue`, for providers with a step between start and complete (Icelandic app). */
  continue?(completePath: string, body: unknown, context: SigningRequestContext): Promise<Record<string, unknown>>;
}

/** What a method may know of the HTTP request: the browser-set Origin, shown in consent prompts. */
export interface SigningRequestContext {
  readonly origin: string | undefined;
  /** Aborted when the caller goes away, so a pending prompt can be withdrawn. */
  readonly signal: AbortSignal;
}
