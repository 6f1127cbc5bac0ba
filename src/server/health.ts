import express, { type Router } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppDeps } from '../context/index.ts';
import { pendingMigrations } from '../db/migrate.ts';

/**
 * /healthz: the process answers. /readyz: the database answers and its schema is current, and the server is not
 * stopping (a load balancer that checks it stops sending here while the stop's drain period lasts).
 */
export function healthRoutes(deps: AppDeps, stopping: () => boolean): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  router.get('/readyz', async (req, res) => {
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
  });
  return router;
}

/**
 * Prometheus metrics: process defaults, one histogram of request durations by surface and status, and the
 * bcrypt pool's comparisons.
 */
export function metrics(deps: AppDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(deps.passwords.verifications);
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
    res.on('finish', () => {
      const labels = { method: req.method, surface: surfaceOf(path), status: String(res.statusCode) };
      end(labels);
      if (res.statusCode >= 500) errors.inc({ surface: labels.surface });
    });
    next();
  };
  const route: express.RequestHandler = async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };
  return { middleware, route };
}
