import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { classify } from '../http/errors/classify.ts';
import type { DomainError, GraphErrorDetails } from '../errors/index.ts';
import { queryLimitErrorOf, type QueryLimitError } from './limits.ts';

// Errors Apollo raises itself about the request (syntax, validation, variables): safe to show as they are.
const CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED',
]);

function graphApiOf(graph: GraphErrorDetails) {
  return {
    code: graph.code,
    ...(graph.subcode !== undefined ? { error_subcode: graph.subcode } : {}),
    ...(graph.userTitle ? { error_user_title: graph.userTitle } : {}),
    ...(graph.userMessage ? { error_user_msg: graph.userMessage } : {}),
    ...(graph.data !== undefined ? { error_data: graph.data } : {}),
  };
}

/**
 * What an error is, decided once for both the answer (formatError) and the log (server.ts):
 * - `domain`: a service refused (its code, field, Graph API details);
 * - `limit`: a query limit refused the operation (limits.ts);
 * - `request`: Apollo's own refusal of the request (syntax, validation, variables), shown as it is;
 * - `unexpected`: anything else, a fault of ours, masked.
 */
export type ErrorKind =
  | { kind: 'domain'; error: DomainError }
  | { kind: 'limit'; error: QueryLimitError }
  | { kind: 'request'; code: string }
  | { kind: 'unexpected' };

export function kindOf(error: unknown): ErrorKind {
  const domain = classify(unwrapResolverError(error));
  if (domain) return { kind: 'domain', error: domain };
  const limit = queryLimitErrorOf(error);
  if (limit) return { kind: 'limit', error: limit };
  // Read, not instanceof: graphql-js may be loaded twice (as ESM and CommonJS) under a test runner.
  const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  if (typeof code === 'string' && CLIENT_ERROR_CODES.has(code)) return { kind: 'request', code };
  return { kind: 'unexpected' };
}

/**
 * The GraphQL side of the one error mapping: domain errors keep their message and gain
 * `extensions.code` (and `field`); anything unexpected is masked (the plugin in server.ts logs it).
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const where = { locations: formatted.locations, path: formatted.path };
  const known = kindOf(error);
  switch (known.kind) {
    case 'domain': {
      const domain = known.error;
      return {
        message: domain.message,
        ...where,
        extensions: {
          code: domain.code,
          ...(domain.field ? { field: domain.field } : {}),
          ...(domain.retryAfterSeconds !== undefined ? { retryAfterSeconds: domain.retryAfterSeconds } : {}),
          // The same failure as the Graph-style API reports it, for callers that know its codes.
          ...(domain.graph ? { graphApi: graphApiOf(domain.graph) } : {}),
        },
      };
    }
    case 'limit':
      return { message: known.error.message, ...where, extensions: known.error.details };
    case 'request':
      return { message: formatted.message, ...where, extensions: { code: known.code } };
    case 'unexpected':
      return { message: 'Internal server error', ...where, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
}
