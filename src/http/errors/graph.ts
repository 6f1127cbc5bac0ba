import type { ErrorRequestHandler } from 'express';
import { DomainError } from '../../errors/index.ts';
import { graphErrorBody, type GraphErrorBody } from '../../errors/graph.ts';
import { classify, isBodyParseError, isBodyReadError } from './classify.ts';
import { bearerChallenge } from './challenge.ts';

/**
 * The Graph API error envelope (`/v24.0`, DECISIONS section 4):
 * `{"error": {message, type, code, error_subcode?, is_transient, error_user_title?, error_user_msg?, error_data?, fbtrace_id},
 *   "__fb_trace_id__", "__www_request_id__"}`.
 */
export interface GraphErrorEnvelope {
  error: GraphErrorBody & { fbtrace_id: string };
  __fb_trace_id__: string;
  __www_request_id__: string;
}

/** HTTP status by Graph code: permissions are 403, unexpected errors 500, everything the caller can fix 400. */
function statusFor(code: number): number {
  if (code >= 200 && code < 300) return 403;
  if (code === 1 || code === 2) return code === 2 ? 503 : 500;
  return 400;
}

export function graphError(error: DomainError, traceId: string): { status: number; body: GraphErrorEnvelope } {
  const fields = graphErrorBody(error);
  const body: GraphErrorEnvelope = { error: { ...fields, fbtrace_id: traceId }, __fb_trace_id__: traceId, __www_request_id__: traceId };
  return { status: statusFor(fields.code), body };
}

export const UNEXPECTED_GRAPH_ERROR = { code: 1, message: 'An unknown error occurred' };

/** Express error handler for the `/v24.0` router. */
export const graphErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const traceId = String(req.id);
  const { status, body, headers } = graphErrorResponse(error, traceId, req.log);
  res.setHeader('x-fb-trace-id', traceId);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).json(body);
};

/**
 * Any error as a Graph response: domain errors by their codes, anything else as the opaque code 1 (logged).
 * A refused access token stays error 190 (HTTP 400, DECISIONS section 4) and carries RFC 6750's challenge too.
 */
export function graphErrorResponse(
  error: unknown,
  traceId: string,
  log: { error(obj: object, msg: string): void },
): {
  status: number;
  body: GraphErrorEnvelope;
  headers: Record<string, string>;
} {
  const known =
    isBodyParseError(error) || isBodyReadError(error)
      ? new DomainError('BAD_USER_INPUT', 'Request body could not be read.', { graph: { code: 100 } })
      : classify(error);
  if (known) {
    const challenge = bearerChallenge(known);
    return { ...graphError(known, traceId), headers: challenge ? { 'WWW-Authenticate': challenge } : {} };
  }
  log.error({ err: error }, 'unexpected error');
  return {
    headers: {},
    status: 500,
    body: {
      error: { message: UNEXPECTED_GRAPH_ERROR.message, type: 'OAuthException', code: 1, is_transient: true, fbtrace_id: traceId },
      __fb_trace_id__: traceId,
      __www_request_id__: traceId,
    },
  };
}
