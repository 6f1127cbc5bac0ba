import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import express, { type ErrorRequestHandler, type Router } from 'express';
import { parse as legacyUrlParse } from 'node:url';
import type { AppDeps, RequestContext } from '../context/index.ts';
import { compiledExecution } from './compiled-execution.ts';
import { formatError, kindOf, sendTokenRefusal } from './errors.ts';
import { armorRejection, complexityLimitPlugin, nestingRefusal } from './limits.ts';
import { classify, isBodyParseError, isBodyReadError } from '../http/errors/classify.ts';
import { jsonBody } from '../http/body.ts';
import { queryParameters } from '../http/query.ts';
import { DomainError } from '../errors/index.ts';
import { describeJsonFault, firstJsonFault, type JsonFault } from '../text/json-limits.ts';
import { observeGraphQL } from '../telemetry/graphql.ts';
import { traceGraphQL, tracedExecution } from '../telemetry/spans.ts';
import { tracingActive } from '../telemetry/tracing.ts';

/**
 * Logs each GraphQL error at the level of whose fault it is, with the request's own logger (and so its request
 * id): a caller's mistake (syntax, validation, a query limit, a service's refusal) at debug, without a stack;
 * a lost database at warn; what formatError masks, our own faults, at error with the stack.
 */
const logGraphQLErrors: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ contextValue, errors }) {
        for (const error of errors) {
          const known = kindOf(error);
          if (known.kind === 'unexpected') {
            contextValue.log.error({ err: error.originalError ?? error }, 'unexpected GraphQL error');
          } else if (known.kind === 'domain' && known.error.code === 'SERVICE_UNAVAILABLE') {
            const cause = known.error.cause instanceof Error ? known.error.cause.message : undefined;
            contextValue.log.warn({ err: { message: cause ?? known.error.message } }, 'GraphQL request failed: service unavailable');
          } else {
            const code = known.kind === 'request' ? known.code : known.error.code;
            contextValue.log.debug({ graphqlError: { code, message: error.message, path: error.path } }, 'GraphQL request refused');
          }
        }
      },
    };
  },
};

const MAX_DIRECTIVES = 50;

/** Headers whose presence shows a GET or form-typed request was preflighted (src/http/cors.ts allows each of them). */
export const CSRF_PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name', 'service-session-token'];

/**
 * Depth, alias and directive limits keep one document small (refusals worded by limits.ts, not Armor's "Syntax
 * Error"): the same for a query over HTTP and a subscription (src/graphql/subscriptions.ts).
 */
export function documentLimits(config: AppDeps['config']) {
  const { maxDepth, maxAliases } = config.graphql;
  const reject = (code: Parameters<typeof armorRejection>[0], n: number) => ({ n, propagateOnRejection: false, onReject: [armorRejection(code, n)] });
  return new ApolloArmor({
    maxDepth: { ...reject('QUERY_TOO_DEEP', maxDepth), ignoreIntrospection: true, flattenFragments: true },
    maxAliases: reject('TOO_MANY_ALIASES', maxAliases),
    maxDirectives: reject('TOO_MANY_DIRECTIVES', MAX_DIRECTIVES),
    // Armor's cost estimate ignores ids and page sizes given as variables: limits.ts counts them instead.
    costLimit: { enabled: false },
    // Token limits are graphql-js's own parse option (below): Armor's version answers a syntax error with a 500.
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: false }, // the schema is public (the IDE introspects it); suggestions help developers
  }).protect();
}

/** The most tokens one document may have (graphql-js's own parse option). */
export const MAX_DOCUMENT_TOKENS = 5_000;

