/**
 * pino's levels, most verbose first; `silent` logs nothing. Apart from ./index.ts so that reading the
 * configuration (src/config) does not load pino.
 */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
