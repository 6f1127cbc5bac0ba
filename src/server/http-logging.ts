import { randomUUID } from 'node:crypto';
import { pinoHttp } from 'pino-http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logging/index.ts';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Tokens may ride in the query string (`access_token` on /v24.0): never let them reach a log line. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(/([?&](?:access_token|client_secret|password|token)=)[^&#]*/gi, '$1[redacted]');
}

/**
 * One log line per request with a request id (taken from X-Request-Id when it looks sane, so a caller's
 * id follows the request through), echoed back in the X-Request-Id response header.
 */
export function httpLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: string; method: string; url?: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    // The cause of a 500 is logged once, with its stack, where it is handled; this request line only says that the
    // request failed (pino-http would otherwise attach an invented "failed with status code 500" error and stack).
    customErrorObject: (_req, _res, _error, { err: _cause, ...line }) => line,
    customErrorMessage: (_req, res) => `request failed with status ${res.statusCode}`,
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
  });
}
