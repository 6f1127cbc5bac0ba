import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import type { AdSetRecord, CustomAudienceRecord } from '../../src/ads/store.ts';

/**
 * An ad set's targeting in sentences (issue 21) on every surface: GraphQL's AdSet.targetingSentences,
 * /v24.0's `/<ad set>/targetingsentencelines` and the official SDK's AdSet.getTargetingSentenceLines, the same
 * lines from one service (src/ads/service.ts over src/ads/rules/targeting-sentences.ts, whose phrasing its unit
 * test covers). Custom audiences read by name; another organization's caller gets the ad set's usual refusal.
 */
interface SdkAdSet {
  getTargetingSentenceLines(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
const { AdSet } = bizSdk as unknown as { AdSet: new (id: string) => SdkAdSet };

interface Line {
  content: string;
  children: string[];
}

let server: TestServer;
let graph: GraphClient;
let token: string;
let outsiderToken: string;
let adSet: AdSetRecord;
let audience: CustomAudienceRecord;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const setup = await world.advertiserWithAccount();
  ({ token, outsiderToken } = setup);
  const account = setup.account;
  const [campaign] = await world.campaigns(account, 1);
  audience = await world.audience(account);
  await server.deps.db('custom_audiences').where({ id: audience.id }).update({ name: 'Hikers EU' });
  [adSet] = (await world.adSets(campaign!, 1, () => ({
    targeting: {
      geo_locations: { countries: ['FR', 'DE'] },
      age_min: 25,
      age_max: 54,
      genders: [2],
      custom_audiences: [{ id: audience.id }],
      publisher_platforms: ['facebook', 'instagram'],
      facebook_positions: ['feed'],
    },
  }))) as [AdSetRecord];
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

const TARGETING_SENTENCES = 'query ($id: ID!) { adSet(id: $id) { targetingSentences { content children } } }';

async function graphqlLines(as: string): Promise<Line[] | null> {
  const { body } = await server.graphql(TARGETING_SENTENCES, { id: adSet.id }, as);
  expect(body.errors).toBeUndefined();
  return (body.data?.adSet as { targetingSentences: Line[] } | null)?.targetingSentences ?? null;
}

describe('targeting sentences', () => {
  it('reads the targeting as Ads Manager summarizes it, audiences by name (GraphQL)', async () => {
    const lines = (await graphqlLines(token))!;
    const byHeading = new Map(lines.map((line) => [line.content, line.children]));
    expect(byHeading.get('Age:')).toEqual(['25 - 54']);
    expect(byHeading.get('Gender:')).toEqual(['Women']);
    expect(byHeading.get('Location:')!.join(' ')).toMatch(/France, Germany/);
    expect([...byHeading.keys()].find((heading) => /^Custom audience/.test(heading) && byHeading.get(heading)!.join(' ').includes('Hikers EU'))).toBeDefined();
    expect(byHeading.get('Placements:')!.join(' ')).toMatch(/Facebook: Feed/);
    expect(byHeading.get('Placements:')!.join(' ')).toMatch(/Instagram/);
    // Nothing says the audience's id when its name is known.
    expect(JSON.stringify(lines)).not.toContain(audience.id);
  });

  it('answers the same lines on /v24.0 (one entry: the ad set, its targeting and the lines) and through the SDK', async () => {
    const lines = await graphqlLines(token);
    const response = await graph.get(`${adSet.id}/targetingsentencelines`, token);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([{ id: adSet.id, params: adSet.targeting, targetingsentencelines: lines }]);
    expect(response.body.paging).toEqual({ cursors: { before: expect.any(String), after: expect.any(String) } });

    const onlyLines = await graph.get(`${adSet.id}/targetingsentencelines`, token, { fields: 'targetingsentencelines', summary: 'total_count' });
    expect(onlyLines.body.data).toEqual([{ id: adSet.id, targetingsentencelines: lines }]);
    expect(onlyLines.body.summary).toEqual({ total_count: 1 });

    const cursor = await new AdSet(adSet.id).getTargetingSentenceLines(['targetingsentencelines', 'params']);
    expect(cursor).toHaveLength(1);
    expect(cursor[0]!._data).toEqual({ id: adSet.id, targetingsentencelines: lines, params: adSet.targeting });
  });

  it('follows the targeting as it changes (an audience renamed, no audience left)', async () => {
    await server.deps.db('custom_audiences').where({ id: audience.id }).update({ name: 'Trail runners' });
    expect(JSON.stringify(await graphqlLines(token))).toContain('Trail runners');
    await server.deps
      .db('ad_sets')
      .where({ id: adSet.id })
      .update({ targeting: JSON.stringify({ geo_locations: { countries: ['US'] } }) });
    const lines = (await graphqlLines(token))!;
    expect(JSON.stringify(lines)).not.toContain('Trail runners');
    expect(lines.find((line) => line.content === 'Location:')!.children.join(' ')).toMatch(/United States/);
  });

  it("refuses another organization's caller as reading the ad set does, on both surfaces", async () => {
    expect(await graphqlLines(outsiderToken)).toBeNull();
    expectGraphError(await graph.get(`${adSet.id}/targetingsentencelines`, outsiderToken), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(adSet.id),
    });
  });
});
