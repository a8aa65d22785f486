import { pino, type Logger } from 'pino';
import { createLogger } from '../../../src/station/log/create-logger.js';

/**
 * The logger `signing-station serve` has by default (level info), writing to /dev/null: a benchmarked station pays
 * for its logging as the shipped one does, where the test stations log nothing at all.
 */
export function serveDefaultLogger(): Logger {
  return createLogger('info', pino.destination('/dev/null'));
}
