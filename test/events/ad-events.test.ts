import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { graphqlWsClients } from '../helpers/graphql-ws.ts';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { eventually } from '../helpers/api.ts';
import { eventHub } from '../../src/events/hub.ts';
import { claimNext, runClaimed, type AnyJobKind } from '../../src/jobs/index.ts';
import { adSetCopyJobs } from '../../src/ads/copy-jobs.ts';
import { adRuleRunJobs } from '../../src/ads/ad-rule-runs.ts';
import { insightsReportJobs } from '../../src/insights/reports/job.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * The ad subscriptions over graphql-ws (docs/real-time.md): adObjectEvents tells a reader of an ad account its
 * campaigns', ad sets' and ads' creations, updates (with what changed), status changes and deletions, in order, as
 * they are written through GraphQL and /v24.0, and its automated rules' runs; `types` keeps only the kinds asked
 * for; an account the caller may not read is refused as missing. jobFinished tells the end of an asynchronous
 * copy request, a request set or an insights report run once, then completes; one already ended answers at once, with the same event. The
 * background runner is off here: the tests claim and run the queued jobs as it does (src/jobs), after subscribing.
 */
let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let account: AdAccountRecord;
let campaign: CampaignRecord;
/** An advertiser of the account's organization: reads and writes its ads. */
let advertiser: string;
/** An auditor of the organization: reads everything, writes nothing. */
let auditor: string;
/** A member of the organization without a role over ads. */
let member: string;
/** The admin of another organization. */
let outsider: string;
const websockets = graphqlWsClients(() => server.url);
const connect = (token?: string) => websockets.connect(token);

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  advertiser = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  auditor = (await world.user({ organizationId: org.id, role: 'auditor' })).token;
  member = (await world.user({ organizationId: org.id, role: 'member' })).token;
  outsider = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token;
  account = await world.adAccount(org.id);
  [campaign] = (await world.campaigns(account, 1)) as [CampaignRecord];
});
afterAll(async () => {
  await websockets.disposeAll();
  await server?.close();
});

interface Heard {
  events: Array<Record<string, any>>;
  errors: Array<{ message: string; extensions?: Record<string, any> }>;
  /** The server ended the subscription. */
  completed: boolean;
  /** Resolves once `count` events have arrived. */
  until(count: number): Promise<void>;
  /** Resolves once the server has ended the subscription. */
  ended(): Promise<void>;
  /** Unsubscribes, and resolves once the server no longer listens for it. */
  stop(): Promise<void>;
}

/**
 * Subscribes, and resolves once the server listens for it (the instance's hub holds one more subscription) or has
 * answered it already (an error, an event, its end).
 */
async function listen(client: Client, query: string, variables: Record<string, unknown>): Promise<Heard> {
  const hub = eventHub(server.deps);
  const before = hub.size;
  // Waits for a condition on what was heard; a timeout says what had been heard by then.
  const waitFor = async (what: string, done: () => boolean) => {
    await eventually(async () => done(), 20_000, what).catch((error: Error) => {
      throw new Error(`${error.message}; heard: ${JSON.stringify(heard)}`);
    });
  };
  const heard: Heard = {
    events: [],
    errors: [],
    completed: false,
    until: (count) => waitFor(`${count} events`, () => heard.events.length >= count),
    ended: () => waitFor('the subscription to end', () => heard.completed),
    stop: async () => undefined,
  };
  const unsubscribe = client.subscribe(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) heard.errors.push(...(result.errors as Heard['errors']));
        if (result.data) heard.events.push(result.data);
      },
      error: (error) => heard.errors.push({ message: String((error as Error)?.message ?? error) }),
      complete: () => {
        heard.completed = true;
      },
    },
  );
  await eventually(async () => hub.size > before || heard.events.length > 0 || heard.errors.length > 0 || heard.completed, 10_000, 'the subscription to start');
  // Readiness is read off the hub's size: a subscription stopped must be gone from it before the next one starts.
  heard.stop = async () => {
    const listening = hub.size;
    unsubscribe();
    if (!heard.completed) await eventually(async () => hub.size < listening, 10_000, 'the subscription to stop');
  };
  return heard;
}

const AD_EVENTS = `subscription ($accountId: ID!, $types: [AdEventObjectType!]) {
  adObjectEvents(accountId: $accountId, types: $types) {
    id objectType objectId verb changes time
    object { __typename ... on Campaign { id name status } ... on AdSet { id name status } ... on Ad { id name status } ... on AdRule { id name } }
  }
}`;
const JOB_FINISHED = 'subscription ($id: ID!) { jobFinished(id: $id) { id jobId kind status time } }';

