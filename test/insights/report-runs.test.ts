import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../helpers/database.ts';
import { worldBuilder } from '../helpers/world.ts';
import { eventually } from '../helpers/api.ts';
import { pointSdkAt, type SdkCursor, type SdkObject } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { adTree, importEvents, type AdTree } from '../helpers/insights.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../../src/context/index.ts';
import { createDatabase } from '../../src/db/index.ts';
import { createLogger } from '../../src/logging/index.ts';
import { startServer } from '../../src/server/index.ts';
import { claimNext, startJobRunner, type JobKind } from '../../src/jobs/index.ts';
import { insightsReportJobs } from '../../src/insights/reports/job.ts';
import { reportRuns, type ReportRunRecord } from '../../src/insights/reports/store.ts';
import { users } from '../../src/identity/store.ts';
import { JOB_KINDS } from '../../src/server/jobs.ts';

/**
 * Asynchronous insights reports (issue 19, AdReportRun): POST /v24.0/<object>/insights stores a report run and
 * answers {report_run_id} at once; the job runner (src/jobs, kind src/insights/reports/job.ts) computes it with
 * the engine of synchronous reports; GET /v24.0/<report_run_id> shows async_status and the percent, and
 * GET /v24.0/<report_run_id>/insights pages the stored rows. Runs survive a restart, one runner of two runs each,
 * a failure is `Job Failed` with the error, a finished run expires, and another organization's run is missing.
 */

