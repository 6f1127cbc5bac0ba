import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { countStatements } from '../helpers/database.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { worldBuilder } from '../helpers/world.ts';
import { parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { columnsOfFields, connectionPlan } from '../../src/graphql/projection.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { selectionColumns, selectionPlan } from '../../src/graph-api/projection.ts';
import { parseFields } from '../../src/graph-api/fields.ts';
import { NODES } from '../../src/graph-api/nodes.ts';
import { adSetReads } from '../../src/ads/resolvers/reads.ts';
import { adSets } from '../../src/ads/store.ts';
import { defineTable } from '../../src/db/rows.ts';
import { dialect } from '../../src/db/index.ts';

/**
 * Reading only the columns a request shows (src/graphql/projection.ts, src/graph-api/projection.ts): the rules, and
 * that an answer read from narrowed rows is byte for byte the answer read from whole rows, on both surfaces.
 */
describe('the columns a selection reads (pure rules)', () => {
  const resolved = new Set(['configuredStatus', 'effectiveStatus', 'campaign', 'ads', 'targeting']);

  it('maps fields resolved by name to their columns, and listed resolvers to what they declare', () => {
    expect(columnsOfFields(['id', 'name', 'dailyBudget', '__typename', 'configuredStatus', 'campaign', 'ads'], adSetReads, resolved)).toEqual([
      'id',
      'name',
      'daily_budget',
      'status',
    ]);
  });

  it('reads the whole row for a resolver it was not told about, or a name that is no column', () => {
    expect(columnsOfFields(['name', 'effectiveStatus'], adSetReads, resolved)).toBeUndefined();
    expect(columnsOfFields(['name', 'targeting'], adSetReads, resolved)).toBeUndefined();
    expect(columnsOfFields(['name', 'notAColumn'], adSetReads, new Set())).toBeUndefined();
  });

  it('maps /v24.0 fields the same way: columns, references and edges by what they declare, anything else whole', () => {
    const adSet = NODES.AdSet;
    expect(selectionColumns(adSet, parseFields('id,name,daily_budget,campaign{name},ads.limit(5){id,name}'))).toEqual(['id', 'name', 'daily_budget']);
    expect(selectionColumns(adSet, parseFields('name,effective_status'))).toBeUndefined();
    expect(selectionColumns(adSet, parseFields('name,insights{impressions}'))).toBeUndefined();
    expect(selectionColumns(adSet, parseFields('name,delivery_estimate'))).toBeUndefined();
    expect(selectionColumns(adSet, [])).toEqual([]);
    // A node whose id is not the record's own (a like's is its author's) reads whole rows, even for ids alone.
    expect(selectionColumns(NODES.Like, [])).toBeUndefined();
  });

  it('/v24.0: joins a reference when what it shows of it reads columns alone', () => {
    const joined = selectionPlan(NODES.AdSet, parseFields('name,campaign{name,objective}')).references!;
    expect(joined.map((reference) => [reference.column, reference.mapping.table, Object.keys(reference.mapping.columns)])).toEqual([
      ['campaign_id', 'campaigns', ['id', 'organization_id', 'account_id', 'name', 'objective']],
    ]);
    expect(selectionPlan(NODES.AdSet, parseFields('name,campaign{name,effective_status}')).references).toEqual([]);
    expect(selectionPlan(NODES.AdSet, parseFields('name,account{name}')).references).toEqual([]);
  });

  it("knows every domain's resolvers of a type (the schema's merged maps): a field another domain resolves reads whole rows", () => {
    const schema = buildSchema();
    const planOf = (query: string) => {
      const document = parse(query);
      const operation = document.definitions[0] as OperationDefinitionNode;
      const account = operation.selectionSet.selections[0] as FieldNode;
      const adSetsField = account.selectionSet!.selections[0] as FieldNode;
      return connectionPlan({ fieldNodes: [adSetsField], fragments: {}, schema, variableValues: {} }, adSetReads);
    };
    expect(planOf('{ adAccount(id: "1") { adSets { nodes { id name } } } }').columns).toEqual(['id', 'name']);
    // AdSet.insights is resolved by the insights domain's map, not the ads domain's.
    expect(planOf('{ adAccount(id: "1") { adSets { nodes { id insights { nodes { impressions } } } } } }').columns).toBeUndefined();
    // A plan is made once per field of a parsed document.
    const document = parse('{ adAccount(id: "1") { adSets { nodes { id campaign { name } } } } }');
    const field = ((document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode).selectionSet!.selections[0] as FieldNode;
    const info = { fieldNodes: [field], fragments: {}, schema, variableValues: {} };
    expect(connectionPlan(info, adSetReads)).toBe(connectionPlan(info, adSetReads));
    expect(connectionPlan(info, adSetReads).references!.map((reference) => reference.column)).toEqual(['campaign_id']);
  });

  it('keeps the id, the organization and the references in a narrowed mapping, one object per column set', () => {
    const narrowed = adSets.narrowed(['name']);
    expect(Object.keys(narrowed.columns)).toEqual(['id', 'organization_id', 'account_id', 'campaign_id', 'name', 'source_adset_id']);
    expect(narrowed.whole).toBe(false);
    expect(adSets.narrowed(['name', 'name'])).toBe(narrowed);
    expect(adSets.narrowed(undefined)).toBe(adSets);
    expect(adSets.narrowed(Object.keys(adSets.columns))).toBe(adSets);
    const row = { id: 7, organization_id: 'o', account_id: 1, campaign_id: 2, name: 'n', source_adset_id: null, targeting: '{}' };
    expect(narrowed.fromRow(row)).toEqual({ id: '7', organizationId: 'o', accountId: '1', campaignId: '2', name: 'n', sourceAdsetId: null });
  });

  it('stops making narrowed mappings past its bound, and reads whole rows then', () => {
    const columns = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, 'string' as const]));
    const table = defineTable<Record<string, string>>('wide', { id: 'id', ...columns });
    const subsets = Array.from({ length: 300 }, (_, n) => Object.keys(columns).filter((_, i) => (n + 1) & (1 << i)));
    const mappings = subsets.map((subset) => table.narrowed(subset));
    expect(mappings.slice(0, 256).every((mapping) => !mapping.whole)).toBe(true);
    expect(mappings.slice(256).every((mapping) => mapping === table)).toBe(true);
  });
});

