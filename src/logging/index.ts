import { pino, type Logger } from 'pino';
import type { LogLevel } from './levels.ts';

export type { Logger };

/** Names whose values are secrets wherever they appear: a property of anything logged, or a query parameter of a URL. */
export const SECRET_NAMES = [
  'password',
  'client_secret',
  'session_token',
  'access_token',
  'one_time_passcode',
  'token',
  'verify_token',
  'signing_secret',
] as const;

/**
 * Structured JSON logs. Anything that could carry a secret is redacted by path, and request URLs are
 * logged without the values of their secret query parameters (see src/server/http-logging.ts).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["service-session-token"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_NAMES.map((name) => `*.${name}`),
];

export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { service: 'adgraph' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination as pino.DestinationStream | undefined,
  );
}
