import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { expectGraphError, graphClient, wiredWrites, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { changedTables, databaseDigest, expectUnchanged } from '../helpers/table-hash.ts';
import type { PageRecord } from '../../src/comments/store.ts';

/**
 * execution_options=["validate_only"] on every /v24.0 write. The writes the platform gives execution_options
 * (campaigns, ad sets and ads, created or updated) check everything they would check, under the write's own locks,
 * answer {success: true} and leave every table as it was; the same call without the option writes (so the check was
 * of a real write). Every other write refuses the parameter (error 100 naming it) and writes nothing. The last test
 * holds the two lists to the dispatcher's table of writes, so a new write must say which kind it is.
 */
const ENV = {
  ASYNC_RUNNER: 'false',
  RATE_LIMIT_ACCOUNT_CALLS: '1000000/300',
  RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
  RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
};
const VALIDATE_ONLY = ['validate_only'];

let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let organizationId: string;
let token: string;
let page: PageRecord;
let app: { id: string; token: string };

beforeAll(async () => {
  server = await startTestServer(ENV);
  graph = graphClient(server);
  world = worldBuilder(server.deps);
  organizationId = (await world.organization()).id;
  token = (await world.user({ organizationId, role: 'advertiser' })).token;
  page = await world.page(organizationId);
  const { client, clientSecret } = await createClient(server.deps, { name: 'hooks', scope: 'pages_read_engagement', organization: organizationId });
  app = { id: client.id, token: await fetchAccessToken(server.url, client.clientId, clientSecret) };
});
afterAll(() => server?.close());

/** An account of its own per case: a campaign without a budget, an ad set with one ad, and a deleted ad set. */
async function scene() {
  const account = await world.adAccount(organizationId);
  const [campaign] = await world.campaigns(account, 1, { dailyBudget: null });
  const [adSet, deletedAdSet] = await world.adSets(campaign!, 2, (i) => ({
    billingEvent: 'IMPRESSIONS',
    optimizationGoal: 'LINK_CLICKS',
    dailyBudget: '5000',
    status: i === 1 ? 'DELETED' : 'ACTIVE',
  }));
  const [ad] = await world.ads(adSet!, 1);
  return { act: `act_${account.id}`, campaign: campaign!, adSet: adSet!, deletedAdSet: deletedAdSet!, ad: ad! };
}
type Scene = Awaited<ReturnType<typeof scene>>;

const call = (method: string, path: string, params: Record<string, unknown>, as = token): Promise<GraphHttpResponse> =>
  method === 'DELETE'
    ? graph.call('DELETE', `/v24.0/${path}`, { token: as, query: params })
    : graph.call('POST', `/v24.0/${path}`, { token: as, form: params });

interface Checked {
  path: (s: Scene) => string;
  /** Parameters the write accepts: without validate_only they write. */
  valid: (s: Scene) => Record<string, unknown>;
  /** A parameter the write refuses, and the field its error names: validate_only reports it, too. */
  invalid: (s: Scene) => Record<string, unknown>;
  field: string;
}

const CHECKED: Record<string, Checked> = {
  'POST /<AdAccount>/campaigns': {
    path: (s) => `${s.act}/campaigns`,
    valid: () => ({ name: 'Checked only', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [], status: 'PAUSED' }),
    invalid: () => ({ objective: 'OUTCOME_EVERYTHING' }),
    field: 'objective',
  },
  'POST /<AdAccount>/adsets': {
    path: (s) => `${s.act}/adsets`,
    valid: (s) => ({
      name: 'Checked only',
      campaign_id: s.campaign.id,
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      daily_budget: 20000,
      targeting: { geo_locations: { countries: ['US'] } },
    }),
    invalid: () => ({ billing_event: 'SOMETIMES' }),
    field: 'billing_event',
  },
  'POST /<AdAccount>/adrules_library': {
    path: (s) => `${s.act}/adrules_library`,
    valid: () => ({
      name: 'Pause all',
      evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [{ field: 'entity_type', value: 'ADSET', operator: 'EQUAL' }] },
      execution_spec: { execution_type: 'PAUSE' },
      schedule_spec: { schedule_type: 'DAILY' },
    }),
    // The id filter is checked against the account's objects, inside the write's transaction.
    invalid: () => ({
      evaluation_spec: {
        evaluation_type: 'SCHEDULE',
        filters: [
          { field: 'entity_type', value: 'ADSET', operator: 'EQUAL' },
          { field: 'id', value: ['999999999999999'], operator: 'IN' },
        ],
      },
    }),
    field: 'evaluation_spec.filters[1].value',
  },
  'POST /<AdAccount>/ads': {
    path: (s) => `${s.act}/ads`,
    valid: (s) => ({ name: 'Checked only', adset_id: s.adSet.id, creative: { title: 'Checked only' }, status: 'PAUSED' }),
    // Checked under the ad set's lock, inside the write's transaction.
    invalid: (s) => ({ adset_id: s.deletedAdSet.id }),
    field: 'adset_id',
  },
  // A status of DELETED reaches the campaign's ad sets and ads too: none of it is kept.
  'POST /<Campaign>': {
    path: (s) => s.campaign.id,
    valid: () => ({ name: 'Renamed', status: 'DELETED' }),
    invalid: () => ({ objective: 'OUTCOME_SALES' }),
    field: 'objective',
  },
  'POST /<AdSet>': {
    path: (s) => s.adSet.id,
    valid: () => ({ name: 'Renamed', status: 'ARCHIVED' }),
    invalid: () => ({ daily_budget: -1 }),
    field: 'daily_budget',
  },
  'POST /<Ad>': {
    path: (s) => s.ad.id,
    valid: () => ({ name: 'Renamed', status: 'DELETED' }),
    invalid: () => ({ status: 'SHOUTING' }),
    field: 'status',
  },
};

