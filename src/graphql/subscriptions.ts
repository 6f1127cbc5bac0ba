import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { WebSocketServer, type WebSocket } from 'ws';
import { handleProtocols, makeServer } from 'graphql-ws';
import { createHandler } from 'graphql-sse/lib/use/express';
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { ANONYMOUS, type Principal } from '../authz/policy.ts';
import { createRequestContext, type AppDeps, type RequestContext } from '../context/index.ts';
import { DomainError, invalidSessionToken } from '../errors/index.ts';
import { setViewerRefresh } from '../events/hub.ts';
import { presentedToken, resolvePrincipal } from '../http/authenticate.ts';
import { formatError } from './errors.ts';
import { complexityRefusal, estimateComplexity, nestingRefusal, queryLimitErrorOf, type QueryLimitError } from './limits.ts';
import { documentLimits, graphqlTransportErrors, graphqlValues, jsonLimitRefusal, MAX_DOCUMENT_TOKENS } from './server.ts';
import { jsonBody } from '../http/body.ts';

/**
 * GraphQL subscriptions (schema/events.graphql) over WebSocket (graphql-ws, on /graphql of the same port) and over
 * Server-Sent Events (graphql-sse, /graphql/stream) for clients behind proxies that drop WebSockets. Both take the
 * same path: a document held to the query limits, subscriptions only (queries and mutations go to POST /graphql,
 * with its rate limits), the caller's principal from the connection, and caps per connection and per principal.
 */

export const SSE_PATH = '/graphql/stream';
/** A subscriber's principal is looked at again this often: a revoked session or token ends its subscriptions. */
const VIEWER_RECHECK_MS = 30_000;
/** A message larger than this closes the connection (a subscription document is small). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Unsent bytes a WebSocket may hold: a client that stops reading is closed with a reason, not buffered for. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** How many subscriptions each principal holds on this instance. */
class SubscriptionQuota {
  private readonly held = new Map<string, number>();

  take(key: string, max: number): boolean {
    const now = this.held.get(key) ?? 0;
    if (now >= max) return false;
    this.held.set(key, now + 1);
    return true;
  }

  give(key: string): void {
    const now = (this.held.get(key) ?? 1) - 1;
    if (now <= 0) this.held.delete(key);
    else this.held.set(key, now);
  }
}

/** One count per instance, whichever transport a subscription came by: the cap is the caller's on the instance. */
const quotas = new WeakMap<AppDeps, SubscriptionQuota>();
function quotaOf(deps: AppDeps): SubscriptionQuota {
  let quota = quotas.get(deps);
  if (!quota) quotas.set(deps, (quota = new SubscriptionQuota()));
  return quota;
}

const principalKey = (principal: Principal): string =>
  principal.kind === 'user'
    ? `user:${principal.userId}`
    : principal.kind === 'client'
      ? `client:${principal.apiClientId}`
      : principal.kind === 'page'
        ? `page:${principal.userId}:${principal.pageId}`
        : 'anonymous';

/** The token a connection presents: `authorization: Bearer <token>` or `service-session-token` (connection params or headers). */
function tokenOf(params: Record<string, unknown> | undefined): string | undefined {
  if (!params) return undefined;
  // Connection params are a client's object, not HTTP headers: their names are compared without case, as headers' are.
  const headers = Object.fromEntries(Object.entries(params).flatMap(([key, value]) => (typeof value === 'string' ? [[key.toLowerCase(), value]] : [])));
  return presentedToken(headers);
}

/** A connection's caller: looked up when it connects, and again every VIEWER_RECHECK_MS while events arrive. */
class Caller {
  private checkedAt = Date.now();

  constructor(
    private readonly deps: AppDeps,
    private readonly token: string | undefined,
    public principal: Principal,
  ) {}

  static async connect(deps: AppDeps, token: string | undefined): Promise<Caller> {
    const principal = token === undefined ? null : await resolvePrincipal(deps, token);
    // A credential presented but unusable is refused, as /graphql refuses it (not taken for anonymous).
    if (token !== undefined && principal === null) throw invalidSessionToken();
    return new Caller(deps, token, principal ?? ANONYMOUS);
  }

