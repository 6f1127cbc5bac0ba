import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { createRequire } from 'node:module';
import type { DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];

/** graphql's CommonJS build, the one graphql-jit loads (and Apollo with it: graphql has no ESM exports map). */
const graphqlOfJit = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/**
 * graphql-jit (with fast-json-stringify and ajv, a tenth of a second), loaded when the first document comes back:
 * a process that never answers a document twice (a short-lived test server, a CLI) starts without it.
 */
let loadingJit: Promise<typeof import('graphql-jit')> | undefined;
/** The module once loaded: read without a wait on every request after that. */
let jit: typeof import('graphql-jit') | undefined;
const loadJit = async () => (jit ??= await (loadingJit ??= import('graphql-jit')));

/**
 * A graphql-jit error as graphql-js makes it. graphql-jit leaves `extensions` undefined where graphql-js gives
 * `{}`, and Apollo reads `extensions.code` of every error: without this, each error a resolver threw would be
 * answered as an internal one.
 */
function asGraphQLError(error: GraphQLError): GraphQLError {
  const { message, path, originalError, locations } = error;
  const copy = new graphqlOfJit.GraphQLError(message, { path, originalError, extensions: error.extensions });
  // graphql-js derives locations from the nodes, which graphql-jit does not keep; it computed them already.
  if (locations) Object.defineProperty(copy, 'locations', { value: locations, enumerable: true });
  return copy;
}

/**
 * How often a document runs interpreted before it is compiled. Compiling costs more than one interpreted run
 * (about 1.8 ms for the nested read, 20 ms for the IDE's introspection query, against a fraction of that to
 * interpret them), so a document sent once, or a stream of distinct ones, costs what graphql-js costs; a
 * document that comes back, as a frontend's do, is compiled then.
 */
export const INTERPRETED_RUNS = 1;

/**
 * Executes operations with graphql-jit instead of graphql-js's interpreter: each document that comes back is
 * compiled once into a function that resolves exactly its fields, which answers the nested reads in about two
 * thirds of the time (measured in process; README, Performance notes). Apollo Server offers no executor option
 * of its own; its gateway interface is the documented way to hand it one, and everything before execution
 * (parsing, validation, the document cache, the limits and the plugins) stays Apollo's.
 *
 * Compiled documents are kept by the parsed document Apollo's bounded document cache hands out for a query text
 * (a WeakMap: a document dropped from that cache takes its compiled functions with it), and by operation name.
 */
export function compiledExecution(schema: GraphQLSchema): Gateway {
  const seen = new WeakMap<DocumentNode, { runs: number; compiled: Map<string | undefined, CompiledQuery | ExecutionResult> }>();

  /** The compiled operation, or null while the document is still to be interpreted. */
  const compiledFor = async (document: DocumentNode, operationName: string | undefined) => {
    let entry = seen.get(document);
    if (!entry) seen.set(document, (entry = { runs: 0, compiled: new Map() }));
    if (entry.runs < INTERPRETED_RUNS) {
      entry.runs += 1;
      return null;
    }
    let query = entry.compiled.get(operationName);
    if (!query) {
      const { compileQuery } = jit ?? (await loadJit());
      // Another request may have compiled it while this one waited for the module.
      query = entry.compiled.get(operationName) ?? compileQuery(schema, document, operationName);
      entry.compiled.set(operationName, query);
    }
    return query;
  };

  return {
    async load() {
      return {
        async executor({ document, operation, request, context }) {
          // The name the caller sent (the context's own operationName is that of the operation Apollo resolved).
          const { operationName } = request;
          const variables = request.variables ?? {};
          const interpret = () => graphqlOfJit.execute({ schema, document, operationName, variableValues: variables, contextValue: context });
          // No operation to run (an unknown operation name, or none of several named), though Apollo's types say
          // otherwise: graphql-js answers why, in its own words (graphql-jit would take an empty name for none).
          if (!(operation as typeof operation | undefined)) return interpret();
          const query = await compiledFor(document, operationName ?? undefined);
          if (!query) return interpret();
          // graphql-jit is loaded by now: compiledFor compiled the query with it.
          if (!jit!.isCompiledQuery(query)) return query;
          // Variables refused as graphql-js refuses them: its errors point at the variable's definition, which
          // Apollo answers as BAD_USER_INPUT (graphql-jit's own say less). The coerced values are not passed on:
          // graphql-jit coerces what the caller sent itself.
          if (operation.variableDefinitions?.length) {
            const coerced = graphqlOfJit.getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 50 });
            if (coerced.errors) return { errors: coerced.errors };
          }
          const result = await query.query(undefined, context, variables);
          return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
        },
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    async stop() {},
  };
}
