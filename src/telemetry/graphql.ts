import type { ApolloServerPlugin } from '@apollo/server';
import { Kind } from 'graphql';
import type { Principal } from '../authz/policy.ts';
import { graphqlErrors, graphqlOperations, operationNameLabel } from './metrics.ts';
import { currentRequest, noteErrorCode } from './request-scope.ts';

/**
 * Names each GraphQL operation (its name and type) and the codes of the errors it answered, for the request's
 * log line (src/server/http-logging.ts) and /metrics. The codes are those the caller reads (`extensions.code`
 * after formatError), so a log, a metric and an answer agree.
 */
export function observeGraphQL<C extends { viewer: Principal }>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart({ request }) {
      const scope = currentRequest();
      let operationType: string | null = null;
      let operationName: string | null = request.operationName ?? null;
      return {
        async didResolveOperation({ operation, operationName: resolved }) {
          operationType = operation?.operation ?? null;
          operationName = resolved ?? operationName;
        },
        async willSendResponse({ response, contextValue, document }) {
          // A document that parsed but failed validation still names its one operation.
          if (operationType === null && document) {
            const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
            const named = operations.length === 1 ? operations[0] : operations.find((operation) => operation.name?.value === operationName);
            operationType = named?.operation ?? null;
            operationName ??= named?.name?.value ?? null;
          }
          if (scope) scope.graphql = { operationName, operationType };
          graphqlOperations.inc({
            operation_type: operationType ?? 'unknown',
            operation_name: operationNameLabel(operationName),
            caller: contextValue.viewer?.kind ?? 'anonymous',
          });
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          for (const error of errors ?? []) {
            const code = typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN';
            graphqlErrors.inc({ code });
            noteErrorCode(scope, code);
          }
        },
      };
    },
  };
}