/** The rest of the writes, each with an object to write on and parameters it would otherwise accept. */
/** Each write refused with execution_options: its path and parameters, and the token to call with when not the advertiser's. */
const REFUSED: Record<string, (s: Scene) => Promise<[string, Record<string, unknown>, string?]>> = {
  'POST /<AdAccount>/customaudiences': async (s) => [`${s.act}/customaudiences`, { name: 'Visitors' }],
  'POST /<AdAccount>/customconversions': async (s) => [`${s.act}/customconversions`, { name: 'Signups', rule: { url: { i_contains: 'thanks' } } }],
  'POST /<AdAccount>/async_batch_requests': async (s) => [
    `${s.act}/async_batch_requests`,
    { name: 'Copies', adbatch: [{ relative_url: `${s.adSet.id}/copies`, body: 'deep_copy=false' }] },
  ],
  'POST /<AdAccount>/ad_studies': async (s) => [`${s.act}/ad_studies`, { name: 'Study' }],
  'POST /<AdAccount>/adcreatives': async (s) => [`${s.act}/adcreatives`, { title: 'Checked' }],
  'POST /<AdCreative>': async (s) => [s.ad.creativeId!, { name: 'Renamed' }],
  'POST /<AdRule>': async (s) => [await ruleOf(s), { name: 'Renamed' }],
  'DELETE /<AdRule>': async (s) => [await ruleOf(s), {}],
  'POST /<AdRule>/execute': async (s) => [`${await ruleOf(s)}/execute`, { dry_run: true }],
  'DELETE /<AdCreative>': async (s) => [s.ad.creativeId!, {}],
  'POST /<AdAccount>/insights': async (s) => [`${s.act}/insights`, { fields: 'impressions' }],
  'POST /<Campaign>/insights': async (s) => [`${s.campaign.id}/insights`, { fields: 'impressions' }],
  'POST /<AdSet>/insights': async (s) => [`${s.adSet.id}/insights`, { fields: 'impressions' }],
  'POST /<Ad>/insights': async (s) => [`${s.ad.id}/insights`, { fields: 'impressions' }],
  'DELETE /<Campaign>': async (s) => [s.campaign.id, {}],
  'DELETE /<AdSet>': async (s) => [s.adSet.id, {}],
  'POST /<AdSet>/copies': async (s) => [`${s.adSet.id}/copies`, { deep_copy: true }],
  'DELETE /<Ad>': async (s) => [s.ad.id, {}],
  'POST /<Page>/feed': async () => [`${page.id}/feed`, { message: 'Hello' }],
  'POST /<Post>/comments': async () => [`${(await world.post(page)).id}/comments`, { message: 'First!' }],
  'POST /<Comment>': async () => [await commentId(), { message: 'Edited' }],
  'DELETE /<Comment>': async () => [await commentId(), {}],
  'POST /<Comment>/comments': async () => [`${await commentId()}/comments`, { message: 'A reply' }],
  'POST /<Comment>/likes': async () => [`${await commentId()}/likes`, {}],
  'DELETE /<Comment>/likes': async () => [`${await commentId()}/likes`, {}],
  'POST /<Comment>/reactions': async () => [`${await commentId()}/reactions`, { type: 'LOVE' }],
  'POST /<Comment>/private_replies': async () => [`${await commentId()}/private_replies`, { message: 'Hello' }],
  'POST /<Post>/reactions': async () => [`${(await world.post(page)).id}/reactions`, { type: 'LOVE' }],
  'DELETE /<Post>/reactions': async () => [`${(await world.post(page)).id}/reactions`, {}],
  'DELETE /<Comment>/reactions': async () => [`${await commentId()}/reactions`, {}],
  // Refused before anything else (the callback is not even called), whoever asks.
  'POST /<Page>/subscribed_apps': async () => [`${page.id}/subscribed_apps`, { subscribed_fields: 'feed' }],
  'DELETE /<Page>/subscribed_apps': async () => [`${page.id}/subscribed_apps`, {}],
  // An app's subscriptions are its own to manage: called with its token.
  'POST /<Application>/subscriptions': async () => [
    `${app.id}/subscriptions`,
    { object: 'page', callback_url: 'https://hooks.example/adgraph', fields: 'feed', verify_token: 'x' },
    app.token,
  ],
  'DELETE /<Application>/subscriptions': async () => [`${app.id}/subscriptions`, {}, app.token],
};

