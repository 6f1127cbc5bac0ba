import { randomUUID } from 'node:crypto';
import { pinoHttp } from 'pino-http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { SECRET_NAMES, type Logger } from '../logging/index.ts';
import { decodeFormComponent } from '../text/form-encoding.ts';
import type { RequestScope } from '../telemetry/request-scope.ts';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** A name as compared here: lower case, letters and digits only (`Access-Token` and `accessToken` are access_token). */
const bare = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const SECRET_PARAMETERS: ReadonlySet<string> = new Set(SECRET_NAMES.map(bare));
/** A GraphQL document or its variables in a URL may hold any secret as a value: GET serves queries, validatePassword(password:) among them. */
const GRAPHQL_PARAMETERS: ReadonlySet<string> = new Set(['query', 'variables']);
const GRAPHQL_PATH = /^\/graphql(?:\/|$)/;

/**
 * Tokens may ride in the query string (`access_token` on /v24.0): never let them reach a log line. Each parameter's
 * name is decoded as the server decodes it (the query parser's own decoding, src/text/form-encoding.ts: `+` is a
 * space, every %-escape decoded), so `access%5Ftoken` and `%61ccess_token` are the secret they spell, and a name that
 * does not decode (the server refuses it) loses its value whatever it is; other cases and separators
 * (`ACCESS_TOKEN`, `access-token`, `accessToken`) are redacted too, although no surface accepts them. Every occurrence loses its value (a repeated parameter too),
 * up to the end of the URL (a `#` does not end a value here). Under /graphql the document and its variables lose
 * their values too.
 */
export function redactUrl(url: string | undefined): string | undefined {
  const start = url?.indexOf('?') ?? -1;
  if (url === undefined || start < 0) return url;
  const graphql = GRAPHQL_PATH.test(url.slice(0, start));
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = decodeFormComponent(pair.slice(0, equals));
      const secret = name === undefined || SECRET_PARAMETERS.has(bare(name)) || (graphql && GRAPHQL_PARAMETERS.has(bare(name)));
      return secret ? `${pair.slice(0, equals)}=[redacted]` : pair;
    });
  return `${url.slice(0, start + 1)}${pairs.join('&')}`;
}

/**
 * What a request's line says of what it did, once it is done: the caller's ids, the GraphQL operation, the error
 * codes answered and the SQL statements sent (src/telemetry/request-scope.ts). Nothing at its start.
 */
function requestOutcome(res: ServerResponse): Record<string, unknown> {
  const scope = (res as ServerResponse & { locals?: { requestScope?: RequestScope } }).locals?.requestScope;
  if (!scope) return {}; // the start: the metrics middleware, after this one, has not made it yet
  return {
    ...(scope.caller ? { caller: scope.caller } : {}),
    ...(scope.graphql ? { graphql: scope.graphql } : {}),
    ...(scope.errorCodes.length > 0 ? { errorCodes: scope.errorCodes } : {}),
    sqlStatements: scope.sqlStatements,
  };
}

/** The request id: X-Request-Id when it looks sane (a caller's id follows the request through), else a new one; echoed back. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** A request as its log lines name it (the secrets of its URL redacted). */
const requestFields = (req: { id: string; method: string; url?: string; remoteAddress?: string }) => ({
  id: req.id,
  method: req.method,
  url: redactUrl(req.url),
  remoteAddress: req.remoteAddress,
});

/**
 * One log line per request with a request id, echoed back in the X-Request-Id response header. When the level
 * writes no request lines (above info), each request gets its id and a logger of its own made on first use: what
 * logs (a warning, an error) names the request as before, and a request that logs nothing builds no child
 * logger (pino-http's two children per request, through the redaction of every binding, were a tenth of a
 * small request's time).
 */
export function httpLogging(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('info')) return quietRequests(logger);
  return pinoHttp({
    logger,
    genReqId: requestId,
    serializers: {
      req: requestFields,
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customProps: (_req, res) => requestOutcome(res),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    // The cause of a 500 is logged once, with its stack, where it is handled; this request line only says that the
    // request failed (pino-http would otherwise attach an invented "failed with status code 500" error and stack).
    customErrorObject: (_req, _res, _error, { err: _cause, ...line }) => line,
    customErrorMessage: (_req, res) => `request failed with status ${res.statusCode}`,
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
  });
}

/** A quiet request's own logger, once made (or once set by whoever replaces it). */
const OWN_LOG = Symbol('request logger');
type QuietRequest = Request & { [OWN_LOG]?: Logger };

/**
 * Request ids and per-request loggers, made on first use, for a level that writes no request lines. `req.log`
 * is one accessor on the app's request prototype (what Express makes each request inherit from), defined at the
 * first request. An accessor defined on each request (as before) was an accessor pair per request, which V8 keeps
 * in its old generation, so each request stayed reachable through every young-generation collection until a full
 * one (docs: decisions, "Apollo Server is patched"; an eighth fewer bytes promoted this way).
 */
function quietRequests(logger: Logger): RequestHandler {
  const prototypes = new WeakSet<object>();
  const lazyLog: PropertyDescriptor = {
    configurable: true,
    enumerable: true,
    get(this: QuietRequest) {
      return (this[OWN_LOG] ??= logger.child({
        req: requestFields({ id: String(this.id), method: this.method, url: this.originalUrl, remoteAddress: this.socket.remoteAddress }),
      }));
    },
    set(this: QuietRequest, value: Logger) {
      this[OWN_LOG] = value;
    },
  };
  return (req, res, next) => {
    req.id = requestId(req, res);
    const prototype = Object.getPrototypeOf(req) as object;
    if (!prototypes.has(prototype)) {
      Object.defineProperty(prototype, 'log', lazyLog);
      prototypes.add(prototype);
    }
    next();
  };
}
