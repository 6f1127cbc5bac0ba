import type { ApolloServerOptionsWithGateway, ApolloServerPlugin, BaseContext } from '@apollo/server';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { dialect } from '../db/index.ts';
import { currentRequest, type RequestScope } from './request-scope.ts';
import { tracer } from './tracing.ts';

/**
 * The spans of a traced server, each made at a hook the layer already has (the ones request logs and metrics
 * use): the HTTP request (a SERVER span, continuing the caller's W3C `traceparent`), the GraphQL operation
 * inside it, the slow or failed SQL statements inside whichever of those sent it (traceStatements), and each
 * background job run in a trace of its own. Installed only while tracing is active (./tracing.ts), so an
 * untraced server pays nothing for them.
 *
 * No span per resolver: the nested read resolves hundreds of fields in about a millisecond (compiled by
 * graphql-jit), and a span each would cost more than the read; the resolvers that do I/O do it through
 * DataLoader batches, whose statements (their number and time always, the slow ones as spans) are the operation's.
 *
 * Never recorded: the query string (a /v24.0 call carries its access token there), GraphQL variables and
 * documents (values such as a password), the SQL statements' bound values.
 */

type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];

// Incubating semantic conventions are copied, not imported (the conventions package's own advice): they may change.
const ATTR_GRAPHQL_OPERATION_NAME = 'graphql.operation.name';
const ATTR_GRAPHQL_OPERATION_TYPE = 'graphql.operation.type';
const DB_SYSTEM_NAME_VALUE_SQLITE = 'sqlite';

