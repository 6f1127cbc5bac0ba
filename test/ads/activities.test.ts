import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { ACTIVITY_RETENTION_MONTHS, sweepActivities } from '../../src/ads/activities.ts';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * The change history (issue 21, `/activities`) on every surface: each write records who changed what, when and
 * through which surface, in the write's own transaction (a refused write leaves none); copies name their source and
 * asynchronous copies their job as the actor; a cascade records each child's change; `since`, `until` and `category`
 * filter; GraphQL's `activities` connections answer what /v24.0 and the official SDK's getActivities do; history
 * past its retention is neither shown nor kept; another organization's caller is refused as for the object.
 */
interface SdkEdges {
  getActivities(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
const { AdSet, AdAccount } = bizSdk as unknown as { AdSet: new (id: string) => SdkEdges; AdAccount: new (id: string) => SdkEdges };

const TARGETING = { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 65 };

let server: TestServer;
let graph: GraphClient;
let token: string;
let userName: string;
let outsiderToken: string;
let account: AdAccountRecord;
let campaign: CampaignRecord;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_POLL_MS: '50' });
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const setup = await world.advertiserWithAccount();
  ({ token, outsiderToken, account } = setup);
  userName = setup.advertiser.user.name || setup.advertiser.user.username;
  [campaign] = (await world.campaigns(account, 1)) as [CampaignRecord];
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

