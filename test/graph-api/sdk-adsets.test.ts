import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor, type SdkObject } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, type GraphClient } from '../helpers/graph.ts';
import { adSets, type AdAccountRecord, type AdSetRecord, type CampaignRecord } from '../../src/ads/store.ts';

/**
 * Ad sets through the reference clients (issue 9): facebook-nodejs-business-sdk 24.0.1 (JSON bodies; see
 * test/graph-api/sdk.test.ts for how it is pointed at the test server) through create, read, update, copy
 * (shallow, deep, asynchronous), the copies and async request edges, delete and a refused create; and a client
 * shaped like the Python SDK (facebook_business): form fields, with objects, lists and booleans JSON-encoded
 * strings and the token in the query string.
 *
 * The bundle ships no types (test/types/facebook-nodejs-business-sdk.d.ts declares what sdk.test.ts uses); the
 * classes used here are typed locally below.
 */
interface SdkCrud extends SdkObject {
  get(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  update(fields: string[], params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  delete(fields: string[], params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}
interface SdkAdSet extends SdkCrud {
  createCopy(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  getCopies(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  getAsyncAdRequests(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  getAds(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
interface SdkAdAccount extends SdkCrud {
  createAdSet(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  createAsyncBatchRequest(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  getAdSets(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
interface SdkAsyncRequestSet extends SdkCrud {
  getRequests(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
interface Sdk {
  FacebookAdsApi: { readonly GRAPH: string; readonly VERSION: string; init(token: string, locale?: string, crashLog?: boolean): unknown };
  AdAccount: new (id: string) => SdkAdAccount;
  AdSet: new (id: string) => SdkAdSet;
  AdAsyncRequestSet: new (id: string) => SdkAsyncRequestSet;
}
interface SdkRequestError extends Error {
  status: number;
  /** The `error` object of the Graph error envelope. */
  response: Record<string, any>;
}

const { AdAccount, AdSet, AdAsyncRequestSet } = bizSdk as unknown as Sdk;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TARGETING = { geo_locations: { countries: ['US'] }, age_min: 25, age_max: 54 };

let server: TestServer;
let world: ReturnType<typeof worldBuilder>;
let graph: GraphClient;
let token: string;
let account: AdAccountRecord;
let campaign: CampaignRecord;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_POLL_MS: '50' });
  world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  account = await world.adAccount(org.id);
  [campaign] = (await world.campaigns(account, 1)) as [CampaignRecord];
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

async function rowCounts() {
  const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return { objects: await count('graph_objects'), adSets: await count('ad_sets'), ads: await count('ads'), references: await count('ad_set_references') };
}

const adSetRecord = async (id: string): Promise<AdSetRecord> => adSets.fromRow(await server.deps.db('ad_sets').where({ id }).first());

/** Runs an SDK call that must fail; returns its FacebookRequestError. */
async function sdkFailure(call: () => Promise<unknown>): Promise<SdkRequestError> {
  const error = await call().then(
    () => {
      throw new Error('expected the SDK call to fail');
    },
    (reason: unknown) => reason,
  );
  expect((error as Error).name).toBe('FacebookRequestError');
  return error as SdkRequestError;
}

/** A valid create, as a caller of the SDK writes it: numbers, lists and objects as themselves. */
const CREATE = () => ({
  name: 'SDK ad set',
  campaign_id: campaign.id,
  billing_event: 'IMPRESSIONS',
  optimization_goal: 'LINK_CLICKS',
  daily_budget: 1500,
  targeting: TARGETING,
  status: 'PAUSED',
  pacing_type: ['standard'],
});

describe('facebook-nodejs-business-sdk 24.0.1: ad sets', () => {
  let adSetId: string;

  it('creates an ad set with AdAccount.createAdSet and reads it back with AdSet.get', async () => {
    const created = await new AdAccount(`act_${account.id}`).createAdSet([], CREATE());
    expect(created.id).toMatch(/^\d+$/);
    expect(created._data).toEqual({ id: created.id, success: true });
    adSetId = created.id;

    const read = await new AdSet(adSetId).get([
      'name',
      'status',
      'effective_status',
      'daily_budget',
      'billing_event',
      'optimization_goal',
      'targeting',
      'pacing_type',
      'campaign_id',
      'account_id',
      'campaign{id,objective}',
    ]);
    expect(read._data).toEqual({
      id: adSetId,
      name: 'SDK ad set',
      status: 'PAUSED',
      effective_status: 'PAUSED',
      daily_budget: '1500',
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      targeting: TARGETING,
      pacing_type: ['standard'],
      campaign_id: campaign.id,
      account_id: account.id,
      campaign: { id: campaign.id, objective: 'OUTCOME_TRAFFIC' },
    });
    const listed = await new AdAccount(`act_${account.id}`).getAdSets(['name']);
    expect(listed.map((a) => a.id)).toContain(adSetId);
  });

  it("updates it through AdSet.update with params, and through the SDK's change tracking", async () => {
    expect(await new AdSet(adSetId).update([], { name: 'SDK ad set renamed', daily_budget: 2500 })).toEqual({ success: true });
    const tracked = new AdSet(adSetId);
    tracked.status = 'ACTIVE';
    tracked.targeting = { ...TARGETING, age_min: 30 };
    // The SDK sends the changed fields (and the object's own id) as a JSON body.
    expect(await tracked.update([])).toEqual({ success: true });

    const read = await new AdSet(adSetId).get(['name', 'status', 'daily_budget', 'targeting']);
    expect(read._data).toEqual({ id: adSetId, name: 'SDK ad set renamed', status: 'ACTIVE', daily_budget: '2500', targeting: { ...TARGETING, age_min: 30 } });
  });

  it('copies it shallow and deep (3 ads) with AdSet.createCopy, and lists the copies with getCopies', async () => {
    const ads = await world.ads(await adSetRecord(adSetId), 3);

    const shallow = await new AdSet(adSetId).createCopy([], {});
    expect(shallow._data).toEqual({
      copied_adset_id: expect.stringMatching(/^\d+$/),
      ad_object_ids: [{ ad_object_type: 'ad_set', source_id: adSetId, copied_id: shallow._data.copied_adset_id }],
    });
    const shallowRead = await new AdSet(shallow._data.copied_adset_id).get(['name', 'status', 'source_adset{id}']);
    expect(shallowRead._data).toEqual({
      id: shallow._data.copied_adset_id,
      name: 'SDK ad set renamed - Copy',
      status: 'PAUSED',
      source_adset: { id: adSetId },
    });
    expect(await new AdSet(shallow._data.copied_adset_id).getAds(['name'])).toHaveLength(0);

    const deep = await new AdSet(adSetId).createCopy([], {
      deep_copy: true,
      status_option: 'INHERITED_FROM_SOURCE',
      rename_options: { rename_strategy: 'DEEP_RENAME', rename_prefix: 'Q3 ', rename_suffix: '' },
    });
    const deepId = deep._data.copied_adset_id as string;
    expect(deep._data.ad_object_ids).toEqual([
      { ad_object_type: 'ad_set', source_id: adSetId, copied_id: deepId },
      ...ads.map((ad, i) => ({ ad_object_type: 'ad', source_id: ad.id, copied_id: deep._data.ad_object_ids[i + 1].copied_id })),
    ]);
    const deepRead = await new AdSet(deepId).get(['name', 'status']);
    expect(deepRead._data).toEqual({ id: deepId, name: 'Q3 SDK ad set renamed', status: 'ACTIVE' });
    const copiedAds = await new AdSet(deepId).getAds(['name', 'status']);
    expect(copiedAds.map((ad) => ad._data.name)).toEqual(['Q3 Ad 1', 'Q3 Ad 2', 'Q3 Ad 3']);

    const copies = await new AdSet(adSetId).getCopies(['name']);
    expect(copies.map((c) => c.id).sort()).toEqual([shallow._data.copied_adset_id, deepId].sort());
  });

  it("refuses a synchronous deep copy of 4 ads through the SDK's error object, writing nothing", async () => {
    await world.ads(await adSetRecord(adSetId), 1);
    const before = await rowCounts();
    const error = await sdkFailure(() => new AdSet(adSetId).createCopy([], { deep_copy: true }));
    expect(error.status).toBe(400);
    expect(error.response).toMatchObject({ code: 100, type: 'OAuthException', message: expect.stringContaining('async_batch_requests') });
    expect(await rowCounts()).toEqual(before);
  });

  it('copies it asynchronously with AdAccount.createAsyncBatchRequest, polls the AdAsyncRequestSet and reads its requests', async () => {
    const adsOfSource = (await server.deps.db('ads').where({ adset_id: adSetId }).whereIn('status', ['ACTIVE', 'PAUSED'])).length;
    expect(adsOfSource).toBe(4);
    const stored = await new AdAccount(`act_${account.id}`).createAsyncBatchRequest([], {
      name: 'SDK async copy',
      adbatch: [{ name: 'deep copy', relative_url: `${adSetId}/copies`, body: 'deep_copy=true&status_option=PAUSED' }],
    });
    expect(stored.id).toMatch(/^\d+$/);
    // The SDK builds its answer object from the body: the set's id and nothing else.
    expect(stored._data).toEqual({ id: stored.id });

    const fields = ['name', 'owner_id', 'total_count', 'initial_count', 'in_progress_count', 'success_count', 'error_count', 'canceled_count', 'is_completed'];
    let set = await new AdAsyncRequestSet(stored.id).get(fields);
    for (let polls = 0; set._data.is_completed !== true && polls < 200; polls++) {
      await sleep(100);
      set = await new AdAsyncRequestSet(stored.id).get(fields);
    }
    expect(set._data).toEqual({
      id: stored.id,
      name: 'SDK async copy',
      owner_id: expect.any(String),
      total_count: 1,
      initial_count: 0,
      in_progress_count: 0,
      success_count: 1,
      error_count: 0,
      canceled_count: 0,
      is_completed: true,
    });

    const requests = await new AdAsyncRequestSet(stored.id).getRequests(['name', 'status', 'result', 'error']);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!._data).toMatchObject({ name: 'deep copy', status: 'SUCCESS' });
    expect(request!._data.error).toBeUndefined();
    const result = request!._data.result as { copied_adset_id: string; ad_object_ids: unknown[] };
    expect(result.ad_object_ids).toHaveLength(5);
    expect((await new AdSet(result.copied_adset_id).getAds(['name'])).length).toBe(4);

    const onAdSet = await new AdSet(adSetId).getAsyncAdRequests(['name', 'status', 'result']);
    expect(onAdSet.map((r) => r._data)).toEqual([{ id: request!.id, name: 'deep copy', status: 'SUCCESS', result }]);
    expect((await new AdSet(adSetId).getCopies(['name'])).map((c) => c.id)).toContain(result.copied_adset_id);
  });

  it('deletes a copy with AdSet.delete: DELETED, still readable by id, gone from getCopies unless asked for', async () => {
    const copies = await new AdSet(adSetId).getCopies(['name']);
    const victim = copies[0]!.id;
    expect(await new AdSet(victim).delete([])).toEqual({ success: true });
    const read = await new AdSet(victim).get(['status', 'effective_status']);
    expect(read._data).toEqual({ id: victim, status: 'DELETED', effective_status: 'DELETED' });
    const after = await new AdSet(adSetId).getCopies(['name']);
    expect(after.map((c) => c.id)).not.toContain(victim);
    expect(after).toHaveLength(copies.length - 1);
    const withDeleted = await new AdSet(adSetId).getCopies(['status'], { effective_status: ['DELETED'] });
    expect(withDeleted.map((c) => c._data)).toEqual([{ id: victim, status: 'DELETED' }]);
  });

  it('turns a refused create (budget too low, 1885272) into a FacebookRequestError, writing nothing', async () => {
    const before = await rowCounts();
    const error = await sdkFailure(() => new AdAccount(`act_${account.id}`).createAdSet([], { ...CREATE(), daily_budget: 99 }));
    expect(error.status).toBe(400);
    expect(error.response).toMatchObject({
      code: 100,
      error_subcode: 1885272,
      type: 'OAuthException',
      is_transient: false,
      fbtrace_id: expect.any(String),
      error_user_title: expect.any(String),
      error_user_msg: expect.stringContaining('1.00'),
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('turns a missing ad set into a FacebookRequestError (100/33)', async () => {
    const error = await sdkFailure(() => new AdSet('999999999999').get(['name']));
    expect(error.status).toBe(400);
    expect(error.response).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException' });
  });
});

describe('a form-encoded client shaped like the Python SDK', () => {
  /** facebook_business sends POST parameters as form fields, JSON-encoding objects, lists and booleans, with the token in the query string. */
  const pythonPost = (path: string, form: Record<string, unknown>) =>
    graph.call('POST', `/v24.0/${path}`, { token, form, headers: { 'user-agent': 'fbbizsdk-python-v24.0.0' } });

  it('creates an ad set, every non-string parameter a JSON-encoded string', async () => {
    const form = {
      name: 'Python ad set',
      campaign_id: campaign.id,
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      daily_budget: 1200,
      targeting: TARGETING,
      status: 'PAUSED',
      pacing_type: ['standard'],
      is_dynamic_creative: false,
      start_time: '2030-01-01T00:00:00+0000',
      end_time: '2030-02-01T00:00:00+0000',
    };
    const response = await pythonPost(`act_${account.id}/adsets`, form);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ id: expect.stringMatching(/^\d+$/), success: true });

    const read = await graph.get(response.body.id, token, { fields: 'name,daily_budget,targeting,pacing_type,is_dynamic_creative,start_time,end_time,status' });
    expect(read.body).toEqual({
      id: response.body.id,
      name: 'Python ad set',
      daily_budget: '1200',
      targeting: TARGETING,
      pacing_type: ['standard'],
      is_dynamic_creative: false,
      start_time: '2030-01-01T00:00:00+0000',
      end_time: '2030-02-01T00:00:00+0000',
      status: 'PAUSED',
    });
  });

  it('validates only with execution_options as a JSON list, writing nothing', async () => {
    const before = await rowCounts();
    const response = await pythonPost(`act_${account.id}/adsets`, {
      name: 'Validated',
      campaign_id: campaign.id,
      billing_event: 'IMPRESSIONS',
      daily_budget: 1200,
      targeting: TARGETING,
      execution_options: ['validate_only'],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect(await rowCounts()).toEqual(before);
  });

  it('copies deep with rename_options as a JSON object and deep_copy as "true"', async () => {
    const [source] = await world.adSets(campaign, 1, () => ({
      billingEvent: 'IMPRESSIONS',
      optimizationGoal: 'LINK_CLICKS',
      dailyBudget: '1000',
      name: 'Py source',
    }));
    await world.ads(source!, 2);
    const response = await pythonPost(`${source!.id}/copies`, { deep_copy: true, rename_options: { rename_strategy: 'NO_RENAME' } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.ad_object_ids).toHaveLength(3);
    expect((await server.deps.db('ad_sets').where({ id: response.body.copied_adset_id }).first()).name).toBe('Py source');
  });

  it('stores an async batch with adbatch as a JSON-encoded list, which completes', async () => {
    const [source] = await world.adSets(campaign, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' }));
    await world.ads(source!, 5);
    const response = await pythonPost(`act_${account.id}/async_batch_requests`, {
      name: 'Python batch',
      adbatch: [{ name: 'deep', relative_url: `${source!.id}/copies`, body: 'deep_copy=true' }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ id: expect.stringMatching(/^\d+$/) });
    let set = await graph.get(response.body.id, token, { fields: 'is_completed,success_count' });
    for (let polls = 0; set.body.is_completed !== true && polls < 200; polls++) {
      await sleep(100);
      set = await graph.get(response.body.id, token, { fields: 'is_completed,success_count' });
    }
    expect(set.body).toEqual({ id: response.body.id, is_completed: true, success_count: 1 });
    const copies = await server.deps.db('ad_sets').where({ source_adset_id: source!.id });
    expect(copies).toHaveLength(1);
    expect(await server.deps.db('ads').where({ adset_id: copies[0]!.id })).toHaveLength(5);
  });

  it('names the field of JSON broken in a form field, writing nothing', async () => {
    const before = await rowCounts();
    const response = await graph.call('POST', `/v24.0/act_${account.id}/adsets`, {
      token,
      raw: new URLSearchParams({
        name: 'Broken',
        campaign_id: campaign.id,
        billing_event: 'IMPRESSIONS',
        daily_budget: '1200',
        targeting: '{"geo_locations":',
      }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expectGraphError(response, { status: 400, code: 100, type: 'OAuthException', message: /targeting/ });
    expect(await rowCounts()).toEqual(before);
  });
});
