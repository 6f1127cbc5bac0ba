import express, { type Express } from 'express';
import type { ApolloServer } from '@apollo/server';
import type { AppDeps, RequestContext } from '../context/index.ts';
import { authenticate } from '../http/authenticate.ts';
import { parseQueryString } from '../http/query.ts';
import { classify } from '../http/errors/classify.ts';
import { routeNotFound } from '../http/not-found.ts';
import { corsForApi } from '../http/cors.ts';
import { createApolloServer, graphqlRouter } from '../graphql/server.ts';
import { graphqlIde } from '../graphql/ide.ts';
import { buildSchema } from '../graphql/schema.ts';
import { SSE_PATH, sseSubscriptions } from '../graphql/subscriptions.ts';
import type { GraphQLSchema } from 'graphql';
import { identityRoutes } from '../identity/routes.ts';
import { oauthRoutes } from '../oauth/routes.ts';
import { graphApiRoutes } from '../graph-api/router.ts';
import { httpLogging } from './http-logging.ts';
import { liveness, metrics, readiness } from './health.ts';
import { traceHttpRequests, traceStatements } from '../telemetry/spans.ts';
import { tracingActive } from '../telemetry/tracing.ts';
import { mediaRoutes } from '../media/routes.ts';

export interface App {
  express: Express;
  apollo: ApolloServer<RequestContext>;
  /** The schema subscriptions run on (src/graphql/subscriptions.ts): the WebSocket side attaches to the HTTP server. */
  schema: GraphQLSchema;
  /** Ends the event streams of /graphql/stream. */
  closeStreams(): Promise<void>;
}

/**
 * The whole HTTP surface, assembled in one place: health and metrics, GraphQL (with its IDE), and the
 * REST families, each with its own error shape.
 */
export async function createApp(deps: AppDeps, lifecycle: { stopping: () => boolean }): Promise<App> {
  const app = express();
  app.disable('x-powered-by');
  // No ETag computed over every answer: API answers are per caller and change with any write (GraphQL's are
  // no-store), no caller revalidates them, and hashing each body cost a few percent of a small request. The
  // IDE's files carry their own content-hash ETag (src/graphql/ide.ts), which If-None-Match still meets with 304.
  app.set('etag', false);
  // Only a configured proxy may name the client (req.ip, which the brute-force limits count by).
  app.set('trust proxy', deps.config.trustProxy);
  // Query strings are read as form bodies are: what does not decode to UTF-8 is refused, not turned into U+FFFD.
  app.set('query parser', parseQueryString);
  // The liveness probe first: a monitor polls it, it was never logged, and it needs nothing of what follows
  // (request id, scope, metrics), which cost half its time.
  app.get('/healthz', liveness);
  const metric = metrics(deps);
  // Traced (only when configured): the request's span is current before anything else runs, and ends after its log line.
  if (tracingActive()) {
    app.use(traceHttpRequests());
    traceStatements(deps.db, deps.config.tracedStatementMinMs);
  }
  app.use(httpLogging(deps.log), metric.middleware);
  app.get('/readyz', readiness(deps, lifecycle.stopping));
  app.get('/metrics', metric.route);
  // Before every API route, so refusals (401, 429, 404) carry the headers too and a page can read why.
  app.use(corsForApi(deps.config.cors));

  const auth = authenticate(deps, { application: 'Identity API' });
  // One schema for the server: Apollo's, and the subscriptions' (building it takes a quarter of a second).
  const schema = buildSchema();
  const apollo = createApolloServer(deps, schema);
  await apollo.start();
  app.use(graphqlIde({ endpoint: '/graphql' }));
  // Before /graphql, which would take the path as its own; the same authentication and status policy.
  const streams = sseSubscriptions(deps, schema, authenticate(deps, { refuseInvalidSession: true, application: 'GraphQL' }));
  app.use(SSE_PATH, streams.router);
  // /graphql answers a credential it cannot use with 401 (the status policy in graphql/server.ts); /api/v2 keeps
  // taking a lapsed session for no session, as its public routes always have.
  app.use('/graphql', graphqlRouter(apollo, authenticate(deps, { refuseInvalidSession: true, application: 'GraphQL' })));
  app.use('/api/v2', identityRoutes(deps, auth));
  app.use(oauthRoutes(deps));
  app.use(graphApiRoutes(deps));
  app.use(mediaRoutes(deps));

  app.use(routeNotFound);
  // Last resort: never a stack trace on the wire. A path that does not decode is the caller's 400 (classify).
  app.use(((error, req, res, _next) => {
    const known = classify(error);
    if (known?.code === 'BAD_USER_INPUT') return void res.status(400).json({ message: known.message });
    req.log.error({ err: error }, 'unhandled error');
    if (!res.headersSent) res.status(500).json({ message: 'An internal error occurred.' });
  }) as express.ErrorRequestHandler);
  return { express: app, apollo, schema, closeStreams: () => streams.close() };
}
