import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { dataOf, eventually, firstError } from '../helpers/api.ts';
import { graphClient } from '../helpers/graph.ts';
import { adTree, importEvents, type AdTree } from '../helpers/insights.ts';
import { reportRuns } from '../../src/insights/reports/store.ts';

/**
 * Asynchronous insights reports in GraphQL (issue 19): createInsightsReport stores a report of an object, then
 * insightsReport(id) shows its status and pages its rows, which agree to the cent with the synchronous
 * `insights` connection and with GET /v24.0/<report_run_id>/insights of the same report.
 */
const DAY_MS = 86_400_000;
const dayAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
const TIME_RANGE = { since: dayAgo(4), until: dayAgo(1) };
const INPUT = { level: 'AD', timeRange: TIME_RANGE, timeIncrementDays: 1 };

const CREATE = `mutation Create($objectId: ID!, $input: InsightsInput!) {
  createInsightsReport(objectId: $objectId, input: $input) { id status percentCompletion }
}`;
const READ = `query Read($id: ID!, $first: Int, $after: String) {
  insightsReport(id: $id) {
    id status percentCompletion dateStart dateStop completedTime expiresTime error
    rows(first: $first, after: $after) {
      nodes { adId dateStart dateStop impressions reach clicks spend cpc }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
const SYNC = `query Sync($id: ID!, $input: InsightsInput!) {
  adSet(id: $id) { insights(input: $input, first: 100) { nodes { adId dateStart dateStop impressions reach clicks spend cpc } } }
}`;

describe('asynchronous insights reports in GraphQL', () => {
  let server: TestServer;
  let token: string;
  let outsiderToken: string;
  let tree: AdTree;

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_POLL_MS: '50' });
    const world = worldBuilder(server.deps);
    const organizationId = (await world.organization()).id;
    token = (await world.user({ organizationId, role: 'advertiser' })).token;
    outsiderToken = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token;
    tree = await adTree(world, organizationId, { campaigns: 1, adSetsPerCampaign: 1, adsPerAdSet: 3 });
    await importEvents(
      server.deps,
      tree.ads.flatMap((ad, index) =>
        [1, 2, 4].flatMap((ago) => [
          { type: 'impression' as const, ad_id: ad.id, time: `${dayAgo(ago)}T09:00:00Z`, person: `a${index}`, spend: 333 },
          { type: 'impression' as const, ad_id: ad.id, time: `${dayAgo(ago)}T10:00:00Z`, person: `b${index}`, spend: 117 + index },
          { type: 'click' as const, ad_id: ad.id, time: `${dayAgo(ago)}T10:00:01Z`, person: `b${index}`, link: true },
        ]),
      ),
    );
  });
  afterAll(() => server?.close());

  it('createInsightsReport, then insightsReport(id) pages rows equal to the synchronous insights and to /v24.0', async () => {
    const created = await server.graphql(CREATE, { objectId: tree.adSets[0]!.id, input: INPUT }, token);
    const report = dataOf(created.body).createInsightsReport;
    expect(report).toEqual({
      id: expect.stringMatching(/^\d+$/),
      status: expect.stringMatching(/^(NOT_STARTED|STARTED|RUNNING|COMPLETED)$/),
      percentCompletion: expect.any(Number),
    });

    const completed = await eventually(
      async () => {
        const read = dataOf((await server.graphql(READ, { id: report.id, first: 2 }, token)).body).insightsReport;
        return read.status === 'COMPLETED' ? read : null;
      },
      20_000,
      'the report to complete',
    );
    expect(completed).toMatchObject({ id: report.id, percentCompletion: 100, dateStart: TIME_RANGE.since, dateStop: TIME_RANGE.until, error: null });
    expect(Date.parse(completed.expiresTime) - Date.parse(completed.completedTime)).toBe(server.deps.config.insightsReports.ttlSeconds * 1000);

    const rows = [...completed.rows.nodes];
    let pageInfo = completed.rows.pageInfo;
    while (pageInfo.hasNextPage) {
      const next = dataOf((await server.graphql(READ, { id: report.id, first: 2, after: pageInfo.endCursor }, token)).body).insightsReport.rows;
      rows.push(...next.nodes);
      pageInfo = next.pageInfo;
    }
    // Three ads on three days.
    expect(rows).toHaveLength(9);
    const sync = dataOf((await server.graphql(SYNC, { id: tree.adSets[0]!.id, input: INPUT }, token)).body).adSet.insights.nodes;
    expect(rows).toEqual(sync);
    expect(rows[0]).toMatchObject({ impressions: 2, reach: 2, clicks: 1, spend: '4.50' });

    // The same report on /v24.0 prints the same numbers.
    const graph = graphClient(server);
    const printed = await graph.get(`${report.id}/insights`, token, { limit: 100 });
    expect(printed.status, printed.text).toBe(200);
    expect((printed.body.data as Array<Record<string, string>>).map((row) => [row.ad_id, row.date_start, row.impressions, row.spend])).toEqual(
      rows.map((row: Record<string, unknown>) => [row.adId, row.dateStart, String(row.impressions), row.spend]),
    );
  });

  it('is a Node, and another organization reads it as missing', async () => {
    const created = await server.graphql(CREATE, { objectId: `act_${tree.account.id}`, input: { timeRange: TIME_RANGE } }, token);
    const id = dataOf(created.body).createInsightsReport.id as string;
    const node = await server.graphql('query N($id: ID!) { node(id: $id) { __typename id } }', { id }, token);
    expect(dataOf(node.body).node).toEqual({ __typename: 'InsightsReport', id });
    const foreign = await server.graphql(READ, { id }, outsiderToken);
    expect(dataOf(foreign.body).insightsReport).toBeNull();
    const foreignNode = await server.graphql('query N($id: ID!) { node(id: $id) { id } }', { id }, outsiderToken);
    expect(dataOf(foreignNode.body).node).toBeNull();
    const refused = await server.graphql(CREATE, { objectId: tree.ads[0]!.id, input: { timeRange: TIME_RANGE } }, outsiderToken);
    expect(firstError(refused.body)).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
  });

  it('bad input is BAD_USER_INPUT naming the input field, and stores nothing', async () => {
    const before = await server.deps.db(reportRuns.table).count({ n: '*' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ timeIncrementDays: 91 }, 'input.timeIncrementDays'],
      [{ level: 'CAMPAIGN' }, 'input.level'],
      [{ timeRange: { since: TIME_RANGE.until, until: TIME_RANGE.since } }, 'input.timeRange'],
    ];
    for (const [input, field] of cases) {
      const response = await server.graphql(CREATE, { objectId: tree.adSets[0]!.id, input }, token);
      expect(firstError(response.body), JSON.stringify(response.body)).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field } });
    }
    expect(await server.deps.db(reportRuns.table).count({ n: '*' })).toEqual(before);
  });
});
