import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { countStatements } from '../helpers/database.ts';
import { graphClient } from '../helpers/graph.ts';
import { worldBuilder } from '../helpers/world.ts';
import { adTree, DEFAULT_PLACEMENT, importLines, type AdTree } from '../helpers/insights.ts';

// The delivery fields of a page of ad sets read with a constant number of statements, whatever the page's size
// (as test/graphql/batching.test.ts asks of every field): one per kind of read for the whole page.
describe('delivery fields, batched', () => {
  let server: TestServer;
  let token: string;
  let tree: AdTree;

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    ({ token } = await world.user({ organizationId: org.id, role: 'admin' }));
    tree = await adTree(world, org.id, { campaigns: 5, adSetsPerCampaign: 6, account: { timezoneName: 'Europe/Berlin' } });
    // Half the ad sets hold a daily budget, the others a lifetime one; every ad spent and clicked.
    for (const [i, adSet] of tree.adSets.entries()) {
      await server.deps
        .db('ad_sets')
        .where({ id: adSet.id })
        .update(i % 2 === 0 ? { daily_budget: 5000 } : { lifetime_budget: 90000 });
    }
    // Learning since the 5th (the world's ad sets were created today, on the real clock).
    await server.deps.db('ad_sets').update({ optimization_goal: 'LINK_CLICKS', last_significant_edit_time: new Date('2026-10-05T00:00:00Z') });
    server.deps.clock = () => new Date('2026-10-10T12:00:00Z');
    const lines = tree.ads.flatMap((ad, i) =>
      ['2026-10-08', '2026-10-10'].map((date) => ({ ad_id: ad.id, date, ...DEFAULT_PLACEMENT, impressions: 100, spend: 100 + i, actions: { link_click: i } })),
    );
    await importLines(server.deps, lines, { format: 'daily' });
  });
  afterAll(() => server?.close());

  const query = `query ($account: ID!, $n: Int!) {
    adSets(accountId: $account, first: $n) {
      nodes {
        budgetRemaining campaignActiveTime learningStageInfo { status conversions }
        campaign { budgetRemaining }
        account { amountSpent }
      }
    }
  }`;

  async function graphqlStatements(n: number) {
    const { result, statements } = await countStatements(server.deps.db, () => server.graphql(query, { account: tree.account.id, n }, token));
    expect(result.body.errors).toBeUndefined();
    const nodes = result.body.data!.adSets.nodes as Array<{ budgetRemaining: string; learningStageInfo: { conversions: number } }>;
    expect(nodes).toHaveLength(n);
    // The statistics were read: every page has spend and clicks.
    expect(nodes.some((node) => Number(node.budgetRemaining) < 5000)).toBe(true);
    expect(nodes.some((node) => node.learningStageInfo.conversions > 0)).toBe(true);
    return statements;
  }

  async function graphStatements(n: number) {
    const fields = 'budget_remaining,campaign_active_time,learning_stage_info,campaign{budget_remaining},account{amount_spent}';
    const { result, statements } = await countStatements(server.deps.db, () =>
      graphClient(server).get(`act_${tree.account.id}/adsets`, token, { fields, limit: n }),
    );
    expect(result.status, result.text).toBe(200);
    expect(result.body.data).toHaveLength(n);
    return statements;
  }

  it('GraphQL: the same statements for 5 and for 25 ad sets', async () => {
    await server.graphql('{ me { id } }', {}, token); // the session's once-a-minute touch, out of the counts
    await graphqlStatements(5); // the account, kept after its first read (src/db/generations.ts), out of the counts too
    const five = await graphqlStatements(5);
    const twentyFive = await graphqlStatements(25);
    expect(twentyFive.length).toBe(five.length);
    // Delivery adds two reads of the facts (spend of the ad sets, campaigns and account together; the learning days).
    expect(twentyFive.filter((sql) => /insight_facts/.test(sql))).toHaveLength(2);
  });

  it('/v24.0: the same statements for 5 and for 25 ad sets', async () => {
    await graphStatements(1);
    const five = await graphStatements(5);
    const twentyFive = await graphStatements(25);
    expect(twentyFive.length).toBe(five.length);
    // The ad sets' spend and learning days, then the spend of the campaigns and the account they refer to.
    expect(twentyFive.filter((sql) => /insight_facts/.test(sql)).length).toBeLessThanOrEqual(3);
  });
});