/** A rule in the scene's account (pausing every ad set daily). */
async function ruleOf(s: Scene): Promise<string> {
  const created = await call('POST', `${s.act}/adrules_library`, {
    name: 'Pause all',
    evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [{ field: 'entity_type', value: 'ADSET', operator: 'EQUAL' }] },
    execution_spec: { execution_type: 'PAUSE' },
    schedule_spec: { schedule_type: 'DAILY' },
  });
  expect(created.status, created.text).toBe(200);
  return created.body.id as string;
}

/** A comment the page wrote on its own post, addressed `<post id>_<comment id>`. */
async function commentId(): Promise<string> {
  const post = await world.post(page);
  return `${post.id}_${(await world.comment(post)).id}`;
}

const methodOf = (key: string) => key.split(' ')[0]!;

describe('execution_options validate_only', () => {
  it.each(Object.keys(CHECKED))('%s checks everything and writes nothing; without it, it writes', async (key) => {
    const write = CHECKED[key]!;
    const s = await scene();
    const before = await databaseDigest(server.deps.db);

    const checked = await call('POST', write.path(s), { ...write.valid(s), execution_options: VALIDATE_ONLY });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body).toEqual({ success: true });
    await expectUnchanged(server.deps.db, before, `${key} with validate_only`);

    const refused = await call('POST', write.path(s), { ...write.valid(s), ...write.invalid(s), execution_options: VALIDATE_ONLY });
    expectGraphError(refused, { status: 400, code: 100, message: new RegExp(write.field.replace(/[[\]]/g, '\\$&')) });
    await expectUnchanged(server.deps.db, before, `${key} refused with validate_only`);

    const written = await call('POST', write.path(s), { ...write.valid(s), execution_options: [] });
    expect(written.status, written.text).toBe(200);
    expect(changedTables(before, await databaseDigest(server.deps.db))).not.toEqual([]);
  });

  it.each(Object.keys(REFUSED))('%s does not take execution_options: error 100 naming it, nothing written', async (key) => {
    const s = await scene();
    const [path, params, as] = await REFUSED[key]!(s);
    const before = await databaseDigest(server.deps.db);
    const refused = await call(methodOf(key), path, { ...params, execution_options: VALIDATE_ONLY }, as);
    expectGraphError(refused, { status: 400, code: 100, message: /execution_options/ });
    await expectUnchanged(server.deps.db, before, `${key} with validate_only`);
  });

  it('an asynchronous copy carrying execution_options is refused when it is asked for, before anything is stored', async () => {
    const s = await scene();
    const before = await databaseDigest(server.deps.db);
    const refused = await call('POST', `${s.act}/async_batch_requests`, {
      name: 'Copies',
      adbatch: [{ relative_url: `${s.adSet.id}/copies`, body: `deep_copy=false&execution_options=${encodeURIComponent('["validate_only"]')}` }],
    });
    expectGraphError(refused, { status: 400, code: 100, message: /adbatch\[0\].*execution_options/ });
    await expectUnchanged(server.deps.db, before, 'an async copy with execution_options');
  });

  it("names every write of the dispatcher's table (src/graph-api/writes.ts) as checked or refused", () => {
    expect([...Object.keys(CHECKED), ...Object.keys(REFUSED)].sort()).toEqual(wiredWrites().sort());
  });
});
