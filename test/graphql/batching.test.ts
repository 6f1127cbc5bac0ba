import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { countStatements } from '../helpers/database.ts';
import { worldBuilder } from '../helpers/world.ts';
import { dialect } from '../../src/db/index.ts';

// The number of SQL statements a nested query sends must not grow with the number of objects it returns.
describe('DataLoader batching', () => {
  let server: TestServer;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    // The background runner's polling would be counted too.
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    ({ token } = await world.user({ organizationId: org.id, role: 'admin' }));
    const account = await world.adAccount(org.id);
    accountId = account.id;
    // Every third ad set uses a flagged audience, so issues and WITH_ISSUES are resolved for real.
    const flagged = await world.audience(account);
    const campaigns = await world.campaigns(account, 5);
    for (const campaign of campaigns) {
      const sets = await world.adSets(campaign, 10, (i) => ({
        targeting: { geo_locations: { countries: ['US'] }, ...(i % 3 === 0 ? { custom_audiences: [{ id: flagged.id }] } : {}) },
      }));
      for (const adSet of sets) await world.ads(adSet, 2);
    }
  });
  afterAll(() => server?.close());

  const query = `query ($account: ID!, $n: Int!) {
    adSets(accountId: $account, first: $n) {
      totalCount
      nodes {
        name effectiveStatus issues { errorCode additionalInfo }
        campaign { name effectiveStatus account { name } }
        account { name organization { name } }
        ads(first: 5) { totalCount nodes { name effectiveStatus adSet { name } } }
      }
    }
  }`;

  async function statementsFor(n: number) {
    const { result, statements } = await countStatements(server.deps.db, () => server.graphql(query, { account: accountId, n }, token));
    expect(result.body.errors).toBeUndefined();
    const nodes = result.body.data!.adSets.nodes as Array<{ effectiveStatus: string; issues: unknown[]; ads: { nodes: Array<{ effectiveStatus: string }> } }>;
    expect(nodes).toHaveLength(n);
    expect(nodes.every((node) => node.ads.nodes.length === 2)).toBe(true);
    // The issues are real: flagged ad sets (and their ads) read WITH_ISSUES, the others ACTIVE.
    expect(nodes.filter((node) => node.issues.length === 1).length).toBeGreaterThan(0);
    for (const node of nodes) {
      const expected = node.issues.length > 0 ? 'WITH_ISSUES' : 'ACTIVE';
      expect([node.effectiveStatus, ...node.ads.nodes.map((ad) => ad.effectiveStatus)]).toEqual([expected, expected, expected]);
    }
    return statements;
  }

  it('runs the same number of statements for 5 and for 50 ad sets', async () => {
    // A session is touched at most once a minute (one more statement): a slow setup must not make that land in
    // one of the two counts, so the touch happens here.
    await server.graphql('{ me { id } }', {}, token);
    // The account is kept after its first read (src/db/generations.ts): read once before either count.
    await statementsFor(1);
    const five = await statementsFor(5);
    const fifty = await statementsFor(50);
    expect(fifty.length).toBe(five.length);
    // Authentication (2), the account, the page, the count, campaigns, accounts, organizations, ads and their count,
    // the ad sets' references and their audiences (issues, effective status): each one statement for all 50.
    expect(fifty.length).toBeLessThanOrEqual(12);
  });

  it("answers two lists of each parent's children asked for in turn, each its own page, in a statement each", async () => {
    const { result, statements } = await countStatements(server.deps.db, () =>
      server.graphql(
        `query ($account: ID!) { adSets(accountId: $account, first: 20) { nodes { one: ads(first: 1) { nodes { id } } two: ads(first: 2) { nodes { id } } again: ads(first: 1) { nodes { id } } } } }`,
        { account: accountId },
        token,
      ),
    );
    expect(result.body.errors).toBeUndefined();
    type Ids = { nodes: Array<{ id: string }> };
    const nodes = result.body.data!.adSets.nodes as Array<{ one: Ids; two: Ids; again: Ids }>;
    expect(nodes).toHaveLength(20);
    for (const node of nodes) {
      expect(node.two.nodes).toHaveLength(2);
      expect(node.one.nodes.map((ad) => ad.id)).toEqual([node.two.nodes[0]!.id]);
      expect(node.again).toEqual(node.one);
    }
    // The two pages of every parent: a statement each, whatever the order the parents asked in.
    expect(statements.filter((sql) => /from [`"]?ads[`"]?/i.test(sql) && /json_each|lateral/i.test(sql))).toHaveLength(2);
  });

  it('pages the children of many parents in one statement', async () => {
    // effectiveStatus reads whole rows: the ads' pages are read by a statement of their own on both databases.
    const { statements } = await countStatements(server.deps.db, () =>
      server.graphql(
        `query ($account: ID!) { adSets(accountId: $account, first: 50) { nodes { ads(first: 1) { nodes { id effectiveStatus } } } } }`,
        { account: accountId },
        token,
      ),
    );
    // One page per ad set, read from an index from the cursor (json_each on SQLite, LATERAL on PostgreSQL).
    expect(statements.filter((sql) => /from [`"]?ads[`"]?/i.test(sql) && /json_each|lateral/i.test(sql))).toHaveLength(1);
  });

  it("reads each parent's first page of children with the parents on PostgreSQL, by their own statement on SQLite", async () => {
    const { result, statements } = await countStatements(server.deps.db, () =>
      server.graphql(
        `query ($account: ID!) { adSets(accountId: $account, first: 50) { nodes { id ads(first: 1) { nodes { id name } } } } }`,
        { account: accountId },
        token,
      ),
    );
    expect(result.body.errors).toBeUndefined();
    expect((result.body.data!.adSets.nodes as Array<{ ads: { nodes: unknown[] } }>).every((node) => node.ads.nodes.length === 1)).toBe(true);
    const adsReads = statements.filter((sql) => /from [`"]?ads[`"]?/i.test(sql));
    expect(adsReads).toHaveLength(1);
    if (dialect(server.deps.db) === 'postgres') expect(adsReads[0]).toMatch(/array_to_json\(array\([\s\S]*from "ads"[\s\S]*from "ad_sets"/);
    else expect(adsReads[0]).toMatch(/json_each/);
  });
});
