/**
 * How long the simulated user takes, as in the providers' own demo environments (the demo app confirms a few
 * seconds after the request). Tests may shorten them; the message sequence stays the same.
 */
export interface SandboxTimings {
  /** From start until the simulated user confirms or refuses. */
  userActionMs: number;
  /** From start until a never-answering user times out (the provider's session timeout). */
  userTimeoutMs: number;
}

export const DEFAULT_SANDBOX_TIMINGS: SandboxTimings = { userActionMs: 3_000, userTimeoutMs: 60_000 };
