import type { ErrorRequestHandler, Response } from 'express';
import { DomainError } from '../../errors/index.ts';
import { classify, isBodyParseError, isBodyReadError } from './classify.ts';
import { bearerChallenge } from './challenge.ts';

/**
 * The identity API's error shape (`/api/v2`, after Coder's httpapi): `{message, detail?, validations?}`.
 */
export interface IdentityErrorBody {
  message: string;
  detail?: string;
  validations?: Array<{ field: string; detail: string }>;
}

export const NOT_FOUND_MESSAGE = 'Resource not found or you do not have access to this resource';

const STATUS: Record<DomainError['code'], number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  LIMIT_EXCEEDED: 409,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
};

export function identityError(error: DomainError): { status: number; body: IdentityErrorBody } {
  const status = STATUS[error.code];
  switch (error.code) {
    case 'BAD_USER_INPUT':
      // A field check reads "Validation failed." with the field named; a rule about the request as a whole keeps its own sentence.
      return error.field
        ? { status, body: { message: error.title ?? 'Validation failed.', validations: error.validations } }
        : { status, body: { message: error.message, ...(error.detail ? { detail: error.detail } : {}) } };
    case 'NOT_FOUND':
      return { status, body: { message: NOT_FOUND_MESSAGE } };
    case 'CONFLICT':
      return { status, body: { message: error.message, ...(error.validations ? { validations: error.validations } : {}) } };
    default:
      return { status, body: { message: error.message, ...(error.detail ? { detail: error.detail } : {}) } };
  }
}

export function sendIdentityError(res: Response, error: DomainError): void {
  const { status, body } = identityError(error);
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  const challenge = bearerChallenge(error);
  if (challenge) res.setHeader('WWW-Authenticate', challenge);
  res.status(status).json(body);
}

/** Express error handler for the `/api/v2` router. */
export const identityErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (isBodyParseError(error)) return void res.status(400).json({ message: 'Request body must be valid JSON.' });
  if (isBodyReadError(error)) return void res.status(error.status).json({ message: 'Request body could not be read.' });
  const known = classify(error);
  if (known) return sendIdentityError(res, known);
  req.log.error({ err: error }, 'unexpected error');
  res.status(500).json({ message: 'An internal error occurred.' });
};
