import { describe, expect, it } from 'vitest';
import { StationError } from '../../src/core/errors/station-error.js';
import { InvalidInputError } from '../../src/core/errors/invalid-input-error.js';

describe('StationError', () => {
  it('carries a stable code, an HTTP status and whether a retry helps', () => {
    const error = new StationError('ERR_TEST_REASON', 'it failed', { status: 503, retriable: true });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('StationError');
    expect(error.toJSON()).toEqual({ code: 'ERR_TEST_REASON', message: 'it failed', retriable: true });
    expect(error.status).toBe(503);
  });

  it('defaults to a non-retriable 500 and names subclasses', () => {
    const input = new InvalidInputError('bad', { field: ['required'] });
    expect(input.name).toBe('InvalidInputError');
    expect(input.status).toBe(400);
    expect(input.details).toEqual({ errors: { field: ['required'] } });
    expect(new StationError('ERR_X_Y', 'x').status).toBe(500);
  });
});
