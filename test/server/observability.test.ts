import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { advertiserWithAdTree, type AdTree } from '../helpers/insights.ts';
import { createRequestContext } from '../../src/context/index.ts';
import { restorePrincipal } from '../../src/identity/principals.ts';
import { startJobRunner } from '../../src/jobs/index.ts';
import { createReportRun } from '../../src/insights/reports/service.ts';
import { reportRuns } from '../../src/insights/reports/store.ts';
import { JOB_KINDS } from '../../src/server/jobs.ts';
import { createClient } from '../../src/oauth/service.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';

/**
 * What an operator reads about requests: each request's log line names the GraphQL operation, the error codes and
 * the caller (ids, never a token), and /metrics counts operations, errors by code, SQL statements per request,
 * DataLoader batch sizes and the background jobs, all moved by real requests and a real job.
 */
let server: TestServer;
let token: string;
let userId: string;
let tree: AdTree;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  ({ token, userId, tree } = await advertiserWithAdTree(server.deps, { campaigns: 2, adSetsPerCampaign: 3, adsPerAdSet: 2 }));
});
afterAll(() => server?.close());

/** The value of one series (name and exact labels) in a scrape; 0 when absent. */
async function scrape(): Promise<(series: string) => number> {
  const response = await fetch(`${server.url}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return (series) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
}

// The ads' effective status reads whole rows: their pages are read by a batch of their own on both databases,
// not with the ad sets (src/db/child-pages.ts).
const NESTED = `query NestedRead($account: ID!) {
  adSets(accountId: $account, first: 10) { nodes { name campaign { name } ads(first: 5) { nodes { name effectiveStatus } } } }
}`;

const logLineOf = (response: Response) => {
  const id = response.headers.get('x-request-id');
  return server.logs.find((line) => (line.req as { id?: string } | undefined)?.id === id && line.msg === 'request completed');
};

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('the request log line', () => {
  it('names the operation, its type, the caller by id and the SQL statements, and holds no token', async () => {
    const response = await post({ query: NESTED, variables: { account: tree.account.id } }, { 'service-session-token': token });
    const body = (await response.json()) as { errors?: unknown };
    expect(body.errors).toBeUndefined();
    const line = logLineOf(response);
    expect(line).toMatchObject({
      graphql: { operationName: 'NestedRead', operationType: 'query' },
      caller: { kind: 'user', userId },
      res: { statusCode: 200 },
    });
    expect(line!.sqlStatements).toBeGreaterThan(0);
    expect(line).not.toHaveProperty('errorCodes');
    expect(JSON.stringify(server.logs)).not.toContain(token);
  });

  it('lists the error codes an answer carried, for an anonymous caller', async () => {
    const response = await post({ query: 'mutation Broken { nope }' });
    const line = logLineOf(response);
    expect(line).toMatchObject({ caller: { kind: 'anonymous' }, errorCodes: ['GRAPHQL_VALIDATION_FAILED'], graphql: { operationName: 'Broken' } });
  });

  it('names an API client by its ids, never its access token', async () => {
    const org = await worldBuilder(server.deps).organization();
    const { client, clientSecret } = await createClient(server.deps, { name: 'reporting', scope: 'ads_read', organization: org.id });
    const accessToken = await fetchAccessToken(server.url, client.clientId, clientSecret);
    const response = await post({ query: '{ __typename }' }, { authorization: `Bearer ${accessToken}` });
    expect(response.status).toBe(200);
    expect(logLineOf(response)).toMatchObject({ caller: { kind: 'client', clientId: client.clientId } });
    expect(JSON.stringify(server.logs)).not.toContain(accessToken);
  });
});

describe('/metrics', () => {
  it('counts GraphQL operations by type and name, errors by code, SQL statements per request and DataLoader batches', async () => {
    // The label this process gives the name: its own, unless 100 other names came first (other files of this worker).
    const { operationNameLabel } = await import('../../src/telemetry/metrics.ts');
    const nestedRead = operationNameLabel('NestedRead');
    const before = await scrape();
    for (let i = 0; i < 2; i++) {
      const response = await post({ query: NESTED, variables: { account: tree.account.id } }, { 'service-session-token': token });
      expect(response.status).toBe(200);
    }
    await post({ query: '{ nope }' });
    const after = await scrape();
    const moved = (series: string) => after(series) - before(series);

    expect(moved(`adgraph_graphql_operations_total{operation_type="query",operation_name="${nestedRead}",caller="user"}`)).toBe(2);
    expect(moved('adgraph_graphql_operations_total{operation_type="query",operation_name="anonymous",caller="anonymous"}')).toBe(1);
    expect(moved('adgraph_graphql_errors_total{code="GRAPHQL_VALIDATION_FAILED"}')).toBe(1);
    expect(moved('adgraph_sql_statements_per_request_count{surface="graphql"}')).toBe(3);
    // Two nested reads send more than a handful of statements; a validation failure sends none.
    expect(moved('adgraph_sql_statements_per_request_sum{surface="graphql"}')).toBeGreaterThanOrEqual(2 * 3);
    // The 6 ad sets' ads are read in one batch per read: 6 keys each.
    expect(moved('adgraph_dataloader_batch_size_count{loader="ads.page_by_adset_id"}')).toBe(2);
    expect(moved('adgraph_dataloader_batch_size_sum{loader="ads.page_by_adset_id"}')).toBe(12);
  });

  it('bounds operation names: past the cap they count as "other"', async () => {
    const { MAX_OPERATION_NAMES, operationNameLabeller } = await import('../../src/telemetry/metrics.ts');
    // A labeller of its own, as a fresh process has: the process's one has seen this worker's other files' names.
    const operationNameLabel = operationNameLabeller();
    expect(operationNameLabel('NestedRead')).toBe('NestedRead');
    const labels = Array.from({ length: MAX_OPERATION_NAMES + 5 }, (_, i) => operationNameLabel(`Invented${i}`));
    expect(labels.at(-1)).toBe('other');
    expect(new Set(labels).size).toBe(MAX_OPERATION_NAMES); // 99 invented names, and `other`
    expect(operationNameLabel('NestedRead')).toBe('NestedRead'); // seen before the flood: keeps its series
    expect(operationNameLabel(undefined)).toBe('anonymous');
  });

  it('shows the job queue depth and the outcomes of the jobs the runner ran', async () => {
    const viewer = (await restorePrincipal(server.deps, { kind: 'user', userId }))!;
    const ctx = createRequestContext(server.deps, { requestId: 'metrics-test', viewer });
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = await scrape();
    const run = await createReportRun(
      ctx,
      { kind: 'account', id: tree.account.id },
      { fields: ['impressions'], level: 'ad', timeRange: { since: day, until: day }, breakdowns: [], actionBreakdowns: [], filtering: [], sort: [] },
    );
    const waiting = await scrape();
    expect(waiting('adgraph_jobs_queue_depth{kind="insights_report",state="waiting"}')).toBe(1);
    expect(waiting('adgraph_jobs_queue_depth{kind="adset_copy",state="waiting"}')).toBe(0);

    const runner = startJobRunner(server.deps, JOB_KINDS, { pollMs: 20, leaseSeconds: 60 });
    let status = '';
    try {
      for (let i = 0; i < 250 && status !== 'COMPLETED' && status !== 'FAILED'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ({ status } = reportRuns.fromRow(await server.deps.db(reportRuns.table).where({ id: run.id }).first()));
      }
    } finally {
      await runner.stop();
    }
    // Whichever way the run ended (this account has no statistics), the counter says the same.
    const outcome = { COMPLETED: 'done', FAILED: 'failed' }[status];
    expect(outcome, status).toBeDefined();
    const after = await scrape();
    const series = `adgraph_jobs_total{kind="insights_report",outcome="${outcome}"}`;
    expect(after(series) - before(series)).toBe(1);
    expect(after('adgraph_job_duration_seconds_count{kind="insights_report"}')).toBeGreaterThan(
      before('adgraph_job_duration_seconds_count{kind="insights_report"}'),
    );
    expect(after('adgraph_jobs_queue_depth{kind="insights_report",state="waiting"}')).toBe(0);
  });
});
