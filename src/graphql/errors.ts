import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { classify } from '../http/errors/classify.ts';
import type { GraphErrorDetails } from '../errors/index.ts';

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
 * The GraphQL side of the one error mapping: domain errors keep their message and gain
 * `extensions.code` (and `field`); anything unexpected is masked (the plugin in server.ts logs it).
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const domain = classify(unwrapResolverError(error));
  if (domain) {
    return {
      message: domain.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: {
        code: domain.code,
        ...(domain.field ? { field: domain.field } : {}),
        ...(domain.retryAfterSeconds !== undefined ? { retryAfterSeconds: domain.retryAfterSeconds } : {}),
        // The same failure as the Graph-style API reports it, for callers that know its codes.
        ...(domain.graph ? { graphApi: graphApiOf(domain.graph) } : {}),
      },
    };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && CLIENT_ERROR_CODES.has(code)) {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  }
  return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

export function isUnexpected(error: unknown): boolean {
  return classify(unwrapResolverError(error)) === null;
}