  /** The principal as it is now; a session or token that ended since ends the subscription, saying why. */
  async now(): Promise<Principal> {
    if (this.token === undefined || Date.now() - this.checkedAt < VIEWER_RECHECK_MS) return this.principal;
    const principal = await resolvePrincipal(this.deps, this.token).catch(() => null);
    if (!principal) throw new DomainError('UNAUTHENTICATED', 'Your session or token has ended: sign in again and subscribe again.');
    this.principal = principal;
    this.checkedAt = Date.now();
    return principal;
  }
}

/** Errors as /graphql words them (formatError), whichever transport carries them. */
const formatted = (errors: readonly GraphQLError[]): GraphQLFormattedError[] =>
  errors.map((error) => formatError(error.toJSON(), error.originalError ?? error));

/**
 * A refusal of the subscription server's own (a query limit, a cap) as a GraphQLError that keeps the error it is
 * (originalError): formatError words it as /graphql would, where a bare GraphQLError with such a code is masked.
 */
const refusalError = (error: QueryLimitError | DomainError): GraphQLError => new GraphQLError(error.message, { originalError: error });
const capRefusal = (message: string): GraphQLError => refusalError(new DomainError('RATE_LIMITED', message));

/** The validation rules of a subscription document, made once per configuration (not per subscription). */
const rulesByConfig = new WeakMap<AppDeps['config'], readonly ValidationRule[]>();
function validationRulesOf(config: AppDeps['config']): readonly ValidationRule[] {
  let rules = rulesByConfig.get(config);
  if (!rules) rulesByConfig.set(config, (rules = [...specifiedRules, ...documentLimits(config).validationRules]));
  return rules;
}

/**
 * A subscription document ready to run, or why not: the query limits of /graphql (nesting, tokens, depth,
 * aliases, directives, complexity), the schema's validation, and one subscription operation.
 */
function prepare(
  schema: GraphQLSchema,
  deps: AppDeps,
  request: { query?: unknown; variables?: unknown; operationName?: unknown },
): { document: DocumentNode; variables: Record<string, unknown> | undefined; operationName: string | undefined } | GraphQLError[] {
  const refuse = (message: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => [
    new GraphQLError(message, { extensions: { code, ...extra } }),
  ];
  if (typeof request.query !== 'string') return refuse('A subscription needs a query: the subscription document.');
  const nesting = nestingRefusal(request.query);
  if (nesting) return [refusalError(nesting)];
  const variables = request.variables === undefined || request.variables === null ? undefined : request.variables;
  if (variables !== undefined && (typeof variables !== 'object' || Array.isArray(variables))) return refuse('Variables must be a JSON object.');
  const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: MAX_DOCUMENT_TOKENS });
  } catch (error) {
    return refuse((error as Error).message, 'GRAPHQL_PARSE_FAILED');
  }
  const invalid = validate(schema, document, validationRulesOf(deps.config));
  if (invalid.length > 0) {
    return invalid.map((error) => {
      const limit = queryLimitErrorOf(error) ?? queryLimitErrorOf({ originalError: error });
      return limit ? refusalError(limit) : new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    });
  }
  const operation = getOperationAST(document, operationName);
  if (!operation) return refuse('Name the operation to run (operationName): the document holds several, or none.');
  if (operation.operation !== 'subscription')
    return refuse(`Only subscriptions are served here: send ${operation.operation === 'query' ? 'queries' : 'mutations'} to POST /graphql.`);
  const complexity = estimateComplexity(schema, document, operationName, variables as Record<string, unknown> | undefined);
  const refusal = complexity && complexityRefusal(complexity, { maxObjects: deps.config.graphql.maxObjects, maxFields: deps.config.graphql.maxCost });
  if (refusal) return [refusalError(refusal)];
  return { document, variables: variables as Record<string, unknown> | undefined, operationName };
}

