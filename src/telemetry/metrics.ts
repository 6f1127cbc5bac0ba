import { Counter, Histogram, type Metric, type Registry } from 'prom-client';
import type { Knex } from 'knex';
import { currentRequest } from './request-scope.ts';

/**
 * The metrics the layers below HTTP record (the database, the loaders, the GraphQL server, the background runner).
 * They are made once per process and registered in each app's registry (src/server/health.ts), as the bcrypt
 * pool's counter is, so the layers need no handle on the app. Every label takes a bounded set of values.
 */

export const sqlStatementsPerRequest = new Histogram({
  name: 'adgraph_sql_statements_per_request',
  help: 'SQL statements one HTTP request sent, by surface',
  labelNames: ['surface'],
  buckets: [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144],
  registers: [],
});

export const dataLoaderBatchSize = new Histogram({
  name: 'adgraph_dataloader_batch_size',
  help: 'Keys per DataLoader batch (one SQL statement each), by loader',
  labelNames: ['loader'],
  buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
  registers: [],
});

export const graphqlOperations = new Counter({
  name: 'adgraph_graphql_operations_total',
  help: 'GraphQL operations by type, name (see operationNameLabel) and the kind of caller',
  labelNames: ['operation_type', 'operation_name', 'caller'],
  registers: [],
});

export const graphqlErrors = new Counter({
  name: 'adgraph_graphql_errors_total',
  help: 'Errors in GraphQL answers (request and resolver errors), by extensions.code',
  labelNames: ['code'],
  registers: [],
});

export const jobOutcomes = new Counter({
  name: 'adgraph_jobs_total',
  help: 'Background jobs run, by kind and outcome',
  labelNames: ['kind', 'outcome'],
  registers: [],
});

export const jobDuration = new Histogram({
  name: 'adgraph_job_duration_seconds',
  help: 'Time one run of a background job took, by kind',
  labelNames: ['kind'],
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [],
});

export const generationReads = new Counter({
  // Named when it counted the identity generation alone; the ad account generation is read in the same statement.
  name: 'adgraph_identity_generation_reads_total',
  help: "Reads of the caches' generations, identity and ad accounts, in one statement (one answers every request that arrived in the event loop's turn before it started)",
  registers: [],
});

const PROCESS_METRICS: Metric[] = [sqlStatementsPerRequest, dataLoaderBatchSize, graphqlOperations, graphqlErrors, jobOutcomes, jobDuration, generationReads];

export function registerProcessMetrics(registry: Registry): void {
  for (const metric of PROCESS_METRICS) registry.registerMetric(metric);
}

/**
 * Operation names come from clients and any text could arrive: the first MAX_OPERATION_NAMES distinct names this
 * process sees get a series each, later ones count as `other`, and an operation without a name is `anonymous`.
 * A frontend sends a few dozen names, all seen within minutes of a start; a client inventing names cannot grow the
 * series past the cap. (Only persisted operations would be a closed list, and clients here send documents.)
 */
export const MAX_OPERATION_NAMES = 100;

/** A labeller with the cap above and names of its own: the process has one (operationNameLabel). */
export function operationNameLabeller(max = MAX_OPERATION_NAMES): (name: string | null | undefined) => string {
  const seen = new Set<string>();
  return (name) => {
    if (!name) return 'anonymous';
    if (seen.has(name)) return name;
    if (seen.size >= max) return 'other';
    seen.add(name);
    return name;
  };
}

export const operationNameLabel = operationNameLabeller();

const countedDatabases = new WeakSet<Knex>();

/** Counts each SQL statement toward the request that sent it (a statement outside any request is not counted). */
export function countStatementsPerRequest(db: Knex): void {
  if (countedDatabases.has(db)) return;
  countedDatabases.add(db);
  db.on('query', () => {
    const scope = currentRequest();
    if (scope) scope.sqlStatements++;
  });
}