async function createAdSet(name: string): Promise<string> {
  const response = await graph.call('POST', `/v24.0/act_${account.id}/adsets`, {
    token,
    json: {
      name,
      campaign_id: campaign.id,
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      daily_budget: 1500,
      targeting: TARGETING,
      status: 'PAUSED',
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.id as string;
}

const activitiesOf = async (id: string, query: Record<string, unknown> = {}) => {
  const response = await graph.get(`${id}/activities`, token, {
    fields: 'event_type,object_id,object_type,object_name,actor_id,actor_name,application_name,extra_data',
    ...query,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Array<Record<string, any>>;
};
const count = async () => Number(((await server.deps.db('activities').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);

describe('change history', () => {
  let adSetId: string;

  it('records a create and each kind of update, newest first, with who, the surface and the old and new values', async () => {
    adSetId = await createAdSet('History ad set');
    const update = await server.graphql(
      'mutation ($id: ID!) { updateAdSet(id: $id, input: { dailyBudget: "2500", name: "History ad set, renamed" }) { id } }',
      { id: adSetId },
      token,
    );
    expect(update.body.errors).toBeUndefined();

    const history = await activitiesOf(adSetId);
    expect(history.map((a) => [a.event_type, a.application_name])).toEqual([
      ['update_ad_set_name', 'GraphQL'],
      ['update_ad_set_budget', 'GraphQL'],
      ['create_ad_set', 'Graph API'],
    ]);
    for (const activity of history) {
      expect(activity).toMatchObject({ object_id: adSetId, object_type: 'AD_SET', actor_name: userName, actor_id: expect.any(String) });
    }
    // extra_data is JSON text, as the platform prints it.
    expect(JSON.parse(history[1]!.extra_data)).toMatchObject({
      old_value: { daily_budget: '1500', lifetime_budget: null },
      new_value: { daily_budget: '2500', lifetime_budget: null },
    });
    expect(JSON.parse(history[0]!.extra_data)).toMatchObject({ old_value: 'History ad set', new_value: 'History ad set, renamed' });
    expect(history[0]!.object_name).toBe('History ad set, renamed');
  });

  it('leaves no record of a write that was refused, nor of one that changed nothing', async () => {
    const before = await count();
    expectGraphError(await graph.call('POST', `/v24.0/${adSetId}`, { token, json: { daily_budget: 5 } }), { status: 400, code: 100, subcode: 1885272 });
    const same = await graph.call('POST', `/v24.0/${adSetId}`, { token, json: { name: 'History ad set, renamed' } });
    expect(same.status).toBe(200);
    expect(await count()).toBe(before);
  });

  it('filters by category and by time, and refuses a bad window or category naming the parameter', async () => {
    expect((await activitiesOf(adSetId, { category: JSON.stringify(['BUDGET']) })).map((a) => a.event_type)).toEqual(['update_ad_set_budget']);
    expect((await activitiesOf(adSetId, { category: 'BUDGET,AD_SET' })).map((a) => a.event_type)).toEqual([
      'update_ad_set_name',
      'update_ad_set_budget',
      'create_ad_set',
    ]);
    const inAMinute = Math.floor(Date.now() / 1000) + 60;
    expect(await activitiesOf(adSetId, { since: inAMinute })).toEqual([]);
    expect(await activitiesOf(adSetId, { until: Math.floor(Date.now() / 1000) - 3600 })).toEqual([]);
    expect(await activitiesOf(adSetId, { since: Math.floor(Date.now() / 1000) - 3600, until: inAMinute })).toHaveLength(3);
    expectGraphError(await graph.get(`${adSetId}/activities`, token, { since: inAMinute, until: inAMinute - 60 }), {
      status: 400,
      code: 100,
      message: '(#100) Param until must be later than since',
    });
    expectGraphError(await graph.get(`${adSetId}/activities`, token, { category: 'BUDGETS' }), { status: 400, code: 100, message: /category.*"BUDGETS"/ });
  });

  it("answers the same in GraphQL's activities connections and through the SDK's getActivities", async () => {
    const { body } = await server.graphql(
      `query ($id: ID!) { adSet(id: $id) { activities(category: [BUDGET, AD_SET]) { totalCount nodes { eventType category objectId actorKind actorName applicationName extraData } } } }`,
      { id: adSetId },
      token,
    );
    expect(body.errors).toBeUndefined();
    const connection = (body.data!.adSet as { activities: { totalCount: number; nodes: Array<Record<string, any>> } }).activities;
    const graphApi = await activitiesOf(adSetId);
    expect(connection.totalCount).toBe(3);
    expect(connection.nodes.map((n) => [n.eventType, n.category, n.applicationName, n.actorKind, n.actorName])).toEqual(
      graphApi.map((a, i) => [a.event_type, ['AD_SET', 'BUDGET', 'AD_SET'][i], a.application_name, 'USER', a.actor_name]),
    );
    expect(connection.nodes.map((n) => n.extraData)).toEqual(graphApi.map((a) => JSON.parse(a.extra_data)));

    const viaSdk = await new AdSet(adSetId).getActivities(['event_type', 'translated_event_type', 'date_time_in_timezone']);
    expect(viaSdk.map((a) => a._data.event_type)).toEqual(graphApi.map((a) => a.event_type));
    expect(viaSdk[0]!._data.translated_event_type).toBe('Ad set name updated');
    expect(viaSdk[0]!._data.date_time_in_timezone).toMatch(/^\d\d\/\d\d\/\d{4} at \d{1,2}:\d\d [AP]M$/);
  });

  it('records copies with their source, asynchronous copies with their job as the actor, and each child of a cascade', async () => {
    const copy = await graph.call('POST', `/v24.0/${adSetId}/copies`, { token, json: {} });
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    const copyId = copy.body.copied_adset_id as string;
    const [copied] = await activitiesOf(copyId);
    expect(copied).toMatchObject({ event_type: 'copy_ad_set', object_id: copyId, application_name: 'Graph API' });
    expect(JSON.parse(copied!.extra_data)).toMatchObject({ source_id: adSetId });

    const batch = await graph.call('POST', `/v24.0/act_${account.id}/async_batch_requests`, {
      token,
      json: { name: 'copy', adbatch: [{ name: 'copy', relative_url: `${adSetId}/copies`, body: 'status_option=PAUSED' }] },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    let asyncCopyId: string | undefined;
    for (let i = 0; i < 200 && !asyncCopyId; i++) {
      const requests = await graph.get(`${batch.body.id}/requests`, token, { fields: 'status,result' });
      const done = requests.body.data.find((r: { status: string }) => r.status === 'SUCCESS');
      if (done) asyncCopyId = done.result.copied_adset_id;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(asyncCopyId).toBeDefined();
    const [byJob] = await activitiesOf(asyncCopyId!);
    expect(byJob).toMatchObject({ event_type: 'copy_ad_set', application_name: 'Asynchronous requests' });
    expect(byJob!.actor_name).toMatch(new RegExp(`^Asynchronous request \\d+ \\(for ${userName}\\)$`));

    // Deleting the campaign deletes its ad sets with it: each in its own history, all in the campaign's and the account's.
    const deleted = await graph.call('DELETE', `/v24.0/${campaign.id}`, { token });
    expect(deleted.status).toBe(200);
    expect((await activitiesOf(adSetId, { category: 'STATUS' }))[0]).toMatchObject({ event_type: 'delete_ad_set' });
    const campaignHistory = await activitiesOf(campaign.id);
    expect(
      campaignHistory
        .filter((a) => a.event_type === 'delete_ad_set')
        .map((a) => a.object_id)
        .sort(),
    ).toEqual([adSetId, copyId, asyncCopyId].sort());
    expect(campaignHistory.filter((a) => a.event_type === 'delete_campaign').map((a) => a.object_id)).toEqual([campaign.id]);
    const accountHistory = await new AdAccount(`act_${account.id}`).getActivities(['event_type', 'object_id']);
    expect(accountHistory.length).toBe((await activitiesOf(`act_${account.id}`)).length);
    expect(accountHistory.map((a) => a._data.event_type)).toContain('delete_campaign');
  });

  it('shows and keeps nothing past the retention, and refuses another organization as reading the object does', async () => {
    const old = new Date();
    old.setUTCMonth(old.getUTCMonth() - ACTIVITY_RETENTION_MONTHS - 1);
    const [template] = await server.deps.db('activities').where({ object_id: adSetId }).select('*');
    const { id: _id, ...row } = template as Record<string, unknown>;
    await server.deps.db('activities').insert({ ...row, event_type: 'update_ad_set_name', event_time: old });
    const shown = await activitiesOf(adSetId);
    expect(shown.every((a) => a.event_type !== 'update_ad_set_name' || JSON.parse(a.extra_data).new_value === 'History ad set, renamed')).toBe(true);
    const before = await count();
    expect(await sweepActivities(server.deps.db, new Date())).toBe(1);
    expect(await count()).toBe(before - 1);

    expectGraphError(await graph.get(`${adSetId}/activities`, outsiderToken), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(adSetId) });
    const { body } = await server.graphql('query ($id: ID!) { adSet(id: $id) { activities { totalCount } } }', { id: adSetId }, outsiderToken);
    expect(body.data).toEqual({ adSet: null });
  });
});
