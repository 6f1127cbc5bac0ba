import { pino, type Logger } from 'pino';
import type { LogLevel } from './levels.ts';

export type { Logger };

/**
 * Structured JSON logs. Anything that could carry a secret is redacted by path, and request URLs are
 * logged without their query string's `access_token` (see src/server/http-logging.ts).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["service-session-token"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.session_token',
  '*.access_token',
  '*.one_time_passcode',
  '*.token',
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
