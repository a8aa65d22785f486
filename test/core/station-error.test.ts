import { describe, expect, it } from 'vitest';
import { StationError } from '../../src/core/errors/station-error.js';
import { InvalidInputError } from '../../src/core/errors/invalid-input-error.js';
import { STATION_ERROR_CODES } from '../../src/core/errors/station-error-codes.js';
import { BROWSER_ERROR_CODES, passedOn } from '../../src/core/errors/browser-error-codes.js';
import { ClientError } from '../../src/client/client-error.js';

describe('StationError', () => {
  it('carries a stable code, an HTTP status and whether a retry helps', () => {
    const error = new StationError('ERR_TSA_CLIENT_UNREACHABLE', 'it failed', { status: 503, retriable: true });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('StationError');
    expect(error.toJSON()).toEqual({ code: 'ERR_TSA_CLIENT_UNREACHABLE', message: 'it failed', retriable: true });
    expect(error.status).toBe(503);
  });

  it('defaults to a non-retriable 500 and names subclasses', () => {
    const input = new InvalidInputError('bad', { field: ['required'] });
    expect(input.name).toBe('InvalidInputError');
    expect(input.status).toBe(400);
    expect(input.details).toEqual({ errors: { field: ['required'] } });
    expect(new StationError('ERR_INTERNAL', 'x').status).toBe(500);
  });
});

describe('STATION_ERROR_CODES', () => {
  it('lists each code once, each ERR_<AREA>_<REASON> but ERR_INTERNAL (the station\'s own fault, any area)', () => {
    expect(new Set(STATION_ERROR_CODES).size).toBe(STATION_ERROR_CODES.length);
    const areaCodes = STATION_ERROR_CODES.filter((code) => code !== 'ERR_INTERNAL');
    expect(areaCodes).toHaveLength(STATION_ERROR_CODES.length - 1);
    for (const code of areaCodes) expect(code).toMatch(/^ERR_[A-Z0-9]+_[A-Z0-9_]+$/);
  });

  it('types StationError codes: an unlisted code does not compile', () => {
    // @ts-expect-error ERR_MADE_UP is not a station error code; `npm run typecheck` fails if this line compiles.
    expect(new StationError('ERR_MADE_UP', 'x').code).toBe('ERR_MADE_UP');
  });
});

describe('BROWSER_ERROR_CODES', () => {
  it('lists each code once, none of them a station code, so a code says which side raised it', () => {
    expect(new Set(BROWSER_ERROR_CODES).size).toBe(BROWSER_ERROR_CODES.length);
    for (const code of BROWSER_ERROR_CODES) expect((STATION_ERROR_CODES as readonly string[]).includes(code), code).toBe(false);
  });

  it('types the client’s errors: an unlisted code compiles only when passed on from a service', () => {
    // @ts-expect-error ERR_CLIENT_MADE_UP is not a browser error code; `npm run typecheck` fails if this line compiles.
    expect(new ClientError('ERR_CLIENT_MADE_UP', 'x').code).toBe('ERR_CLIENT_MADE_UP');
    expect(new ClientError(passedOn('ERR_SESSION_EXPIRED'), 'x').code).toBe('ERR_SESSION_EXPIRED');
    expect(new ClientError('ERR_CLIENT_HTTP_502', 'x').code).toBe('ERR_CLIENT_HTTP_502');
  });
});
