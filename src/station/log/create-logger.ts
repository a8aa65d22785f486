import { pino, type Logger, type DestinationStream } from 'pino';

/**
 * Structured JSON logs on stderr (stdout is the CLI's own output). Secrets never reach them: request logs carry
 * the path without its query string (one-time UI tokens, OAuth codes), headers are not logged, and known secret
 * fields are redacted wherever they appear.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      base: { name: 'signing-station' },
      redact: {
        paths: ['pin', 'secret', 'password', 'client_secret', 'client_assertion', 'token', '*.pin', '*.secret', '*.password', '*.client_secret', '*.client_assertion', '*.authorization', '*.cookie'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method?: string; url?: string; ip?: string }) => ({
          method: req.method,
          path: req.url?.split('?')[0],
          ip: req.ip,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination,
  );
}