/** A request context for one subscription, whose viewer is the connection's caller as it is at each event. */
function subscriptionContext(deps: AppDeps, caller: Caller, transport: string): RequestContext {
  const ctx = createRequestContext(deps, {
    requestId: randomUUID(),
    viewer: caller.principal,
    log: deps.log.child({ transport }),
    origin: { application: 'GraphQL subscriptions' },
  });
  setViewerRefresh(ctx, () => caller.now());
  return ctx;
}

/** A refusal as graphql-sse answers one: the status, and the errors as /graphql words them. */
const refusal = (status: number, statusText: string, errors: GraphQLError[]) =>
  [JSON.stringify({ errors: formatted(errors) }), { status, statusText, headers: { 'content-type': 'application/json; charset=utf-8' } }] as [
    string,
    { status: number; statusText: string; headers: Record<string, string> },
  ];

export interface SubscriptionServer {
  /** Closes every subscription connection (1001 Going Away), as a stopping server does. */
  close(): Promise<void>;
}

type ConnectionExtra = {
  socket: WebSocket;
  caller?: Caller;
  held?: Set<string>;
};

/**
 * graphql-ws on the HTTP server's upgrades to /graphql: its protocol server (makeServer) on `ws` sockets. Not its
 * ready-made `useServer`: that one writes a socket's errors (a message past the size limit, a client gone
 * mid-frame) to the console with their stack, beside the logger; here they are logged as the caller's doing, one
 * line, and pings, pongs and closing are the same as its.
 */
export function attachWebSocketSubscriptions(server: Server, deps: AppDeps, schema: GraphQLSchema): SubscriptionServer {
  const quota = quotaOf(deps);
  const { subscriptionsPerConnection, subscriptionsPerPrincipal } = deps.config.events;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/graphql') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);
  wss.options.handleProtocols = handleProtocols;

  const protocol = makeServer<Record<string, unknown>, ConnectionExtra>({
    schema,
    connectionInitWaitTimeout: 10_000,
    async onConnect(ctx) {
      try {
        ctx.extra.caller = await Caller.connect(deps, tokenOf(ctx.connectionParams));
        ctx.extra.held = new Set();
        return true;
      } catch (error) {
        // graphql-ws closes with 4403 Forbidden: the reason says why, as /graphql's 401 does.
        const reason = error instanceof DomainError ? error.message : 'The credential could not be checked.';
        ctx.extra.socket.close(4401, reason.slice(0, 120));
        return false;
      }
    },
    async onSubscribe(ctx, id, payload) {
      const caller = ctx.extra.caller!;
      const prepared = prepare(schema, deps, payload);
      if (Array.isArray(prepared)) return prepared;
      const held = ctx.extra.held!;
      if (held.size >= subscriptionsPerConnection) {
        return [capRefusal(`At most ${subscriptionsPerConnection} subscriptions per connection: complete one first.`)];
      }
      const key = principalKey(caller.principal);
      if (!quota.take(key, subscriptionsPerPrincipal)) {
        return [capRefusal(`At most ${subscriptionsPerPrincipal} subscriptions at once for one caller.`)];
      }
      held.add(id);
      return {
        schema,
        document: prepared.document,
        variableValues: prepared.variables,
        operationName: prepared.operationName,
        contextValue: subscriptionContext(deps, caller, 'websocket'),
      } satisfies ExecutionArgs;
    },
    onNext(ctx, _id, _payload, _args, result: ExecutionResult) {
      const socket = ctx.extra.socket;
      // A client that stops reading: closed with the reason, never buffered for without end.
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) socket.close(1008, 'Too slow: events were not read');
      return result.errors ? { ...result, errors: formatted(result.errors) } : undefined;
    },
    onError: (_ctx, _id, _payload, errors) => formatted(errors),
    onComplete(ctx, id) {
      const held = ctx.extra.held;
      if (held?.delete(id)) quota.give(principalKey(ctx.extra.caller!.principal));
    },
    onClose(ctx) {
      const held = ctx.extra.held;
      const caller = ctx.extra.caller;
      if (held && caller) for (const _ of held) quota.give(principalKey(caller.principal));
      held?.clear();
    },
  });

  // How often a WebSocket is pinged, and how long it has to answer (graphql-ws keep-alive): SUBSCRIPTION_KEEP_ALIVE_MS.
  const keepAliveMs = deps.config.events.keepAliveMs;
  wss.on('connection', (socket: WebSocket) => {
    // ws closes the socket itself after these (1009 for a message too large, 1002 for a broken frame).
    socket.on('error', (error) => deps.log.info({ err: { message: error.message } }, 'subscription socket refused a message'));
    // A connection that stops answering pings is ended: a client gone without closing holds nothing for long.
    let waiting: NodeJS.Timeout | undefined;
    const pinging = setInterval(() => {
      if (socket.readyState !== socket.OPEN || waiting) return;
      waiting = setTimeout(() => socket.terminate(), keepAliveMs);
      socket.ping();
    }, keepAliveMs);
    socket.on('pong', () => {
      clearTimeout(waiting);
      waiting = undefined;
    });
    const closed = protocol.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', (data) => {
            handle(String(data)).catch((error: unknown) => {
              deps.log.error({ err: error }, 'subscription message could not be handled');
              socket.close(4500, 'Internal server error');
            });
          }),
      },
      { socket },
    );
    socket.once('close', (code, reason) => {
      clearInterval(pinging);
      clearTimeout(waiting);
      void closed(code, String(reason));
    });
  });

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.close(1001, 'The server is shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * graphql-sse at /graphql/stream (distinct connections: each subscription is one POST answered as an event
 * stream), after the surface's authentication middleware (the usual headers; a bad credential is 401 there).
 */