interface SdkInsightsOwner {
  getInsights(fields: string[], params?: Record<string, unknown>, fetchFirstPage?: boolean): Promise<SdkCursor>;
  getInsightsAsync(fields: string[], params?: Record<string, unknown>): Promise<SdkReportRun & SdkObject>;
}
interface SdkReportRun {
  get(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  getInsights(fields: string[], params?: Record<string, unknown>, fetchFirstPage?: boolean): Promise<SdkCursor>;
}
interface Sdk {
  AdSet: new (id: string) => SdkInsightsOwner;
}
const { AdSet } = bizSdk as unknown as Sdk;

const DAY_MS = 86_400_000;
const dayAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
/** A window of past days (the account's time zone is UTC), fixed for the whole file. */
const SINCE = dayAgo(6);
const UNTIL = dayAgo(1);
const TIME_RANGE = { since: SINCE, until: UNTIL };

/** Delivery for each ad on each of `days` past days: 2 impressions by two people and a click, spend 150 + ad index. */
async function deliver(deps: Pick<AppDeps, 'db'>, tree: AdTree, days: number[]) {
  const events = tree.ads.flatMap((ad, index) =>
    days.flatMap((ago) => {
      const time = `${dayAgo(ago)}T12:00:00Z`;
      return [
        { type: 'impression' as const, ad_id: ad.id, time, person: `p-${index}-a`, spend: 100 },
        { type: 'impression' as const, ad_id: ad.id, time, person: `p-${index}-b`, spend: 50 + index },
        { type: 'click' as const, ad_id: ad.id, time, person: `p-${index}-a`, link: true },
      ];
    }),
  );
  await importEvents(deps, events);
}

const runRow = async (db: AppDeps['db'], id: string): Promise<ReportRunRecord> => reportRuns.fromRow(await db(reportRuns.table).where({ id }).first());

/** Waits until the run has ended (COMPLETED or FAILED), reading the table (the API has a per-account call allowance). */
async function ended(db: AppDeps['db'], id: string, timeoutMs = 20_000): Promise<ReportRunRecord> {
  return eventually(
    async () => {
      const run = await runRow(db, id);
      return run.status === 'COMPLETED' || run.status === 'FAILED' ? run : null;
    },
    timeoutMs,
    `report run ${id} to end`,
  );
}

async function post(graph: GraphClient, token: string, objectId: string, params: Record<string, unknown>) {
  return graph.call('POST', `/v24.0/${objectId}/insights`, { token, json: params });
}

describe('asynchronous insights reports on a running server', () => {
  let server: TestServer;
  let world: ReturnType<typeof worldBuilder>;
  let graph: GraphClient;
  let token: string;
  let outsiderToken: string;
  let organizationId: string;
  let tree: AdTree;

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_POLL_MS: '50' });
    world = worldBuilder(server.deps);
    graph = graphClient(server);
    organizationId = (await world.organization()).id;
    token = (await world.user({ organizationId, role: 'advertiser' })).token;
    outsiderToken = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token;
    tree = await adTree(world, organizationId, { campaigns: 1, adSetsPerCampaign: 2, adsPerAdSet: 3 });
    await deliver(server.deps, tree, [1, 2, 3, 6]);
  });
  afterAll(() => server?.close());

  it('the official SDK follows getInsightsAsync to Job Completed and pages the rows, which equal the synchronous report', async () => {
    const restore = pointSdkAt(server.url, token);
    try {
      const adSet = new AdSet(tree.adSets[0]!.id);
      const fields = ['ad_id', 'impressions', 'clicks', 'spend', 'reach', 'cpc'];
      const params = { level: 'ad', time_range: TIME_RANGE, time_increment: 1 };
      // The SDK's AdReportRun takes its id from the answer's report_run_id (its constructor ignores an id argument).
      const run = await adSet.getInsightsAsync(fields, { ...params });
      const reportRunId = run.id;
      expect(reportRunId).toMatch(/^\d+$/);
      const completed = await eventually(
        async () => {
          const read = await run.get(['async_status', 'async_percent_completion', 'account_id', 'date_start', 'date_stop']);
          expect(['Job Not Started', 'Job Started', 'Job Running', 'Job Completed']).toContain(read._data.async_status);
          return read._data.async_status === 'Job Completed' ? read._data : null;
        },
        20_000,
        'the report to complete',
      );
      expect(completed).toMatchObject({ id: reportRunId, async_percent_completion: 100, account_id: tree.account.id, date_start: SINCE, date_stop: UNTIL });

      // Paged two rows at a time through the SDK's cursor, then compared with the synchronous report.
      const rows: Array<Record<string, unknown>> = [];
      let page = await run.getInsights([], { limit: 2 });
      rows.push(...page.map((row) => row._data));
      while (page.hasNext()) {
        page = await page.next();
        rows.push(...page.map((row) => row._data));
      }
      // Three ads on four days of the window.
      expect(rows).toHaveLength(12);
      const sync: Array<Record<string, unknown>> = [];
      let syncPage = await adSet.getInsights(fields, { ...params, limit: 100 });
      sync.push(...syncPage.map((row) => row._data));
      while (syncPage.hasNext()) {
        syncPage = await syncPage.next();
        sync.push(...syncPage.map((row) => row._data));
      }
      expect(rows).toEqual(sync);
      expect(rows[0]).toMatchObject({ impressions: '2', clicks: '1' });
    } finally {
      restore();
    }
  });

  it('an account-level report by the Graph API: {report_run_id} at once, then the run and its rows', async () => {
    const response = await post(graph, token, `act_${tree.account.id}`, { fields: 'impressions,spend,clicks', time_range: TIME_RANGE });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ report_run_id: expect.stringMatching(/^\d+$/) });
    const id = response.body.report_run_id as string;
    const run = await ended(server.deps.db, id);
    expect(run).toMatchObject({ status: 'COMPLETED', percent: 100, rowCount: 1, claimedBy: null, attempts: 1 });

    // Without fields, the run reads as the platform's AdReportRun does.
    const read = await graph.get(id, token);
    expect(read.body, read.text).toEqual({
      id,
      account_id: tree.account.id,
      time_ref: Math.floor(run.createdTime.getTime() / 1000),
      time_completed: Math.floor(run.completedTime!.getTime() / 1000),
      async_status: 'Job Completed',
      async_percent_completion: 100,
      date_start: SINCE,
      date_stop: UNTIL,
    });
    const rows = await graph.get(`${id}/insights`, token);
    expect(rows.status, rows.text).toBe(200);
    // 6 ads x 4 days x 2 impressions; spend (100 + 50 + i) per ad per day, in dollars.
    const cents = [0, 1, 2, 3, 4, 5].reduce((sum, i) => sum + 4 * (150 + i), 0);
    expect(rows.body.data).toEqual([{ impressions: '48', spend: (cents / 100).toFixed(2), clicks: '24', date_start: SINCE, date_stop: UNTIL }]);
  });

  it('bad parameters are error 100 naming the parameter at once, and store nothing', async () => {
    const before = await server.deps.db(reportRuns.table).count({ n: '*' });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ date_preset: 'last_8d' }, /date_preset/],
      [{ time_increment: 91 }, /time_increment/],
      [{ breakdowns: 'age,country' }, /breakdown/],
      [{ fields: 'impressions,nonsense' }, /fields/],
      [{ level: 'campaign' }, /level/],
      [{ time_range: { since: UNTIL, until: SINCE } }, /time_range/],
    ];
    for (const [params, message] of cases) {
      const response = await post(graph, token, tree.adSets[0]!.id, params);
      expectGraphError(response, { status: 400, code: 100, message });
    }
    expect(await server.deps.db(reportRuns.table).count({ n: '*' })).toEqual(before);
  });

  it("another organization's caller cannot make a report on the objects, nor read a run, its rows or its status", async () => {
    const refused = await post(graph, outsiderToken, tree.adSets[0]!.id, { time_range: TIME_RANGE });
    expectGraphError(refused, { status: 400, code: 100, subcode: 33 });
    const mine = await post(graph, token, tree.campaigns[0]!.id, { time_range: TIME_RANGE });
    const id = mine.body.report_run_id as string;
    await ended(server.deps.db, id);
    for (const path of [id, `${id}/insights`]) {
      const read = await graph.get(path, outsiderToken);
      expectGraphError(read, { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(id) });
    }
    // The same answer as an id that names nothing.
    const nothing = await graph.get('999999999999', outsiderToken);
    expectGraphError(nothing, { status: 400, code: 100, subcode: 33 });
  });

  it('a report whose maker can no longer act ends Job Failed with the error, and has no rows', async () => {
    const maker = await world.user({ organizationId, role: 'advertiser' });
    // Stored while no runner runs: the maker is suspended before it runs.
    await server.deps.jobs?.stop();
    server.deps.jobs = undefined;
    const response = await post(graph, maker.token, `act_${tree.account.id}`, { time_range: TIME_RANGE });
    const id = response.body.report_run_id as string;
    await server.deps.db(users.table).where({ id: maker.user.id }).update({ status: 'suspended' });
    server.deps.jobs = startJobRunner(server.deps, JOB_KINDS, { pollMs: 50, leaseSeconds: 60 });

    const run = await ended(server.deps.db, id);
    expect(run).toMatchObject({ status: 'FAILED', rowCount: null, error: { code: 200 } });
    const read = await graph.get(id, token, { fields: 'async_status,async_percent_completion,error_code,error_message' });
    expect(read.body, read.text).toMatchObject({ async_status: 'Job Failed', error_code: 200, error_message: expect.stringContaining('can no longer act') });
    const rows = await graph.get(`${id}/insights`, token);
    expect(rows.body, rows.text).toEqual({ data: [] });
  });

  it('a finished run answers as missing once its time is up, and the runner deletes it with its rows', async () => {
    const response = await post(graph, token, tree.ads[0]!.id, { time_range: TIME_RANGE, time_increment: 1 });
    const id = response.body.report_run_id as string;
    const run = await ended(server.deps.db, id);
    expect(run.expiresAt!.getTime() - run.completedTime!.getTime()).toBe(server.deps.config.insightsReports.ttlSeconds * 1000);
    expect(Number(((await server.deps.db('insight_report_rows').where({ report_run_id: id }).count({ n: '*' })) as [{ n: unknown }])[0].n)).toBe(4);

    await server.deps
      .db(reportRuns.table)
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expectGraphError(await graph.get(id, token), { status: 400, code: 100, subcode: 33 });
    await eventually(async () => !(await server.deps.db(reportRuns.table).where({ id }).first()), 10_000, 'the expired run to be deleted');
    expect(await server.deps.db('insight_report_rows').where({ report_run_id: id })).toEqual([]);
    expect(await server.deps.db('graph_objects').where({ id })).toEqual([]);
  });
});