/** The events' [verb, objectType, objectId], to compare in order. */
const told = (heard: Heard) => heard.events.map(({ adObjectEvents: e }) => [e.verb, e.objectType, e.objectId]);
/** The change history's event types an event carries. */
const eventTypes = (event: Record<string, any>) => (event.adObjectEvents.changes as Array<{ event_type: string }>).map((change) => change.event_type);

/** A GraphQL operation as `token`; its data, failing on any error. */
async function gql(query: string, variables: Record<string, unknown>, token = advertiser): Promise<Record<string, any>> {
  const { body } = await server.graphql(query, variables, token);
  expect((body as GraphQLBody).errors, JSON.stringify(body)).toBeUndefined();
  return body.data!;
}

/** Claims and runs every queued job of the kind, one at a time, as the background runner does; answers how many ran. */
async function runQueued(kind: AnyJobKind): Promise<number> {
  let ran = 0;
  for (let job = await claimNext(server.deps.db, kind, 'test-runner', 60); job; job = await claimNext(server.deps.db, kind, 'test-runner', 60)) {
    await runClaimed(server.deps, kind, job, 'test-runner');
    ran += 1;
  }
  return ran;
}

const CREATE_AD_SET = 'mutation ($a: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $a, input: $input) { id name } }';
const UPDATE_AD_SET = 'mutation ($id: ID!, $input: UpdateAdSetInput!) { updateAdSet(id: $id, input: $input) { id } }';
const DELETE_AD_SET = 'mutation ($id: ID!) { deleteAdSet(id: $id) }';
const CREATE_CAMPAIGN = 'mutation ($a: ID!, $input: CreateCampaignInput!) { createCampaign(accountId: $a, input: $input) { id } }';
const UPDATE_CAMPAIGN = 'mutation ($id: ID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { id } }';
const DELETE_CAMPAIGN = 'mutation ($id: ID!) { deleteCampaign(id: $id) }';
const CREATE_REPORT = 'mutation ($id: ID!, $input: InsightsInput!) { createInsightsReport(objectId: $id, input: $input) { id status } }';
const READ_REPORT = 'query ($id: ID!) { insightsReport(id: $id) { status error } }';
const CREATE_AD = 'mutation ($a: ID!, $input: CreateAdInput!) { createAd(accountId: $a, input: $input) { id } }';

/** A new ad set of `campaign` through createAdSet; its id. */
async function newAdSet(name: string, campaignId = campaign.id): Promise<string> {
  const input = { name, campaignId, billingEvent: 'IMPRESSIONS', targeting: { geoLocations: { countries: ['US'] } }, dailyBudget: 5000 };
  return (await gql(CREATE_AD_SET, { a: `act_${account.id}`, input })).createAdSet.id as string;
}

