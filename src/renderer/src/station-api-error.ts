/** An error answered by the station, rebuilt with its stable code and field errors. */
export class StationApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'StationApiError';
  }
}