/** Apollo on the schema (built once per server: subscriptions run on the same one). */
export function createApolloServer(deps: AppDeps, schema: GraphQLSchema): ApolloServer<RequestContext> {
  // The complexity plugin below bounds what a document may return.
  const { maxObjects, maxCost } = deps.config.graphql;
  const armor = documentLimits(deps.config);
  return new ApolloServer<RequestContext>({
    // The schema, and the executor that runs operations on it (compiled: ./compiled-execution.ts).
    gateway: tracingActive() ? tracedExecution(compiledExecution(schema)) : compiledExecution(schema),
    introspection: true,
    formatError,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    // Parsed and validated documents, by query text. Apollo's default holds 30 MiB as it measures them (their
    // JSON), about 150 MB of real heap: every new query text a client sent stayed until then (issue 12, defect 6).
    // Clients send a handful of documents; a thousand entries is ample and bounds the heap to a few MB.
    documentStore: new InMemoryLRUCache<DocumentNode>({ max: 1_000 }),
    // SIGTERM/SIGINT belong to src/server/index.ts (closeOnSignals): Apollo's own handler would stop and re-send
    // the signal, which the server takes for a second one and exits 1 without draining.
    stopOnTerminationSignals: false,
    // A request without a JSON (or other non-simple) Content-Type must carry a header that no browser sends
    // cross-site without a CORS preflight: Apollo's two, or Service-Session-Token, so a signed-in GET query needs
    // nothing more. Authorization is left out: a browser adds cached Basic credentials to cross-site requests
    // on its own. Credentials are never cookies here, so this is defence in depth (docs: decisions).
    csrfPrevention: { requestHeaders: CSRF_PREFLIGHT_HEADERS },
    parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS },
    validationRules: armor.validationRules,
    plugins: [
      // Armor's plugins are written for any context; Apollo's typings need them narrowed to ours.
      ...(armor.plugins as unknown as ApolloServerPlugin<RequestContext>[]),
      complexityLimitPlugin<RequestContext>({ maxObjects, maxFields: maxCost }),
      logGraphQLErrors,
      observeGraphQL<RequestContext>(),
      ...(tracingActive() ? [traceGraphQL<RequestContext>()] : []),
      // The IDE is served by src/graphql/ide.ts from this server's own files, not Apollo's CDN-hosted page.
      ApolloServerPluginLandingPageDisabled(),
      // No type sets cache hints, and the plugin wraps every field's resolver: a third of the CPU of a large
      // answer. Its one effect here, `Cache-Control: no-store`, graphqlRouter sets instead.
      ApolloServerPluginCacheControlDisabled(),
    ],
  });
}

/** Errors before Apollo sees the request (bad JSON, a refused credential, lost database during authentication), in GraphQL's shape. */
export const graphqlTransportErrors: ErrorRequestHandler = (error, req, res, _next) => {
  const reply = (status: number, message: string, code: string) => res.status(status).json({ errors: [{ message, extensions: { code } }] });
  if (isBodyParseError(error)) return void reply(400, 'Request body must be valid JSON.', 'BAD_REQUEST');
  if (isBodyReadError(error)) return void reply(error.status, 'Request body could not be read.', 'BAD_REQUEST');
  const known = classify(error);
  if (known?.code === 'BAD_USER_INPUT') {
    return void res
      .status(400)
      .json({ errors: [{ message: known.message, extensions: { code: known.code, ...(known.field ? { field: known.field } : {}) } }] });
  }
  if (known?.code === 'SERVICE_UNAVAILABLE') return void reply(503, known.message, known.code);
  if (known?.oauthError === 'invalid_token') return void sendTokenRefusal(res, known);
  req.log.error({ err: error }, 'unexpected error');
  reply(500, 'Internal server error', 'INTERNAL_SERVER_ERROR');
};

/**
 * What a GraphQL request names, each held to the JSON limits on its own: every variable (`$name`), the
 * extensions, and anything else the body holds.
 */
export function graphqlValues(request: unknown): Array<[string, unknown]> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return [['body', request]];
  const { variables, ...rest } = request as Record<string, unknown>;
  const named: Array<[string, unknown]> =
    typeof variables === 'object' && variables !== null && !Array.isArray(variables)
      ? Object.entries(variables).map(([name, value]) => [`$${name}`, value])
      : [['variables', variables]];
  return [...named, ...Object.entries(rest)];
}

