import cors, { type CorsOptions } from 'cors';
import type { RequestHandler } from 'express';
import type { CorsSettings } from '../config/cors.ts';

/**
 * Request headers a page on an allowed origin may send: the credentials (Service-Session-Token, Authorization),
 * the body's type, Apollo's CSRF-prevention headers (src/graphql/server.ts), and a request id of the caller's own.
 */
export const CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'Service-Session-Token',
  'apollo-require-preflight',
  'X-Apollo-Operation-Name',
  'X-Request-Id',
];

/**
 * Response headers a page may read besides the CORS-safelisted ones: why a token was refused, when to retry,
 * the request id to quote, and /v24.0's usage and trace headers, as the Graph API exposes them.
 */
export const CORS_RESPONSE_HEADERS = ['WWW-Authenticate', 'Retry-After', 'X-Request-Id', 'X-Business-Use-Case-Usage', 'x-fb-trace-id'];

/** The API surfaces a browser page may call: GraphQL, the identity API, the OAuth endpoints and /v<version>. */
export function isCorsSurface(path: string): boolean {
  return /^\/(?:graphql|api\/v2|oauth2|\.well-known)(?:\/|$)|^\/v[^/]*(?:\/|$)/.test(path);
}

/**
 * CORS for the API surfaces (the `cors` package writes the headers). A listed origin gets them; any other gets
 * none, so its browser keeps the answer from the page. Every OPTIONS request to a surface is a preflight and
 * is answered 204 here, whether or not the origin is allowed (before, the routes answered 404 or 405).
 */
export function corsForApi(settings: CorsSettings): RequestHandler {
  const allowed = (origin: string | undefined) => settings.origins === '*' || (origin !== undefined && settings.origins.includes(origin));
  const headers = cors({
    // Only called for an allowed origin (below), so `true` (echo the request's Origin) never echoes another.
    origin: settings.origins === '*' ? '*' : true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: CORS_RESPONSE_HEADERS,
    credentials: settings.credentials,
    maxAge: settings.maxAgeSeconds,
    optionsSuccessStatus: 204,
  } satisfies CorsOptions);
  return (req, res, next) => {
    if (!isCorsSurface(req.path)) return next();
    if (allowed(req.headers.origin)) return headers(req, res, next);
    // The answer depends on Origin: a shared cache must not hand one origin's answer to another.
    res.vary('Origin');
    if (req.method === 'OPTIONS') return void res.status(204).end();
    next();
  };
}
