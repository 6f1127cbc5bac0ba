import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { daysAgo, DEFAULT_PLACEMENT, importLines } from '../helpers/insights.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * Ad studies (split tests, issue 21) on every surface, from one service (src/ads/studies.ts over the rules of
 * src/ads/rules/studies.ts, whose every refusal its unit test covers): created with POST /act_<id>/ad_studies or
 * GraphQL's createAdStudy, read by id with their cells, listed by the ad sets (directly or through their campaign),
 * campaigns and accounts they test (the official SDK's getAdStudies), compared from the statistics; a refused study
 * writes nothing, an ad set is in one study at a time, another organization sees none of it.
 */
interface SdkEdges {
  getAdStudies(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
const bizSdkTyped = bizSdk as unknown as {
  AdSet: new (id: string) => SdkEdges;
  Campaign: new (id: string) => SdkEdges;
  AdAccount: new (id: string) => SdkEdges;
};

let server: TestServer;
let graph: GraphClient;
let token: string;
let auditorToken: string;
let outsiderToken: string;
let account: AdAccountRecord;
let campaigns: CampaignRecord[];
let adSets: AdSetRecord[];
let restoreSdk: (() => void) | undefined;

const unix = (ms: number) => Math.floor(ms / 1000);

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const setup = await world.advertiserWithAccount();
  ({ token, outsiderToken, account } = setup);
  auditorToken = (await world.user({ organizationId: setup.org.id, role: 'auditor' })).token;
  campaigns = await world.campaigns(account, 3);
  adSets = [
    ...(await world.adSets(campaigns[0]!, 2, () => ({ optimizationGoal: 'LINK_CLICKS', dailyBudget: '2000' }))),
    ...(await world.adSets(campaigns[1]!, 1, () => ({ optimizationGoal: 'LINK_CLICKS', dailyBudget: '2000' }))),
  ];
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

const studyCount = async () => Number(((await server.deps.db('ad_studies').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);

function postStudy(as: string, body: Record<string, unknown>) {
  return graph.call('POST', `/v24.0/act_${account.id}/ad_studies`, { token: as, json: body });
}

const window = () => ({ start_time: unix(daysAgo(3)), end_time: unix(daysAgo(-10)) });

describe('ad studies', () => {
  let studyId: string;

  it('creates a split test of two ad set cells and reads it back with its cells', async () => {
    const created = await postStudy(token, {
      name: 'Creative test',
      description: 'Two audiences, half each',
      ...window(),
      cells: [
        { name: 'A', treatment_percentage: 50, adsets: [adSets[0]!.id] },
        { name: 'B', treatment_percentage: 50, adsets: [adSets[1]!.id] },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    studyId = created.body.id;
    const read = await graph.get(studyId, token, { fields: 'name,description,type,start_time,end_time' });
    expect(read.body).toMatchObject({ id: studyId, name: 'Creative test', description: 'Two audiences, half each', type: 'SPLIT_TEST' });
    const cells = await graph.get(`${studyId}/cells`, token, { fields: 'name,treatment_percentage,adsets,ad_entities_count' });
    expect(cells.body.data.map(({ id: _id, ...cell }: Record<string, unknown>) => cell)).toEqual([
      { name: 'A', treatment_percentage: 50, adsets: [adSets[0]!.id], ad_entities_count: 1 },
      { name: 'B', treatment_percentage: 50, adsets: [adSets[1]!.id], ad_entities_count: 1 },
    ]);
  });

  it('refuses what the rules refuse, naming the parameter, and writes nothing', async () => {
    const before = await studyCount();
    const cells = (a: number, b: number, second = adSets[2]!.id) => [
      { treatment_percentage: a, adsets: [adSets[0]!.id] },
      { treatment_percentage: b, adsets: [second] },
    ];
    // An ad set already in a study over these dates.
    expectGraphError(await postStudy(token, { name: 'Overlap', ...window(), cells: cells(50, 50) }), {
      status: 400,
      code: 100,
      message: /cells\[0\]\.adsets\[0\].*Creative test/,
    });
    // Shares that do not sum to 100.
    expectGraphError(await postStudy(token, { name: 'Sum', ...window(), cells: cells(60, 50, campaigns[2]!.id) }), {
      status: 400,
      code: 100,
      message: /cells/,
    });
    // Another account's (or no) ad set: not one of this account's.
    expectGraphError(
      await postStudy(token, {
        name: 'Foreign',
        ...window(),
        cells: [
          { treatment_percentage: 50, adsets: ['999999999999999'] },
          { treatment_percentage: 50, adsets: [adSets[2]!.id] },
        ],
      }),
      {
        status: 400,
        code: 100,
        message: /cells\[0\]\.adsets\[0\]/,
      },
    );
    expectGraphError(await postStudy(token, { name: 'No dates', cells: cells(50, 50) }), { status: 400, code: 100, message: /start_time/ });
    // An auditor reads but may not create.
    expectGraphError(await postStudy(auditorToken, { name: 'Auditor', ...window(), cells: cells(50, 50) }), { status: 403, code: 200 });
    expect(await studyCount()).toBe(before);
  });

  it('lists a study on the ad sets and campaigns it tests, on the account, through the SDK and GraphQL', async () => {
    // A campaign cell: the campaign's ad set is in the study through it.
    const byCampaign = await postStudy(token, {
      name: 'Campaign test',
      ...window(),
      cells: [
        { name: 'Campaign 2', treatment_percentage: 30, campaigns: [campaigns[1]!.id] },
        { name: 'Campaign 3', treatment_percentage: 70, campaigns: [campaigns[2]!.id] },
      ],
    });
    expect(byCampaign.status, JSON.stringify(byCampaign.body)).toBe(200);
    const names = (cursor: SdkCursor) => cursor.map((study) => study._data.name);
    expect(names(await new bizSdkTyped.AdSet(adSets[0]!.id).getAdStudies(['name']))).toEqual(['Creative test']);
    expect(names(await new bizSdkTyped.AdSet(adSets[2]!.id).getAdStudies(['name']))).toEqual(['Campaign test']);
    expect(names(await new bizSdkTyped.Campaign(campaigns[1]!.id).getAdStudies(['name']))).toEqual(['Campaign test']);
    expect(names(await new bizSdkTyped.AdAccount(`act_${account.id}`).getAdStudies(['name']))).toEqual(['Campaign test', 'Creative test']);

    const { body } = await server.graphql(
      'query ($id: ID!, $study: ID!) { adSet(id: $id) { adStudies { totalCount nodes { id name cells { name treatmentPercentage adsets campaigns } } } } adStudy(id: $study) { name } node(id: $study) { id } }',
      { id: adSets[2]!.id, study: studyId },
      token,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      adSet: {
        adStudies: {
          totalCount: 1,
          nodes: [
            {
              id: byCampaign.body.id,
              name: 'Campaign test',
              cells: [
                { name: 'Campaign 2', treatmentPercentage: 30, adsets: [], campaigns: [campaigns[1]!.id] },
                { name: 'Campaign 3', treatmentPercentage: 70, adsets: [], campaigns: [campaigns[2]!.id] },
              ],
            },
          ],
        },
      },
      adStudy: { name: 'Creative test' },
      node: { id: studyId },
    });
  });

  it('creates through GraphQL, errors naming the input path', async () => {
    const mutation = `mutation ($account: ID!, $input: CreateAdStudyInput!) { createAdStudy(accountId: $account, input: $input) { id name cells { name treatmentPercentage } } }`;
    const input = (first: number) => ({
      name: 'GraphQL test',
      startTime: new Date(daysAgo(-20)).toISOString(),
      endTime: new Date(daysAgo(-30)).toISOString(),
      cells: [
        { treatmentPercentage: first, adsets: [adSets[0]!.id] },
        { treatmentPercentage: 100 - first, adsets: [adSets[1]!.id] },
      ],
    });
    const refused = await server.graphql(mutation, { account: `act_${account.id}`, input: input(0) }, token);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.cells[0].treatmentPercentage' });
    const created = await server.graphql(mutation, { account: `act_${account.id}`, input: input(40) }, token);
    expect(created.body.errors).toBeUndefined();
    expect((created.body.data as { createAdStudy: unknown }).createAdStudy).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'GraphQL test',
      cells: [
        { name: 'Cell 1', treatmentPercentage: 40 },
        { name: 'Cell 2', treatmentPercentage: 60 },
      ],
    });
  });

  it("compares the cells' results from the statistics: the best cell, and whether the difference is significant", async () => {
    const world = worldBuilder(server.deps);
    const day = new Date(daysAgo(1)).toISOString().slice(0, 10);
    const rows = [];
    for (const [adSet, clicks] of [
      [adSets[0]!, 200],
      [adSets[1]!, 150],
    ] as const) {
      const [ad] = await world.ads(adSet, 1);
      rows.push({
        ad_id: ad!.id,
        date: day,
        ...DEFAULT_PLACEMENT,
        impressions: 10_000,
        clicks,
        inline_link_clicks: clicks,
        spend: 5_000,
        actions: { link_click: clicks },
      });
    }
    await importLines(server.deps, rows, { format: 'daily' });
    const read = await graph.get(studyId, token, { fields: 'results' });
    const results = read.body.results;
    expect(results.best_cell).toBe('A');
    expect(results.cells[0]).toMatchObject({ cell_name: 'A', impressions: 10_000, spend: 5_000, results: 200, cost_per_result: 25, versus_best: null });
    expect(results.cells[1]).toMatchObject({ cell_name: 'B', impressions: 10_000, results: 150, versus_best: { significant: true } });
    expect(results.cells[1].versus_best.p_value).toBeCloseTo(0.007, 3);

    const { body } = await server.graphql(
      'query ($id: ID!) { adStudy(id: $id) { results { bestCell cells { cellName results versusBest { significant } } } } }',
      { id: studyId },
      token,
    );
    expect(body.data).toEqual({
      adStudy: {
        results: {
          bestCell: 'A',
          cells: [
            { cellName: 'A', results: 200, versusBest: null },
            { cellName: 'B', results: 150, versusBest: { significant: true } },
          ],
        },
      },
    });
  });

  it("refuses another organization's caller as for any object of the account", async () => {
    expectGraphError(await graph.get(studyId, outsiderToken), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(studyId) });
    expectGraphError(await graph.get(`${adSets[0]!.id}/ad_studies`, outsiderToken), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(adSets[0]!.id),
    });
    const { body } = await server.graphql('query ($id: ID!) { adStudy(id: $id) { id } }', { id: studyId }, outsiderToken);
    expect(body.data).toEqual({ adStudy: null });
  });
});