/** A request refused for a value beyond the JSON limits: 400 BAD_USER_INPUT naming the variable (without its `$`) or the request's field. */
export function jsonLimitRefusal(name: string, fault: JsonFault): DomainError {
  const subject = name.startsWith('$') ? `Variable "${name}"` : name === 'body' ? 'The request body' : `Request field "${name}"`;
  return new DomainError('BAD_USER_INPUT', `${describeJsonFault(subject, fault)}.`, { field: name.replace(/^\$/, '') });
}

/** A GET request's parameters as a POST body holds them: `variables` and `extensions` are JSON text (left as they are when they do not parse: Apollo says so). */
function getRequest(params: Record<string, unknown>): Record<string, unknown> {
  const parsed = (text: unknown) => {
    try {
      return typeof text === 'string' ? (JSON.parse(text) as unknown) : text;
    } catch {
      return text;
    }
  };
  return { ...params, variables: parsed(params.variables), extensions: parsed(params.extensions) };
}

/**
 * @as-integrations/express5 reads each request's query string with url.parse(). Node 24 walks the call stack at
 * every such call made from inside node_modules, looking for a first caller outside it to warn (DEP0169) once:
 * a twentieth of a small request's time. One call from here, with deprecation warnings silenced for its
 * duration, spends that once-only warning, so later calls skip the walk. Nothing here calls url.parse itself.
 */
function settleUrlParseWarning(): void {
  const silenced = process.noDeprecation;
  process.noDeprecation = true;
  try {
    legacyUrlParse('/');
  } finally {
    process.noDeprecation = silenced;
  }
}

/**
 * The /graphql route: JSON body, then Apollo with the request context built by the authentication middleware.
 *
 * HTTP status policy, one rule per case (tested in test/graphql/status-policy.test.ts):
 * - no credential: 200, and each field that needs a principal answers an UNAUTHENTICATED error (public fields
 *   and `login` still work), as GraphQL over HTTP has it for errors during execution;
 * - a credential presented but unusable (an access token that fails verification, a session token that is
 *   unknown, expired, revoked or a suspended user's), in `Authorization: Bearer` or `Service-Session-Token`: 401
 *   for the whole request, with RFC 6750's `WWW-Authenticate: Bearer ... error="invalid_token"`, nothing executed;
 * - a request that is not a GraphQL request (bad JSON, a document past the limits, bad variables): 400;
 * - the database unavailable: 503. Everything else (refusals of the services, FORBIDDEN, NOT_FOUND) is 200 with
 *   the errors beside the data.
 */
export function graphqlRouter(apollo: ApolloServer<RequestContext>, authenticate: express.RequestHandler): Router {
  settleUrlParseWarning();
  const router = express.Router();
  // Answers are per caller (and GET queries are allowed): no cache may keep them.
  const noStore: express.RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  // Refused before Apollo parses anything: a document nested thousands of levels would overflow the parser's stack,
  // and a GET's variables and extensions are JSON text that Apollo parses and hands on (a POST's are checked as the
  // body is read).
  const refuseUnboundedInput: express.RequestHandler = (req, res, next) => {
    const request = req.method === 'GET' ? getRequest(queryParameters(req)) : (req.body as Record<string, unknown> | undefined);
    const refusal = nestingRefusal(request?.query);
    if (refusal) return void res.status(400).json({ errors: [{ message: refusal.message, extensions: refusal.details }] });
    const found = req.method === 'GET' ? firstJsonFault(graphqlValues(request)) : undefined;
    next(found && jsonLimitRefusal(found.name, found.fault));
  };
  router.use(
    noStore,
    jsonBody({ limit: '1mb', namedValues: graphqlValues, refuse: jsonLimitRefusal }),
    refuseUnboundedInput,
    authenticate,
    expressMiddleware(apollo, { context: async ({ res }) => res.locals.ctx }),
  );
  router.use(graphqlTransportErrors);
  return router;
}
