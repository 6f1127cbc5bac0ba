import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { dataOf } from '../helpers/api.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { adTree, importEvents, type AdTree } from '../helpers/insights.ts';

/**
 * A day is the ad account's day, on both surfaces (issue 19): the same three impressions read as `yesterday` by a
 * Los Angeles account and a UTC one, on the day Los Angeles springs forward (23 hours, still one row), with the
 * server's clock fixed the morning after.
 */

const NOW = new Date('2026-03-09T12:00:00Z'); // 05:00 PDT on the 9th in Los Angeles
/** The three instants: 23:30 PST on the 7th, 00:30 PST and 23:30 PDT on the 8th (Los Angeles). */
const TIMES = ['2026-03-07T23:30:00-08:00', '2026-03-08T00:30:00-08:00', '2026-03-08T23:30:00-07:00'];
const SPENDS = [400, 100, 200];

let server: TestServer;
let graph: GraphClient;
let token: string;
let losAngeles: AdTree;
let utc: AdTree;

beforeAll(async () => {
  server = await startTestServer();
  server.deps.clock = () => NOW;
  graph = graphClient(server);
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  losAngeles = await adTree(world, org.id, { account: { timezoneName: 'America/Los_Angeles' } });
  utc = await adTree(world, org.id, { account: { timezoneName: 'Etc/UTC' } });
  await importEvents(
    server.deps,
    [losAngeles, utc].flatMap((tree) =>
      TIMES.map((time, i) => ({ type: 'impression' as const, ad_id: tree.ads[0]!.id, time, person: `p${i}`, spend: SPENDS[i] })),
    ),
  );
});
afterAll(async () => {
  await server?.close();
});

async function yesterday(tree: AdTree) {
  const rest = await graph.get(`act_${tree.account.id}/insights`, token, { fields: 'impressions,spend', date_preset: 'yesterday', time_increment: 1 });
  expect(rest.status, rest.text).toBe(200);
  const { body } = await server.graphql(
    `query($id: ID!) { adAccount(id: $id) { insights(input: { datePreset: YESTERDAY, timeIncrementDays: 1 }) { nodes { dateStart dateStop impressions spend } } } }`,
    { id: tree.account.id },
    token,
  );
  const nodes = dataOf(body).adAccount.insights.nodes as Array<{ dateStart: string; dateStop: string; impressions: number; spend: string }>;
  // Both surfaces, the same rows.
  expect(nodes.map((row) => ({ impressions: String(row.impressions), spend: row.spend, date_start: row.dateStart, date_stop: row.dateStop }))).toEqual(
    rest.body.data,
  );
  return rest.body.data;
}

describe("yesterday is the account's yesterday, on both surfaces", () => {
  it("Los Angeles: the 8th, 23 hours long, one row with its two impressions (not UTC's)", async () => {
    expect(await yesterday(losAngeles)).toEqual([{ impressions: '2', spend: '3.00', date_start: '2026-03-08', date_stop: '2026-03-08' }]);
  });

  it('UTC: the 8th of UTC, holding another pair of the same impressions', async () => {
    expect(await yesterday(utc)).toEqual([{ impressions: '2', spend: '5.00', date_start: '2026-03-08', date_stop: '2026-03-08' }]);
  });
});
