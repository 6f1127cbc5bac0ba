import type { ErrorRequestHandler, Response } from 'express';
import { DomainError } from '../../errors/index.ts';
import { classify, isBodyReadError } from './classify.ts';

/** RFC 6749 section 5.2: `{error, error_description}`, never cached. */
export interface OAuthErrorBody {
  error: string;
  error_description?: string;
}

export function oauthError(error: DomainError): { status: number; body: OAuthErrorBody } {
  const code =
    error.oauthError ??
    (
      {
        UNAUTHENTICATED: 'invalid_client',
        FORBIDDEN: 'unauthorized_client',
        RATE_LIMITED: 'slow_down',
        SERVICE_UNAVAILABLE: 'temporarily_unavailable',
      } as Record<string, string>
    )[error.code] ??
    'invalid_request';
  const status = code === 'invalid_client' ? 401 : error.code === 'RATE_LIMITED' ? 429 : error.code === 'SERVICE_UNAVAILABLE' ? 503 : 400;
  return { status, body: { error: code, error_description: error.message } };
}

export function setNoStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

export function sendOAuthError(res: Response, error: DomainError): void {
  const { status, body } = oauthError(error);
  setNoStore(res);
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  res.status(status).json(body);
}

/** Express error handler for the `/oauth2` router. */
export const oauthErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (isBodyReadError(error)) {
    return sendOAuthError(res, new DomainError('BAD_USER_INPUT', 'The request body could not be read.', { oauthError: 'invalid_request' }));
  }
  const known = classify(error);
  if (known) {
    // RFC 6749 section 5.2: a failed Basic authentication answers with the scheme it expects.
    if (known.oauthError === 'invalid_client' && /^Basic\s/i.test(req.headers.authorization ?? '')) {
      res.setHeader('WWW-Authenticate', 'Basic realm="adgraph", charset="UTF-8"');
    }
    return sendOAuthError(res, known);
  }
  req.log.error({ err: error }, 'unexpected error');
  setNoStore(res);
  res.status(500).json({ error: 'server_error', error_description: 'An internal error occurred.' });
};
