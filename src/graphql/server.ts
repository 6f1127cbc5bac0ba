import type { Server } from 'node:http';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import express, { type ErrorRequestHandler, type Router } from 'express';
import type { AppDeps, RequestContext } from '../context/index.ts';
import { buildSchema } from './schema.ts';
import { formatError, isUnexpected } from './errors.ts';
import { classify, isBodyParseError, isBodyReadError } from '../http/errors/classify.ts';

/** Logs what formatError masks, with the request's own logger (and so its request id). */
const logUnexpectedErrors: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ contextValue, errors }) {
        for (const error of errors) if (isUnexpected(error)) contextValue.log.error({ err: error.originalError ?? error }, 'unexpected GraphQL error');
      },
    };
  },
};

export function createApolloServer(deps: AppDeps, httpServer: Server): ApolloServer<RequestContext> {
  // Depth, alias and cost limits keep one request from asking for the whole database.
  const armor = new ApolloArmor({
    maxDepth: { n: deps.config.graphql.maxDepth, ignoreIntrospection: true, flattenFragments: true },
    maxAliases: { n: deps.config.graphql.maxAliases },
    costLimit: { maxCost: deps.config.graphql.maxCost, ignoreIntrospection: true },
    // Token limits are graphql-js's own parse option (below): Armor's version answers a syntax error with a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: 50 },
    blockFieldSuggestion: { enabled: false }, // the schema is public (the IDE introspects it); suggestions help developers
  }).protect();
  return new ApolloServer<RequestContext>({
    schema: buildSchema(),
    introspection: true,
    formatError,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    // Credentials travel only in headers (never cookies), so a cross-site request carries no identity; the
    // guard would only stop plain `GET /graphql?query=...`, which DECISIONS section 1 asks for. Mutations
    // over GET stay refused by Apollo.
    csrfPrevention: false,
    parseOptions: { maxTokens: 5_000 },
    validationRules: armor.validationRules,
    plugins: [
      // Armor's plugins are written for any context; Apollo's typings need them narrowed to ours.
      ...(armor.plugins as unknown as ApolloServerPlugin<RequestContext>[]),
      logUnexpectedErrors,
      ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: deps.config.shutdownTimeoutMs }),
      // The IDE is served by src/graphql/ide.ts from this server's own files, not Apollo's CDN-hosted page.
      ApolloServerPluginLandingPageDisabled(),
    ],
  });
}

/** Errors before Apollo sees the request (bad JSON, lost database during authentication), in GraphQL's shape. */
const graphqlTransportErrors: ErrorRequestHandler = (error, req, res, _next) => {
  const reply = (status: number, message: string, code: string) => res.status(status).json({ errors: [{ message, extensions: { code } }] });
  if (isBodyParseError(error)) return void reply(400, 'Request body must be valid JSON.', 'BAD_REQUEST');
  if (isBodyReadError(error)) return void reply(error.status, 'Request body could not be read.', 'BAD_REQUEST');
  const known = classify(error);
  if (known?.code === 'SERVICE_UNAVAILABLE') return void reply(503, known.message, known.code);
  req.log.error({ err: error }, 'unexpected error');
  reply(500, 'Internal server error', 'INTERNAL_SERVER_ERROR');
};

/** The /graphql route: JSON body, then Apollo with the request context built by the authentication middleware. */
export function graphqlRouter(apollo: ApolloServer<RequestContext>, authenticate: express.RequestHandler): Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }), authenticate, expressMiddleware(apollo, { context: async ({ res }) => res.locals.ctx }));
  router.use(graphqlTransportErrors);
  return router;
}