describe('report runs over a database shared by instances', () => {
  let database: TestDatabase;
  let idle: Awaited<ReturnType<typeof instance>>;
  let token: string;
  let tree: AdTree;

  /** A server over the shared database with its own pool (its runner off when ASYNC_RUNNER=false). */
  async function instance(env: Record<string, string> = {}) {
    const config = loadConfig({ LOG_LEVEL: 'silent', BCRYPT_COST: '4', ASYNC_POLL_MS: '50', ...env, PORT: '0', DATABASE_URL: database.url });
    const db = createDatabase(database.url, database.schema ? { schema: database.schema } : {});
    const deps = createAppDeps(config, { db, log: createLogger('silent'), rateLimitPrefix: `test-${randomUUID()}` });
    const running = await startServer(deps, { port: 0, host: '127.0.0.1' });
    return { deps, graph: graphClient(running), close: () => running.close() };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    idle = await instance({ ASYNC_RUNNER: 'false' });
    const world = worldBuilder(idle.deps);
    const organizationId = (await world.organization()).id;
    token = (await world.user({ organizationId, role: 'advertiser' })).token;
    tree = await adTree(world, organizationId, { campaigns: 2, adSetsPerCampaign: 1, adsPerAdSet: 2 });
    await deliver(idle.deps, tree, [1, 2]);
  });
  afterAll(async () => {
    await idle?.close();
    await database?.dispose();
  });

  it('a run stored by a server that stops before running it is completed by a server started later', async () => {
    const asker = await instance({ ASYNC_RUNNER: 'false' });
    const response = await post(asker.graph, token, `act_${tree.account.id}`, { level: 'campaign', time_range: TIME_RANGE });
    const id = response.body.report_run_id as string;
    const waiting = await asker.graph.get(id, token, { fields: 'async_status,async_percent_completion' });
    expect(waiting.body).toEqual({ id, async_status: 'Job Not Started', async_percent_completion: 0 });
    // The server that took the call stops; the run is a row, and the next instance runs it.
    await asker.close();
    expect(await runRow(database.db, id)).toMatchObject({ status: 'NOT_STARTED', attempts: 0 });
    const later = await instance();
    try {
      const run = await ended(database.db, id);
      expect(run).toMatchObject({ status: 'COMPLETED', rowCount: 2, attempts: 1 });
      const rows = await later.graph.get(`${id}/insights`, token, { limit: 1 });
      expect(rows.body.data).toHaveLength(1);
      expect(rows.body.paging.next).toEqual(expect.any(String));
      const second = await later.graph.get(`${id}/insights`, token, { limit: 1, after: rows.body.paging.cursors.after });
      expect(second.body.data).toHaveLength(1);
      expect(second.body.data[0].campaign_id ?? second.body.data[0]).not.toEqual(rows.body.data[0].campaign_id ?? rows.body.data[0]);
      expect(second.body.paging.next).toBeUndefined();
    } finally {
      await later.close();
    }
  });

  it('a run whose instance died is claimed again once its lease has expired', async () => {
    const response = await post(idle.graph, token, tree.campaigns[1]!.id, { time_range: TIME_RANGE });
    const id = response.body.report_run_id as string;
    await database
      .db(reportRuns.table)
      .where({ id })
      .update({ status: 'RUNNING', percent: 50, claimed_by: 'dead', lease_expires_at: new Date(Date.now() - 1000), attempts: 1 });
    const later = await instance();
    try {
      expect(await ended(database.db, id)).toMatchObject({ status: 'COMPLETED', attempts: 2, claimedBy: null });
    } finally {
      await later.close();
    }
  });

  it.runIf(TEST_DB === 'postgres')('two runners sharing the database run each of N reports exactly once', async () => {
    const N = 8;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const response = await post(idle.graph, token, tree.adSets[i % tree.adSets.length]!.id, { time_range: TIME_RANGE, time_increment: 1 });
      ids.push(response.body.report_run_id as string);
    }
    // Each runner has its own pool and counts the runs it computes.
    const counted = (ran: string[]): JobKind<ReportRunRecord> => ({
      ...insightsReportJobs,
      run: async (deps, job, lease, log) => {
        ran.push(job.id);
        await insightsReportJobs.run(deps, job, lease, log);
      },
    });
    const runs: string[][] = [[], []];
    const pools = runs.map(() => createDatabase(database.url, database.schema ? { schema: database.schema } : {}));
    const runners = runs.map((ran, i) => startJobRunner({ ...idle.deps, db: pools[i]! }, [counted(ran)], { pollMs: 20, leaseSeconds: 60 }));
    try {
      for (const id of ids) expect(await ended(database.db, id)).toMatchObject({ status: 'COMPLETED', attempts: 1, rowCount: 2 });
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
    const all = runs.flat();
    expect(all.sort()).toEqual([...ids].sort());
    expect(await claimNext(database.db, insightsReportJobs, 'probe', 60)).toBeNull();
  });
});
