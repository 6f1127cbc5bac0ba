import type express from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppDeps } from '../context/index.ts';
import { pendingMigrations } from '../db/migrate.ts';
import type { AnyJobKind } from '../jobs/index.ts';
import { countStatementsPerRequest, registerProcessMetrics, sqlStatementsPerRequest } from '../telemetry/metrics.ts';
import { newRequestScope, runInRequestScope, type RequestScope } from '../telemetry/request-scope.ts';
import { JOB_KINDS } from './jobs.ts';

declare module 'express-serve-static-core' {
  interface Locals {
    /** What the request did, for its log line and metrics (src/telemetry/request-scope.ts). */
    requestScope?: RequestScope;
  }
}

const LIVE = Buffer.from(JSON.stringify({ status: 'ok' }));
const LIVE_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(LIVE.length) };

/**
 * /healthz: the process answers (mounted before logging and metrics: src/server/app.ts), with bytes made once:
 * Express's res.json would serialize, look up the charset and hash the body for an ETag at every poll.
 */
export const liveness: express.RequestHandler = (_req, res) => void res.writeHead(200, LIVE_HEADERS).end(LIVE);

/**
 * /readyz: the database answers and its schema is current, and the server is not stopping (a load balancer that
 * checks it stops sending here while the stop's drain period lasts).
 */
export function readiness(deps: AppDeps, stopping: () => boolean): express.RequestHandler {
  return async (req, res) => {
    if (stopping()) return void res.status(503).json({ status: 'unavailable', reason: 'shutting down' });
    try {
      await deps.db.raw('select 1');
      const pending = await pendingMigrations(deps.db);
      if (pending.length > 0) return void res.status(503).json({ status: 'unavailable', reason: `${pending.length} migration(s) not applied` });
      res.json({ status: 'ready' });
    } catch (error) {
      req.log.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', reason: 'database unreachable' });
    }
  };
}

/** Paths a monitor polls: their statements would drown the requests' in the histogram. */
const PROBES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** Jobs of each kind waiting for a runner, and held by one (running, or their instance died and the lease has not expired). */
function queueDepth(deps: AppDeps, kinds: readonly AnyJobKind[], registry: Registry): void {
  new Gauge({
    name: 'adgraph_jobs_queue_depth',
    help: 'Background jobs waiting (state=waiting) or claimed by an instance (state=held), by kind; read from the database at each scrape',
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      try {
        for (const { name, queue } of kinds) {
          const rows = (await deps
            .db(queue.table)
            .select('status')
            .count({ count: '*' })
            .whereIn('status', [queue.waiting, ...queue.held])
            .groupBy('status')) as Array<{ status: string; count: number | string }>;
          const count = (statuses: readonly string[]) => rows.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.count), 0);
          this.set({ kind: name, state: 'waiting' }, count([queue.waiting]));
          this.set({ kind: name, state: 'held' }, count(queue.held));
        }
      } catch {
        // A database that is down has no depth to give; /readyz says why, and the rest of the scrape still answers.
        this.reset();
      }
    },
  });
}

/**
 * Prometheus metrics: process defaults, request durations by surface and status, the bcrypt pool's comparisons,
 * SQL statements per request, what the lower layers record (src/telemetry/metrics.ts) and the job queue's depth.
 */
export function metrics(deps: AppDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(deps.passwords.verifications);
  registerProcessMetrics(registry);
  queueDepth(deps, JOB_KINDS, registry);
  countStatementsPerRequest(deps.db);
  const duration = new Histogram({
    name: 'adgraph_http_request_duration_seconds',
    help: 'HTTP request duration by surface',
    labelNames: ['method', 'surface', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const errors = new Counter({ name: 'adgraph_http_server_errors_total', help: 'Responses with status 5xx', labelNames: ['surface'], registers: [registry] });
  const surfaceOf = (path: string) => /^\/(graphql|api\/v2|v\d+\.\d+|oauth2|\.well-known)/.exec(path)?.[1]?.replace(/^v\d+\.\d+$/, 'graph') ?? 'other';

  const middleware: express.RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    // Read the path now: a mounted router (/graphql, /api/v2) strips its prefix from req.url while it runs.
    const path = req.path;
    const scope = newRequestScope();
    res.locals.requestScope = scope;
    res.on('finish', () => {
      const labels = { method: req.method, surface: surfaceOf(path), status: String(res.statusCode) };
      end(labels);
      if (res.statusCode >= 500) errors.inc({ surface: labels.surface });
      if (!PROBES.has(path)) sqlStatementsPerRequest.observe({ surface: labels.surface }, scope.sqlStatements);
    });
    runInRequestScope(scope, next);
  };
  const route: express.RequestHandler = async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };
  return { middleware, route };
}
