import sjson from 'secure-json-parse';
import { StationError } from '../../../core/errors/station-error.js';

/** How a route scope turns a request body of one media type into `request.body`. */
export interface BodyParser {
  /** Largest body read for this media type unless the route sets its own `bodyLimit`; default: the server's. */
  readonly limit?: number;
  /** Leaves the body unread in the request stream, for a route that hands the stream on (oidc-provider). */
  readonly streamed?: boolean;
  /** From the whole body, read up to the limit; default: the bytes themselves. */
  parse?(body: Buffer): unknown;
}

/**
 * JSON, with `__proto__` and `constructor.prototype` keys refused: a parsed body is merged into objects here and
 * there, and such a key would reach a prototype.
 */
export const jsonBodyParser: BodyParser = {
  parse(body) {
    if (body.length === 0) throw new StationError('ERR_INPUT_INVALID', 'The request body is empty; JSON was expected.', { status: 400 });
    try {
      return sjson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (cause) {
      throw new StationError('ERR_INPUT_INVALID', 'The request body is not valid JSON.', { status: 400, cause });
    }
  },
};

export const textBodyParser: BodyParser = { parse: (body) => body.toString('utf8') };

/** Every route scope starts with these (a scope may add others, or drop them for its own). */
export const DEFAULT_BODY_PARSERS: ReadonlyMap<string, BodyParser> = new Map([
  ['application/json', jsonBodyParser],
  ['text/plain', textBodyParser],
]);