/** The SERVER span of each HTTP request, made current for everything the request runs. */
export function traceHttpRequests(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer().startSpan(req.method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method } }, parent);
    // A trace the sampler left out costs only its non-recording span (whose end is a no-op): nothing is read for it.
    if (!span.isRecording()) {
      context.with(trace.setSpan(parent, span), next);
      return;
    }
    // Read now: a mounted router (/graphql, /api/v2) strips its prefix from the request while it runs.
    const path = req.path;
    span.setAttributes({ [ATTR_URL_PATH]: path, [ATTR_URL_SCHEME]: req.protocol, [ATTR_CLIENT_ADDRESS]: req.ip });
    res.once('close', () => {
      const route = routeOf(req, path);
      if (route) {
        span.setAttribute(ATTR_HTTP_ROUTE, route);
        span.updateName(`${req.method} ${route}`);
      }
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
      span.setAttributes(outcomeAttributes(res.locals.requestScope));
      if (!res.writableFinished) {
        // The caller went away before the answer was complete.
        span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
      } else if (res.statusCode >= 500) {
        // A server span is an error only for 5xx: a 4xx is the caller's mistake (semantic conventions, HTTP spans).
        span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/** The route template the request matched (`/api/v2/users/:id`), or the surface it went to; none for a 404. */
function routeOf(req: Request, path: string): string | undefined {
  const template = req.route as { path?: unknown } | undefined;
  if (typeof template?.path === 'string') return `${req.baseUrl}${template.path}`;
  return /^\/graphql(?:\/|$)/.test(path) ? '/graphql' : undefined;
}

/** What the request did, as its log line says it (ids of the caller, never what authenticated it). */
function outcomeAttributes(scope: RequestScope | undefined): Attributes {
  if (!scope) return {};
  const attributes: Attributes = {
    'adgraph.sql.statements': scope.sqlStatements,
    'adgraph.sql.duration_ms': Math.round(scope.sqlMilliseconds * 1000) / 1000,
  };
  if (scope.caller) {
    attributes['adgraph.caller.kind'] = scope.caller.kind;
    if (scope.caller.kind === 'user' || scope.caller.kind === 'page') attributes['adgraph.caller.user_id'] = scope.caller.userId;
    if (scope.caller.kind === 'page') attributes['adgraph.caller.page_id'] = scope.caller.pageId;
    if (scope.caller.kind === 'client') attributes['adgraph.caller.client_id'] = scope.caller.clientId;
  }
  if (scope.errorCodes.length > 0) attributes['adgraph.error_codes'] = scope.errorCodes;
  return attributes;
}

/** The context of each GraphQL operation's span, by the operation's context value (one per HTTP request). */
const operationContexts = new WeakMap<object, Context>();

/**
 * A span per GraphQL operation, from the request Apollo received to its answer (parsing and validation
 * included), named as the conventions say (`query AdSets`). Execution runs inside it: see tracedExecution.
 */
export function traceGraphQL<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart({ contextValue }) {
      const active = context.active();
      const span = tracer().startSpan('GraphQL Operation', { kind: SpanKind.INTERNAL }, active);
      // Sampled out (the request's trace is not recorded): no hooks, and execution stays in the request's context.
      if (!span.isRecording()) return {};
      operationContexts.set(contextValue, trace.setSpan(active, span));
      return {
        async didResolveOperation({ operation, operationName }) {
          if (!operation) return;
          span.setAttribute(ATTR_GRAPHQL_OPERATION_TYPE, operation.operation);
          if (operationName) span.setAttribute(ATTR_GRAPHQL_OPERATION_NAME, operationName);
          span.updateName(operationName ? `${operation.operation} ${operationName}` : operation.operation);
        },
        async willSendResponse({ response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const codes = [...new Set((errors ?? []).map((error) => (typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN')))];
          if (codes.length > 0) {
            span.setAttribute(ATTR_ERROR_TYPE, codes[0]!);
            span.setAttribute('adgraph.error_codes', codes);
            // Our own faults only: a refused or invalid operation is the caller's, as a 4xx is over HTTP.
            if (codes.includes('INTERNAL_SERVER_ERROR') || codes.includes('SERVICE_UNAVAILABLE')) span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
  };
}

/**
 * The gateway (executor) Apollo runs operations with, running each inside its operation's span: Apollo's plugin
 * hooks cannot make a span current for the execution, and the statements it sends belong under the operation.
 */
export function tracedExecution(gateway: GatewayInterface): GatewayInterface {
  return {
    ...gateway,
    onSchemaLoadOrUpdate: gateway.onSchemaLoadOrUpdate.bind(gateway),
    stop: gateway.stop.bind(gateway),
    async load(options) {
      const { executor } = await gateway.load(options);
      if (!executor) return { executor };
      return {
        executor: (requestContext) => {
          const operation = operationContexts.get(requestContext.context);
          return operation ? context.with(operation, () => executor(requestContext)) : executor(requestContext);
        },
      };
    },
  };
}

const tracedDatabases = new WeakSet<Knex>();

const STATEMENT_OF_METHOD: Record<string, string | undefined> = {
  select: 'SELECT',
  first: 'SELECT',
  pluck: 'SELECT',
  insert: 'INSERT',
  update: 'UPDATE',
  del: 'DELETE',
  counter: 'UPDATE',
};

interface QueryEvent {
  sql: string;
  method?: string;
  __knexQueryUid: string;
}

/** A statement sent inside a recording span, not yet answered. */
interface RunningStatement {
  parent: Context;
  /** performance.now() when it was sent. */
  sentAt: number;
}

/**
 * CLIENT spans for the SQL statements sent inside a traced request or job run, with their text as Knex sends it
 * (placeholders, never the bound values): every statement that took at least `minMs` (TRACE_SQL_MIN_MS, 1 by
 * default) or failed, made when its answer comes, with the time it was sent as its start. Every statement's
 * time is added to its request's, which the request's span records (adgraph.sql.statements, .duration_ms).
 *
 * Why not a span for every statement by default: the nested read sends five statements of a tenth of a
 * millisecond each, and their spans were half of what tracing cost it (6% of its CPU in all in a CPU profile, against the 5% the
 * project allows); the statements worth a look in a trace are the slow and the failed ones. 0 spans them all.
 * Statements outside any span (the runner's polling for work, migrations) make none: they would be a trace each.
 */
export function traceStatements(db: Knex, minMs: number): void {
  if (tracedDatabases.has(db)) return;
  tracedDatabases.add(db);
  const system = dialect(db) === 'postgres' ? DB_SYSTEM_NAME_VALUE_POSTGRESQL : DB_SYSTEM_NAME_VALUE_SQLITE;
  const running = new Map<string, RunningStatement>();
  db.on('query', (query: QueryEvent) => {
    const parent = context.active();
    if (!trace.getSpan(parent)?.isRecording()) return;
    running.set(query.__knexQueryUid, { parent, sentAt: performance.now() });
  });
  const end = (query: QueryEvent, error?: unknown) => {
    const statement = running.get(query.__knexQueryUid);
    if (!statement) return;
    running.delete(query.__knexQueryUid);
    const answeredAt = performance.now();
    const took = answeredAt - statement.sentAt;
    const scope = currentRequest();
    if (scope) scope.sqlMilliseconds += took;
    if (took < minMs && error === undefined) return;
    // Knex's method names the statement for what its builder wrote; a raw statement's first word does.
    const operation = query.method && query.method !== 'raw' ? STATEMENT_OF_METHOD[query.method] : /^\s*([a-z]+)/i.exec(query.sql)?.[1]?.toUpperCase();
    const span = tracer().startSpan(
      operation ?? system,
      {
        kind: SpanKind.CLIENT,
        startTime: statement.sentAt,
        attributes: { [ATTR_DB_SYSTEM_NAME]: system, [ATTR_DB_QUERY_TEXT]: query.sql, [ATTR_DB_OPERATION_NAME]: operation },
      },
      statement.parent,
    );
    if (error !== undefined) {
      // The driver's code (a constraint's name, SQLITE_BUSY), not its message: messages may quote values.
      const code = (error as { code?: unknown }).code;
      span.setAttribute(ATTR_ERROR_TYPE, typeof code === 'string' ? code : 'error');
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(answeredAt);
  };
  db.on('query-response', (_response: unknown, query: QueryEvent) => end(query));
  db.on('query-error', (error: unknown, query: QueryEvent) => end(query, error));
}

/**
 * Runs one background job inside a span of its own trace (the runner is no request's), its statements under it;
 * `work` answers the run's outcome (done, failed, retried, ...), which the span records. Outcomes that are our
 * fault (given_up, interrupted) mark it an error.
 */
export async function traceJobRun<O extends string>(kind: string, job: { id: string; attempts: number }, work: () => Promise<O>): Promise<O> {
  const span = tracer().startSpan(`job ${kind}`, {
    kind: SpanKind.CONSUMER,
    root: true,
    attributes: { 'adgraph.job.kind': kind, 'adgraph.job.id': job.id, 'adgraph.job.attempt': job.attempts },
  });
  try {
    const outcome = await context.with(trace.setSpan(context.active(), span), work);
    span.setAttribute('adgraph.job.outcome', outcome);
    if (outcome === 'given_up' || outcome === 'interrupted') span.setStatus({ code: SpanStatusCode.ERROR });
    return outcome;
  } finally {
    span.end();
  }
}
