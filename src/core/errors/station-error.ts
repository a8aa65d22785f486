import type { StationErrorCode } from './station-error-codes.js';

export type { StationErrorCode };

export interface StationErrorOptions {
  /** HTTP status a JSON boundary answers with; 500 when the error is the station's own fault. */
  status?: number;
  /** True when the same call may succeed later without the caller changing anything (card removed, service down). */
  retriable?: boolean;
  /** Field-level details safe to show to the caller (never secrets, PINs or document bytes). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The one error family of the station. Every boundary (HTTP JSON, OAuth, TSA, IPC, CLI) maps it once.
 * Caller mistakes in code (wrong argument types) are TypeError instead.
 */
export class StationError extends Error {
  readonly code: StationErrorCode;
  readonly status: number;
  readonly retriable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: StationErrorCode, message: string, options: StationErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = options.status ?? 500;
    this.retriable = options.retriable ?? false;
    this.details = options.details;
  }

  toJSON(): { code: StationErrorCode; message: string; retriable: boolean; details?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      retriable: this.retriable,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export function isStationError(value: unknown): value is StationError {
  return value instanceof StationError;
}