export function sseSubscriptions(deps: AppDeps, schema: GraphQLSchema, authenticate: express.RequestHandler): SubscriptionServer & { router: express.Router } {
  const quota = quotaOf(deps);
  const streams = new Set<express.Response>();
  const handler = createHandler({
    schema,
    async onSubscribe(req, params) {
      const ctx = (req.context.res.locals as { ctx: RequestContext }).ctx;
      const prepared = prepare(schema, deps, params);
      if (Array.isArray(prepared)) return refusal(400, 'Bad Request', prepared);
      const key = principalKey(ctx.viewer);
      if (!quota.take(key, deps.config.events.subscriptionsPerPrincipal)) {
        return refusal(429, 'Too Many Requests', [capRefusal(`At most ${deps.config.events.subscriptionsPerPrincipal} subscriptions at once for one caller.`)]);
      }
      req.context.res.on('close', () => quota.give(key));
      const token = tokenOf(req.raw.headers as Record<string, unknown>);
      const caller = new Caller(deps, token, ctx.viewer);
      return {
        schema,
        document: prepared.document,
        variableValues: prepared.variables,
        operationName: prepared.operationName,
        // graphql-sse types its context as a plain record; the resolvers get the RequestContext they expect.
        contextValue: subscriptionContext(deps, caller, 'sse') as unknown as Record<string, unknown>,
      };
    },
    onNext: (_ctx, _req, result) => (result.errors ? { ...result, errors: formatted(result.errors) as never } : undefined),
  });
  const router = express.Router();
  const run: express.RequestHandler = async (req, res, next) => {
    streams.add(res);
    res.on('close', () => streams.delete(res));
    try {
      await handler(req, res);
    } catch (error) {
      next(error);
    }
  };
  router.use(jsonBody({ limit: '64kb', namedValues: graphqlValues, refuse: jsonLimitRefusal }), authenticate, run);
  router.use(graphqlTransportErrors);
  return {
    router,
    async close() {
      // An event stream never ends by itself: a stopping server ends them, and clients reconnect elsewhere.
      for (const res of streams) res.end();
    },
  };
}