describe('narrowed reads answer what whole rows answer', () => {
  let server: TestServer;
  let graph: GraphClient;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    graph = graphClient(server);
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    ({ token } = await world.user({ organizationId: org.id, role: 'admin' }));
    const account = await world.adAccount(org.id);
    accountId = account.id;
    const campaigns = await world.campaigns(account, 2);
    for (const campaign of campaigns) {
      const sets = await world.adSets(campaign, 4, (i) => ({
        status: (['ACTIVE', 'PAUSED', 'ARCHIVED', 'ACTIVE'] as const)[i]!,
        dailyBudget: i % 2 === 0 ? String(1000 + i) : null,
        lifetimeBudget: i % 2 === 1 ? String(50000 + i) : null,
      }));
      for (const adSet of sets) await world.ads(adSet, 3);
    }
  });
  afterAll(() => server?.close());

  /** The answer without `field` wherever it appears. */
  const without = (value: unknown, field: string): unknown =>
    Array.isArray(value)
      ? value.map((item) => without(item, field))
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).flatMap(([key, inner]) => (key === field ? [] : [[key, without(inner, field)]])))
        : value;

  /** The select list of the ads' page: of its own statement, or of its subquery in the ad sets' statement. */
  const adsSelectList = (sql: string) => /select ((?:(?!select ).)*?) from (?:json_each\(\?\) as batch_parent cross join )?[`"]ads[`"]/.exec(sql)?.[1];
  const adSetStatements = (statements: string[]) => statements.filter((sql) => /from [`"]?ad_sets[`"]?/i.test(sql) && /account_id/.test(sql));
  /** Statements loading campaigns by id (a list joins them instead when it can). */
  const campaignLoads = (statements: string[]) => statements.filter((sql) => /from [`"]?campaigns[`"]? where/i.test(sql));

  /**
   * The narrowed read selected the ad sets' shown columns (`shown` among them, not `targeting`) and joined their
   * campaigns; the read with a field that needs whole rows selected `*` and loaded the campaigns by id.
   */
  function expectNarrowedAndJoined(narrow: string[], whole: string[], shown: string): void {
    const [narrowSql] = adSetStatements(narrow);
    expect(narrowSql).toMatch(new RegExp(`[\`"]${shown}[\`"]`));
    expect(narrowSql).not.toMatch(/targeting|\*/);
    expect(adSetStatements(whole)[0]).toMatch(/select \*/);
    expect(narrowSql).toMatch(/left join [`"]?campaigns[`"]?/);
    expect(campaignLoads(narrow)).toEqual([]);
    expect(campaignLoads(whole)).toHaveLength(1);
  }

  const EVERY = '[ACTIVE, PAUSED, DELETED, CAMPAIGN_PAUSED, ARCHIVED, IN_PROCESS, WITH_ISSUES]';
  const graphqlRead = (extra: string) => `query ($account: ID!) {
    adAccount(id: $account) {
      adSets(first: 6, effectiveStatus: ${EVERY}) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes { ...Shown ${extra} campaign { name status ${extra} } ads(first: 2) { totalCount nodes { id name configuredStatus ${extra} } } }
        edges { cursor node { id lifetimeBudget } }
      }
    }
  }
  fragment Shown on AdSet { __typename id name dailyBudget status createdTime updatedTime bidAmount }`;

  it('GraphQL: the same bytes with and without a field that needs whole rows, and only the shown columns read', async () => {
    const narrow = await countStatements(server.deps.db, () => server.graphql(graphqlRead(''), { account: accountId }, token));
    const whole = await countStatements(server.deps.db, () => server.graphql(graphqlRead('effectiveStatus'), { account: accountId }, token));
    expect(narrow.result.body.errors).toBeUndefined();
    expect(whole.result.body.errors).toBeUndefined();
    const nodes = (narrow.result.body.data as { adAccount: { adSets: { nodes: unknown[] } } }).adAccount.adSets.nodes;
    expect(nodes).toHaveLength(6);
    expect(JSON.stringify(narrow.result.body.data)).toBe(JSON.stringify(without(whole.result.body.data, 'effectiveStatus')));

    expectNarrowedAndJoined(narrow.statements, whole.statements, 'daily_budget');
    // The ads' page reads the ads' shown columns alone too: in the ad sets' statement on PostgreSQL
    // (src/db/child-pages.ts), in its own on SQLite; with whole rows (effectiveStatus), in its own on both.
    const adsReads = (statements: string[]) => statements.filter((sql) => /from [`"]ads[`"]/.test(sql) && /adset_id/.test(sql) && !/count\(/.test(sql));
    const [adsSql] = adsReads(narrow.statements);
    expect(adsReads(narrow.statements)).toHaveLength(1);
    expect(adsSelectList(adsSql!)).toMatch(/[`"]status[`"]/);
    expect(adsSelectList(adsSql!)).not.toMatch(/created_time/);
    const [wholeAdsSql] = adsReads(whole.statements);
    expect(wholeAdsSql).not.toMatch(/from [`"]ad_sets[`"]/);
    if (dialect(server.deps.db) === 'postgres') expect(adsSql).toBe(adSetStatements(narrow.statements)[0]);
    else expect(adsSql).not.toBe(adSetStatements(narrow.statements)[0]);
  });

  it("GraphQL: an ad's ad set and campaign read with the ads are the ones loaded by id", async () => {
    const read = (extra: string) =>
      countStatements(server.deps.db, () =>
        server.graphql(
          `query ($account: ID!) { adAccount(id: $account) { ads(first: 10) { nodes { id name adSet { id name dailyBudget ${extra} } campaign { name ${extra} } } } } }`,
          { account: accountId },
          token,
        ),
      );
    const narrow = await read('');
    const whole = await read('effectiveStatus');
    expect(narrow.result.body.errors).toBeUndefined();
    expect((narrow.result.body.data as { adAccount: { ads: { nodes: unknown[] } } }).adAccount.ads.nodes).toHaveLength(10);
    expect(JSON.stringify(narrow.result.body.data)).toBe(JSON.stringify(without(whole.result.body.data, 'effectiveStatus')));
    const adsSql = narrow.statements.find((sql) => /from [`"]?ads[`"]?/.test(sql))!;
    expect(adsSql).toMatch(/left join [`"]?ad_sets[`"]?/);
    expect(adsSql).toMatch(/left join [`"]?campaigns[`"]?/);
    expect(campaignLoads(narrow.statements)).toEqual([]);
    expect(campaignLoads(whole.statements)).toHaveLength(1);
  });

  it("a plan made for one caller's query serves another's with the other's permissions, and a write is read at once", async () => {
    const outsider = (await worldBuilder(server.deps).user({ organizationId: (await worldBuilder(server.deps).organization()).id, role: 'admin' })).token;
    const query = `query ($account: ID!) { adAccount(id: $account) { adSets(first: 2) { nodes { id name campaign { name } } } } }`;
    const owner = await server.graphql(query, { account: accountId }, token);
    const [first] = (owner.body.data as { adAccount: { adSets: { nodes: Array<{ id: string; name: string }> } } }).adAccount.adSets.nodes;
    expect(first).toBeDefined();
    // The same document (the same parsed fields, the same plan), another organization's caller: nothing of it.
    const other = await server.graphql(query, { account: accountId }, outsider);
    expect(other.body.data).toEqual({ adAccount: null });
    // A rename is read by the next request, narrowed as before.
    const renamed = `${first!.name} (renamed)`;
    const update = await server.graphql(
      `mutation ($id: ID!, $name: String!) { updateAdSet(id: $id, input: { name: $name }) { id name } }`,
      { id: first!.id, name: renamed },
      token,
    );
    expect(update.body.errors).toBeUndefined();
    const after = await server.graphql(query, { account: accountId }, token);
    expect((after.body.data as { adAccount: { adSets: { nodes: Array<{ name: string }> } } }).adAccount.adSets.nodes[0]!.name).toBe(renamed);
  });

  it('GraphQL: the same answer when the document runs compiled (its second run)', async () => {
    const first = await server.graphql(graphqlRead(''), { account: accountId }, token);
    const second = await server.graphql(graphqlRead(''), { account: accountId }, token);
    expect(JSON.stringify(second.body)).toBe(JSON.stringify(first.body));
  });

  it('GraphQL: two selections of the same list in one request each get their own columns', async () => {
    const both = await server.graphql(
      `query ($account: ID!) { adAccount(id: $account) {
        narrow: adSets(first: 3) { nodes { id name } }
        wide: adSets(first: 3) { nodes { id name status effectiveStatus targeting { geoLocations { countries } } } }
      } }`,
      { account: accountId },
      token,
    );
    const alone = await server.graphql(
      `query ($account: ID!) { adAccount(id: $account) { wide: adSets(first: 3) { nodes { id name status effectiveStatus targeting { geoLocations { countries } } } } } }`,
      { account: accountId },
      token,
    );
    expect(both.body.errors).toBeUndefined();
    const data = both.body.data as { adAccount: { narrow: unknown; wide: { nodes: Array<{ status: string; targeting: unknown }> } } };
    expect(data.adAccount.wide).toEqual((alone.body.data as { adAccount: { wide: unknown } }).adAccount.wide);
    expect(data.adAccount.wide.nodes.every((node) => node.status && node.targeting)).toBe(true);
  });

  const restFields = (extra: string) =>
    `id,name,daily_budget,lifetime_budget,status,created_time,bid_amount${extra},campaign{name,status${extra}},ads.limit(2){id,name${extra}}`;

  it('/v24.0: the same bytes with and without a field that needs whole rows, and only the shown columns read', async () => {
    const read = (extra: string) =>
      graph.get(`act_${accountId}/adsets`, token, { fields: restFields(extra), limit: 6, effective_status: JSON.stringify(['ACTIVE', 'PAUSED', 'ARCHIVED']) });
    const narrow = await countStatements(server.deps.db, () => read(''));
    const whole = await countStatements(server.deps.db, () => read(',effective_status'));
    expect(narrow.result.status).toBe(200);
    expect(whole.result.status).toBe(200);
    const body = narrow.result.body as { data: unknown[]; paging: { cursors: unknown } };
    expect(body.data).toHaveLength(6);
    expect(JSON.stringify(body.data)).toBe(JSON.stringify(without((whole.result.body as { data: unknown }).data, 'effective_status')));
    expect(JSON.stringify(body.paging.cursors)).toBe(JSON.stringify((whole.result.body as { paging: { cursors: unknown } }).paging.cursors));
    expectNarrowedAndJoined(narrow.statements, whole.statements, 'lifetime_budget');
  });

  it('/v24.0 and GraphQL show the same values of the same ad sets', async () => {
    const rest = await graph.get(`act_${accountId}/adsets`, token, { fields: 'id,name,daily_budget', limit: 25 });
    const gql = await server.graphql(
      `query ($account: ID!) { adAccount(id: $account) { adSets(first: 25) { nodes { id name dailyBudget } } } }`,
      { account: accountId },
      token,
    );
    const restSets = (rest.body as { data: Array<{ id: string; name: string; daily_budget?: string }> }).data;
    const gqlSets = (gql.body.data as { adAccount: { adSets: { nodes: Array<{ id: string; name: string; dailyBudget: number | null }> } } }).adAccount.adSets
      .nodes;
    expect(restSets.map((s) => [s.id, s.name, s.daily_budget ?? null])).toEqual(
      gqlSets.map((s) => [s.id, s.name, s.dailyBudget === null ? null : String(s.dailyBudget)]),
    );
  });
});