/** An ad set a copy or a rule can act on (a budget, an optimization goal), stored directly. */
async function storedAdSet(name: string): Promise<AdSetRecord> {
  const [adSet] = await world.adSets(campaign, 1, () => ({ name, billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' }));
  return adSet!;
}

/** The error a refused subscription answered, once it has: its message and extensions. */
async function refusal(heard: Heard) {
  await heard.ended();
  expect(heard.events).toEqual([]);
  expect(heard.errors).toHaveLength(1);
  return heard.errors[0]!;
}

describe('adObjectEvents', () => {
  it('tells a reader of the account its ad set created, updated, paused and deleted, in order, with what changed', async () => {
    const heard = await listen(connect(advertiser), AD_EVENTS, { accountId: `act_${account.id}` });
    // Each step waits for its event: the object is read as the event goes out, so it is seen as that write left it.
    const id = await newAdSet('Spring');
    await heard.until(1);
    await gql(UPDATE_AD_SET, { id, input: { name: 'Spring, wider', dailyBudget: 7000 } });
    await heard.until(2);
    await gql(UPDATE_AD_SET, { id, input: { status: 'PAUSED' } });
    await heard.until(3);
    await gql(DELETE_AD_SET, { id });
    await heard.until(4);

    expect(heard.errors).toEqual([]);
    expect(told(heard)).toEqual([
      ['CREATE', 'AD_SET', id],
      ['UPDATE', 'AD_SET', id],
      ['STATUS', 'AD_SET', id],
      ['DELETE', 'AD_SET', id],
    ]);
    const [created, updated, paused, deleted] = heard.events.map((e) => e.adObjectEvents as Record<string, any>);
    expect(created!.object).toEqual({ __typename: 'AdSet', id, name: 'Spring', status: 'ACTIVE' });
    expect(created!.changes).toEqual([expect.objectContaining({ event_type: 'create_ad_set', name: 'Spring', status: 'ACTIVE', daily_budget: '5000' })]);
    // One event for the write, naming each family of fields it changed, with the old and new values.
    expect(updated!.changes).toEqual([
      expect.objectContaining({ event_type: 'update_ad_set_name', old_value: 'Spring', new_value: 'Spring, wider' }),
      expect.objectContaining({
        event_type: 'update_ad_set_budget',
        old_value: expect.objectContaining({ daily_budget: '5000' }),
        new_value: expect.objectContaining({ daily_budget: '7000' }),
      }),
    ]);
    expect(updated!.object).toMatchObject({ name: 'Spring, wider' });
    expect(paused!.changes).toEqual([expect.objectContaining({ event_type: 'update_ad_set_run_status', old_value: 'ACTIVE', new_value: 'PAUSED' })]);
    expect(paused!.object).toMatchObject({ status: 'PAUSED' });
    expect(deleted!.changes).toEqual([expect.objectContaining({ event_type: 'delete_ad_set', old_value: 'PAUSED', new_value: 'DELETED' })]);
    // Every event its own id, and the time of its write.
    expect(new Set(heard.events.map((e) => e.adObjectEvents.id)).size).toBe(4);
    for (const event of heard.events) expect(Math.abs(Date.parse(event.adObjectEvents.time) - Date.now())).toBeLessThan(60_000);
    await heard.stop();
  });

  it("tells a campaign's and an ad's writes, and a campaign's deletion as one event per object it deleted", async () => {
    const heard = await listen(connect(auditor), AD_EVENTS, { accountId: account.id });
    const campaignId = (await gql(CREATE_CAMPAIGN, { a: account.id, input: { name: 'Autumn', objective: 'OUTCOME_TRAFFIC', specialAdCategories: [] } }))
      .createCampaign.id as string;
    const adSetId = await newAdSet('Autumn ad set', campaignId);
    const adId = (await gql(CREATE_AD, { a: account.id, input: { name: 'Autumn ad', adSetId, creative: { title: 'Leaves' } } })).createAd.id as string;
    // The same writes on /v24.0.
    const renamed = await graph.call('POST', `/v24.0/${adId}`, { token: advertiser, form: { name: 'Autumn ad, renamed' } });
    expect(renamed.status, renamed.text).toBe(200);
    const paused = await graph.call('POST', `/v24.0/${campaignId}`, { token: advertiser, form: { status: 'PAUSED' } });
    expect(paused.status, paused.text).toBe(200);
    await gql(DELETE_CAMPAIGN, { id: campaignId });
    // A marker: once it is heard, everything the deletion told has been heard.
    await gql(UPDATE_CAMPAIGN, { id: campaign.id, input: { name: 'Campaign 1 (marker)' } });
    await heard.until(9);

    expect(heard.errors).toEqual([]);
    expect(told(heard).slice(0, 5)).toEqual([
      ['CREATE', 'CAMPAIGN', campaignId],
      ['CREATE', 'AD_SET', adSetId],
      ['CREATE', 'AD', adId],
      ['UPDATE', 'AD', adId],
      ['STATUS', 'CAMPAIGN', campaignId],
    ]);
    expect(eventTypes(heard.events[3]!)).toEqual(['update_ad_name']);
    // Deleting the campaign deletes its ad set and its ad: each is told once (in whichever order the write tells them).
    const byType = (a: unknown[], b: unknown[]) => String(a[1]).localeCompare(String(b[1]));
    expect(told(heard).slice(5, 8).sort(byType)).toEqual([
      ['DELETE', 'AD', adId],
      ['DELETE', 'AD_SET', adSetId],
      ['DELETE', 'CAMPAIGN', campaignId],
    ]);
    expect(told(heard)[8]).toEqual(['UPDATE', 'CAMPAIGN', campaign.id]);
    expect(heard.events[0]!.adObjectEvents.changes).toEqual([expect.objectContaining({ event_type: 'create_campaign', name: 'Autumn' })]);
    await heard.stop();
  });

  it('with types, tells only the kinds asked for', async () => {
    const all = await listen(connect(advertiser), AD_EVENTS, { accountId: account.id });
    const campaigns = await listen(connect(advertiser), AD_EVENTS, { accountId: account.id, types: ['CAMPAIGN'] });
    const adSetId = await newAdSet('Filtered out');
    await gql(UPDATE_CAMPAIGN, { id: campaign.id, input: { name: 'Campaign 1, renamed' } });
    await gql(UPDATE_AD_SET, { id: adSetId, input: { name: 'Filtered out, renamed' } });
    await gql(UPDATE_CAMPAIGN, { id: campaign.id, input: { name: 'Campaign 1' } });
    await all.until(4);
    // The last write is a campaign's: once it is heard, every event before it has been offered (one order for all).
    await campaigns.until(2);
    expect(told(all).map(([, type]) => type)).toEqual(['AD_SET', 'CAMPAIGN', 'AD_SET', 'CAMPAIGN']);
    expect(told(campaigns)).toEqual([
      ['UPDATE', 'CAMPAIGN', campaign.id],
      ['UPDATE', 'CAMPAIGN', campaign.id],
    ]);
    expect(campaigns.events.map((e) => e.adObjectEvents.changes[0].new_value)).toEqual(['Campaign 1, renamed', 'Campaign 1']);
    // The same events, with the same ids.
    expect(campaigns.events.map((e) => e.adObjectEvents.id)).toEqual([all.events[1]!.adObjectEvents.id, all.events[3]!.adObjectEvents.id]);
    await all.stop();
    await campaigns.stop();
  });

  it("refuses an account the caller may not read as missing: another organization's, a member's without ads, an unknown one", async () => {
    const foreign = await listen(connect(outsider), AD_EVENTS, { accountId: `act_${account.id}` });
    const withoutAds = await listen(connect(member), AD_EVENTS, { accountId: account.id });
    const unknown = await listen(connect(advertiser), AD_EVENTS, { accountId: '999999999999' });
    const anonymous = await listen(connect(), AD_EVENTS, { accountId: account.id });
    for (const heard of [foreign, withoutAds, unknown]) {
      expect((await refusal(heard)).extensions).toMatchObject({ code: 'NOT_FOUND' });
    }
    // The same answer for an account that exists and one that does not: ids cannot be probed.
    expect((await refusal(foreign)).message).toBe(`AdAccount act_${account.id} does not exist or you cannot see it.`);
    expect((await refusal(unknown)).message).toBe('AdAccount 999999999999 does not exist or you cannot see it.');
    expect((await refusal(anonymous)).extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('jobFinished', () => {
  it('tells the end of an asynchronous ad set copy once, then completes; asked again after its end, answers at once', async () => {
    const source = await storedAdSet('Copy me');
    const answer = await gql('mutation ($id: ID!) { copyAdSet(id: $id, async: true) { request { id status } } }', { id: source.id });
    const request = answer.copyAdSet.request as { id: string; status: string };
    expect(request.status).toBe('INITIAL');

    const finished = await listen(connect(advertiser), JOB_FINISHED, { id: request.id });
    const objects = await listen(connect(advertiser), AD_EVENTS, { accountId: account.id, types: ['AD_SET'] });
    expect(finished.events).toEqual([]);
    expect(await runQueued(adSetCopyJobs)).toBe(1);
    await finished.ended();

    expect(finished.errors).toEqual([]);
    expect(finished.events).toEqual([
      { jobFinished: { id: expect.any(String), jobId: request.id, kind: 'ASYNC_REQUEST', status: 'SUCCESS', time: expect.any(String) } },
    ]);
    // The copy itself is told on the account as a creation.
    const result = (await gql('query ($id: ID!) { asyncRequest(id: $id) { status result } }', { id: request.id })).asyncRequest;
    expect(result.status).toBe('SUCCESS');
    const copiedId = String(result.result.copied_adset_id);
    await objects.until(1);
    expect(told(objects)).toEqual([['CREATE', 'AD_SET', copiedId]]);
    expect(objects.events[0]!.adObjectEvents.changes).toEqual([expect.objectContaining({ event_type: 'copy_ad_set', source_id: source.id })]);
    await objects.stop();

    const late = await listen(connect(advertiser), JOB_FINISHED, { id: request.id });
    await late.ended();
    expect(late.errors).toEqual([]);
    expect(late.events).toEqual([
      { jobFinished: { id: expect.any(String), jobId: request.id, kind: 'ASYNC_REQUEST', status: 'SUCCESS', time: expect.any(String) } },
    ]);
  });

  // Bug: an ended job is answered with an event made up for the occasion (id `ended-<job id>`, src/ads/subscriptions.ts),
  // not the event its end wrote: a client that heard the end, lost its connection and subscribed again cannot tell
  // it is the same event, though the schema promises the same id. Remove `.fails` once it carries the same id.
  it('answers a job heard ending, asked again after its end (a reconnection), with the same event id', async () => {
    const source = await storedAdSet('Heard twice');
    const request = (await gql('mutation ($id: ID!) { copyAdSet(id: $id, async: true) { request { id } } }', { id: source.id })).copyAdSet.request.id as string;
    const live = await listen(connect(advertiser), JOB_FINISHED, { id: request });
    expect(await runQueued(adSetCopyJobs)).toBe(1);
    await live.ended();
    const again = await listen(connect(advertiser), JOB_FINISHED, { id: request });
    await again.ended();
    expect(live.events).toHaveLength(1);
    expect(again.events).toHaveLength(1);
    expect(again.events[0]!.jobFinished.id).toBe(live.events[0]!.jobFinished.id);
  });

  it('tells each request of a /v24.0 async_batch_requests set its own end', async () => {
    const [first, second] = [await storedAdSet('Batch 1'), await storedAdSet('Batch 2')];
    const batch = await graph.call('POST', `/v24.0/act_${account.id}/async_batch_requests`, {
      token: advertiser,
      json: { name: 'Two copies', adbatch: [first, second].map((adSet) => ({ name: `copy of ${adSet.id}`, relative_url: `${adSet.id}/copies`, body: '' })) },
    });
    expect(batch.status, batch.text).toBe(200);
    const set = await gql('query ($id: ID!) { asyncRequestSet(id: $id) { requests { nodes { id scopeObjectId } } } }', { id: batch.body.id });
    const requests = set.asyncRequestSet.requests.nodes as Array<{ id: string; scopeObjectId: string }>;
    expect(requests.map((request) => request.scopeObjectId).sort()).toEqual([first.id, second.id].sort());

    const heard = await Promise.all(requests.map(async (request) => listen(connect(advertiser), JOB_FINISHED, { id: request.id })));
    const ofSet = await listen(connect(advertiser), JOB_FINISHED, { id: batch.body.id });
    expect(await runQueued(adSetCopyJobs)).toBe(2);
    await Promise.all(heard.map((one) => one.ended()));
    expect(heard.map((one) => one.events.map((e) => [e.jobFinished.jobId, e.jobFinished.kind, e.jobFinished.status]))).toEqual(
      requests.map((request) => [[request.id, 'ASYNC_REQUEST', 'SUCCESS']]),
    );
    // The set ends with its last request: told once, to its own subscribers.
    await ofSet.ended();
    expect(ofSet.events.map((e) => [e.jobFinished.jobId, e.jobFinished.kind, e.jobFinished.status])).toEqual([
      [batch.body.id, 'ASYNC_REQUEST_SET', 'COMPLETED'],
    ]);
    // Asked after its end, it answers at once with the same event.
    const late = await listen(connect(advertiser), JOB_FINISHED, { id: batch.body.id });
    await late.ended();
    expect(late.events).toEqual(ofSet.events);
  });

  it('tells an insights report run that completes, and one that fails; answers one already completed at once', async () => {
    // The account was created today (UTC): a report of today completes, one of yesterday fails (before its first day).
    const report = async (daysAgo: number) => {
      const day = new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      const created = await gql(CREATE_REPORT, { id: `act_${account.id}`, input: { timeRange: { since: day, until: day } } });
      return created.createInsightsReport as { id: string; status: string };
    };
    const run = await report(0);
    expect(run.status).toBe('NOT_STARTED');

    const finished = await listen(connect(auditor), JOB_FINISHED, { id: run.id });
    expect(await runQueued(insightsReportJobs)).toBe(1);
    await finished.ended();
    expect(finished.errors).toEqual([]);
    expect(finished.events).toEqual([
      { jobFinished: { id: expect.any(String), jobId: run.id, kind: 'INSIGHTS_REPORT_RUN', status: 'COMPLETED', time: expect.any(String) } },
    ]);
    expect((await gql(READ_REPORT, { id: run.id })).insightsReport).toEqual({ status: 'COMPLETED', error: null });

    const late = await listen(connect(advertiser), JOB_FINISHED, { id: run.id });
    await late.ended();
    expect(late.events.map((e) => [e.jobFinished.jobId, e.jobFinished.kind, e.jobFinished.status])).toEqual([[run.id, 'INSIGHTS_REPORT_RUN', 'COMPLETED']]);

    const failing = await report(1);
    const failed = await listen(connect(advertiser), JOB_FINISHED, { id: failing.id });
    expect(await runQueued(insightsReportJobs)).toBe(1);
    await failed.ended();
    expect((await gql(READ_REPORT, { id: failing.id })).insightsReport).toMatchObject({ status: 'FAILED', error: { code: 100 } });
    expect(failed.events.map((e) => [e.jobFinished.jobId, e.jobFinished.kind, e.jobFinished.status])).toEqual([[failing.id, 'INSIGHTS_REPORT_RUN', 'FAILED']]);
  });

  it('refuses an unknown id as NOT_FOUND, one that is not an id as BAD_USER_INPUT naming id, and another organization as NOT_FOUND', async () => {
    const source = await storedAdSet('Not for outsiders');
    const request = (await gql('mutation ($id: ID!) { copyAdSet(id: $id, async: true) { request { id } } }', { id: source.id })).copyAdSet.request.id as string;
    const unknown = await listen(connect(advertiser), JOB_FINISHED, { id: '999999999999' });
    const malformed = await listen(connect(advertiser), JOB_FINISHED, { id: 'abc' });
    const foreign = await listen(connect(outsider), JOB_FINISHED, { id: request });
    expect(await refusal(unknown)).toMatchObject({ message: 'Job 999999999999 does not exist or you cannot see it.', extensions: { code: 'NOT_FOUND' } });
    expect((await refusal(malformed)).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    expect(await refusal(foreign)).toMatchObject({ message: `Job ${request} does not exist or you cannot see it.`, extensions: { code: 'NOT_FOUND' } });
    // Left queued: run it, so later tests' runs find the queue empty.
    expect(await runQueued(adSetCopyJobs)).toBe(1);
  });
});

describe('automated rules on adObjectEvents', () => {
  it('tells a run asked for by hand: what it did to the ad set, then the rule EXECUTED with its results', async () => {
    const target = await storedAdSet('Pause me');
    const created = await graph.call('POST', `/v24.0/act_${account.id}/adrules_library`, {
      token: advertiser,
      json: {
        name: 'Pause one ad set',
        evaluation_spec: {
          evaluation_type: 'SCHEDULE',
          filters: [
            { field: 'entity_type', value: 'ADSET', operator: 'EQUAL' },
            { field: 'id', value: [target.id], operator: 'IN' },
          ],
        },
        execution_spec: { execution_type: 'PAUSE' },
        schedule_spec: { schedule_type: 'DAILY' },
      },
    });
    expect(created.status, created.text).toBe(200);
    const ruleId = created.body.id as string;

    const all = await listen(connect(advertiser), AD_EVENTS, { accountId: account.id });
    const rules = await listen(connect(auditor), AD_EVENTS, { accountId: account.id, types: ['AD_RULE'] });
    const executed = await graph.call('POST', `/v24.0/${ruleId}/execute`, { token: advertiser, json: {} });
    expect(executed.status, executed.text).toBe(200);
    expect(await runQueued(adRuleRunJobs)).toBe(1);
    await all.until(2);
    await rules.until(1);

    expect(all.errors).toEqual([]);
    expect(told(all)).toEqual([
      ['STATUS', 'AD_SET', target.id],
      ['EXECUTED', 'AD_RULE', ruleId],
    ]);
    expect(all.events[0]!.adObjectEvents.changes).toEqual([expect.objectContaining({ old_value: 'ACTIVE', new_value: 'PAUSED' })]);
    const run = all.events[1]!.adObjectEvents;
    expect(run.object).toEqual({ __typename: 'AdRule', id: ruleId, name: 'Pause one ad set' });
    // A rule's run tells its results, as its history holds them.
    expect(run.changes).toEqual([
      { object_id: target.id, object_type: 'ADSET', actions: [{ action: 'PAUSED', field: 'status', old_value: 'ACTIVE', new_value: 'PAUSED' }] },
    ]);
    expect(told(rules)).toEqual([['EXECUTED', 'AD_RULE', ruleId]]);
    expect(rules.events[0]!.adObjectEvents.id).toBe(run.id);
    await all.stop();
    await rules.stop();
  });
});
