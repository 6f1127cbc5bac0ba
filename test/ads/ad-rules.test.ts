import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor, type SdkObject } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { eventually } from '../helpers/api.ts';
import { daysAgo, DEFAULT_PLACEMENT, importLines } from '../helpers/insights.ts';
import { databaseDigest, expectUnchanged } from '../helpers/table-hash.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * Automated rules (issue 21) through /v24.0 and the official SDK: created in an account's library, listed by the
 * ad sets they govern, changed, deleted; evaluated against the statistics, dry-run or run now on the background
 * runner, acting through the ad set writes (so the change history names the rule and the ad set rules hold), with
 * each evaluation in the rule's history. Scheduling across instances and restarts: ad-rule-schedule.test.ts.
 */
interface SdkRules {
  getAdRulesLibrary(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  createAdRulesLibrary(fields: string[], params: Record<string, unknown>): Promise<SdkObject>;
  getAdRulesGoverned(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
const sdk = bizSdk as unknown as {
  AdAccount: new (id: string) => SdkRules;
  AdSet: new (id: string) => SdkRules;
  AdRule: new (id: string) => {
    get(fields: string[]): Promise<SdkObject>;
    getHistory(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
    createExecute(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  };
};

let server: TestServer;
let graph: GraphClient;
let token: string;
let auditorToken: string;
let outsiderToken: string;
let account: AdAccountRecord;
let campaign: CampaignRecord;
let adSets: AdSetRecord[];
let restoreSdk: (() => void) | undefined;
let smtp: TestSmtpServer;
let advertiserEmail: string;
let colleague: { id: string; email: string };
let stranger: { id: string; email: string };

const act = () => `act_${account.id}`;
const entity = (type: string) => ({ field: 'entity_type', value: type, operator: 'EQUAL' });
const preset = (value: string) => ({ field: 'time_preset', value, operator: 'EQUAL' });
const filter = (field: string, operator: string, value: unknown) => ({ field, value, operator });
const post = (path: string, body: Record<string, unknown>, as = token) => graph.call('POST', `/v24.0/${path}`, { token: as, json: body });

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ ASYNC_POLL_MS: '100', SMTP_URL: smtp.url });
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const setup = await world.advertiserWithAccount();
  ({ token, outsiderToken, account } = setup);
  auditorToken = (await world.user({ organizationId: setup.org.id, role: 'auditor' })).token;
  advertiserEmail = setup.advertiser.user.email;
  colleague = (await world.user({ organizationId: setup.org.id, role: 'member' })).user;
  stranger = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).user;
  [campaign] = (await world.campaigns(account, 1, { dailyBudget: null })) as [CampaignRecord];
  // Three ad sets with budgets of their own; the third's is at the account currency's minimum.
  adSets = await world.adSets(campaign, 3, (i) => ({
    billingEvent: 'IMPRESSIONS',
    optimizationGoal: 'LINK_CLICKS',
    dailyBudget: ['10000', '20000', '100'][i]!,
    name: `Set ${i + 1}`,
  }));
  const day = new Date(daysAgo(1)).toISOString().slice(0, 10);
  const rows = [];
  // Yesterday: the first ad set spent 60.00 for 300 clicks, the second 5.00 for 10, the third 30.00 for 20.
  for (const [adSet, spend, clicks] of [
    [adSets[0]!, 6_000, 300],
    [adSets[1]!, 500, 10],
    [adSets[2]!, 3_000, 20],
  ] as const) {
    const [ad] = await world.ads(adSet, 1);
    rows.push({
      ad_id: ad!.id,
      date: day,
      ...DEFAULT_PLACEMENT,
      impressions: 10_000,
      clicks,
      inline_link_clicks: clicks,
      spend,
      actions: { link_click: clicks },
    });
  }
  await importLines(server.deps, rows, { format: 'daily' });
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  if (process.env.DUMP_LOGS) console.log(JSON.stringify(server.logs.filter((l) => l.job || l.err || (l.level as number) >= 40)).slice(0, 5000));
  restoreSdk?.();
  await server?.close();
  await smtp?.close();
});

/** Lower by 20% the budget of ad sets that spent more than 20.00 yesterday. */
const SPENDERS = () => ({
  name: 'Cool down big spenders',
  evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [entity('ADSET'), preset('YESTERDAY'), filter('spent', 'GREATER_THAN', 2_000)] },
  execution_spec: { execution_type: 'CHANGE_BUDGET', execution_options: [filter('change_spec', 'EQUAL', { amount: -20, unit: 'PERCENTAGE' })] },
  schedule_spec: { schedule_type: 'DAILY' },
});

const budgets = async () => (await Promise.all(adSets.map((s) => graph.get(s.id, token, { fields: 'daily_budget' })))).map((r) => r.body.daily_budget);

describe('automated rules', () => {
  let spendersId: string;
  let pauseId: string;

  it('the SDK creates rules in the library, reads them back as written, and lists them', async () => {
    const created = await new sdk.AdAccount(act()).createAdRulesLibrary([], SPENDERS());
    spendersId = created.id;
    const read = await new sdk.AdRule(spendersId).get(['name', 'status', 'evaluation_spec', 'execution_spec', 'schedule_spec', 'account_id']);
    expect(read._data).toMatchObject({
      name: 'Cool down big spenders',
      status: 'ENABLED',
      account_id: account.id,
      evaluation_spec: SPENDERS().evaluation_spec,
      execution_spec: {
        execution_type: 'CHANGE_BUDGET',
        execution_options: [{ field: 'change_spec', operator: 'EQUAL', value: { amount: -20, unit: 'PERCENTAGE' } }],
      },
      schedule_spec: { schedule_type: 'DAILY' },
    });
    // A rule naming the first ad set by id, pausing it when its CTR is under 1%.
    const pause = await post(`${act()}/adrules_library`, {
      name: 'Pause weak CTR',
      evaluation_spec: {
        evaluation_type: 'SCHEDULE',
        filters: [entity('ADSET'), filter('id', 'IN', [adSets[1]!.id]), preset('YESTERDAY'), filter('ctr', 'LESS_THAN', 1)],
      },
      execution_spec: { execution_type: 'PAUSE' },
      schedule_spec: { schedule_type: 'SEMI_HOURLY' },
    });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    pauseId = pause.body.id;
    const names = (cursor: SdkCursor) => cursor.map((rule) => rule._data.name as string);
    expect(names(await new sdk.AdAccount(act()).getAdRulesLibrary(['name']))).toEqual(['Cool down big spenders', 'Pause weak CTR']);
    // Governing: the account-wide ad set rule governs every ad set, the named one only its ad set.
    expect(names(await new sdk.AdSet(adSets[0]!.id).getAdRulesGoverned(['name']))).toEqual(['Cool down big spenders']);
    expect(names(await new sdk.AdSet(adSets[1]!.id).getAdRulesGoverned(['name']))).toEqual(['Cool down big spenders', 'Pause weak CTR']);
    expect(names(await new sdk.AdSet(adSets[0]!.id).getAdRulesGoverned(['name'], { all: true }))).toEqual(['Cool down big spenders', 'Pause weak CTR']);
  });

  it('refuses what the rules refuse, naming the parameter, and writes nothing', async () => {
    const library = `${act()}/adrules_library`;
    const world = worldBuilder(server.deps);
    const other = await world.advertiserWithAccount();
    const [foreignCampaign] = await world.campaigns(other.account, 1);
    const before = await databaseDigest(server.deps.db);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { ...SPENDERS(), evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [entity('ADSET'), preset('TODAY'), filter('bounces', 'GREATER_THAN', 1)] } },
        /filters\[2\]\.field: unknown filter field "bounces"/,
      ],
      [
        { ...SPENDERS(), evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [entity('ADSET'), filter('campaign.id', 'IN', [foreignCampaign!.id])] } },
        /filters\[1\]\.value/,
      ],
      [{ ...SPENDERS(), evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [entity('CAMPAIGN')] } }, /CHANGE_BUDGET/],
      [{ ...SPENDERS(), schedule_spec: undefined }, /schedule_spec/],
      [{ ...SPENDERS(), name: '' }, /name/],
    ];
    for (const [body, message] of cases) expectGraphError(await post(library, body), { status: 400, code: 100, message });
    expectGraphError(await post(library, { ...SPENDERS(), evaluation_spec: '{"not json' }), { status: 400, code: 100, message: /evaluation_spec/ });
    expectGraphError(await post(library, SPENDERS(), auditorToken), { status: 403, code: 200 });
    expectGraphError(await post(library, SPENDERS(), outsiderToken), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(act(), 'post') });
    // Checked, not kept.
    expect((await post(library, { ...SPENDERS(), execution_options: ['validate_only'] })).body).toEqual({ success: true });
    await expectUnchanged(server.deps.db, before, 'refused rules');
    expectGraphError(await graph.get(spendersId, outsiderToken), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(spendersId) });
  });

  it('a dry run says what the rule would do now and changes nothing', async () => {
    const before = await budgets();
    const answer = await post(`${spendersId}/execute`, { dry_run: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      results: [
        {
          object_id: adSets[0]!.id,
          object_type: 'ADSET',
          actions: [{ action: 'CHANGED_BUDGET', field: 'daily_budget', old_value: '10000', new_value: '8000' }],
        },
        // Lowering the third below the minimum is what the ad set rules would refuse: the dry run shows the plan.
        { object_id: adSets[2]!.id, object_type: 'ADSET', actions: [{ action: 'CHANGED_BUDGET', field: 'daily_budget', old_value: '100', new_value: '80' }] },
      ],
    });
    expect(await budgets()).toEqual(before);
  });

  it('runs now on the background runner: acts through the ad set writes, a refused action does not stop the rest, and the history says it all', async () => {
    expect(await new sdk.AdRule(spendersId).createExecute([], {})).toMatchObject({ _data: { success: true } });
    const [entry] = await eventually(async () => {
      const history = await new sdk.AdRule(spendersId).getHistory(['is_manual', 'results', 'exception_code', 'timestamp']);
      return history.length > 0 ? history : undefined;
    });
    expect(entry!._data).toMatchObject({ is_manual: true });
    expect(entry!._data.exception_code).toBeUndefined();
    const results = entry!._data.results as Array<{ object_id: string; actions: Array<Record<string, unknown>> }>;
    expect(results.map((r) => [r.object_id, r.actions[0]!.action])).toEqual([
      [adSets[0]!.id, 'CHANGED_BUDGET'],
      [adSets[2]!.id, 'ERROR'],
    ]);
    expect(results[1]!.actions[0]!.error_message).toMatch(/budget is too low/);
    expect(await budgets()).toEqual(['8000', '20000', '100']);
    // The change history names the rule as the actor, acting for its creator, through the rules' surface.
    const activities = await graph.get(`${adSets[0]!.id}/activities`, token, { fields: 'event_type,actor_name,application_name,extra_data' });
    expect(activities.body.data[0]).toMatchObject({
      event_type: 'update_ad_set_budget',
      actor_name: expect.stringMatching(/^Rule "Cool down big spenders" \(for /),
      application_name: 'Automated rules',
    });
    expect(JSON.parse(activities.body.data[0].extra_data)).toMatchObject({ old_value: { daily_budget: '10000' }, new_value: { daily_budget: '8000' } });
  });

  it('pauses through its filters; updating and deleting a rule; a deleted rule neither runs nor lists', async () => {
    expect((await post(pauseId, { name: 'Pause weak CTR (renamed)' })).body).toEqual({ success: true });
    await post(`${pauseId}/execute`, {});
    await eventually(async () => (await graph.get(adSets[1]!.id, token, { fields: 'status' })).body.status === 'PAUSED');
    const history = await graph.get(`${pauseId}/history`, token, {});
    expect(history.body.data[0].results).toEqual([
      { object_id: adSets[1]!.id, object_type: 'ADSET', actions: [{ action: 'PAUSED', field: 'status', old_value: 'ACTIVE', new_value: 'PAUSED' }] },
    ]);
    // An update is checked whole: a CTR filter with a range the wrong way round is refused.
    expectGraphError(
      await post(pauseId, {
        evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [entity('ADSET'), preset('YESTERDAY'), filter('ctr', 'IN_RANGE', [3, 1])] },
      }),
      { status: 400, code: 100, message: /filters\[2\]\.value/ },
    );
    expect((await graph.call('DELETE', `/v24.0/${pauseId}`, { token })).body).toEqual({ success: true });
    expect((await graph.get(pauseId, token, { fields: 'status,name' })).body).toEqual({ id: pauseId, status: 'DELETED', name: 'Pause weak CTR (renamed)' });
    expect((await graph.get(`${act()}/adrules_library`, token, {})).body.data.map((r: { id: string }) => r.id)).toEqual([spendersId]);
    expectGraphError(await post(`${pauseId}/execute`, {}), { status: 400, code: 100, message: /is deleted/ });
  });
  it('GraphQL: creates (refusals naming the input path), lists, dry-runs and reads the history; an outsider sees nothing', async () => {
    const create = `mutation ($act: ID!, $input: CreateAdRuleInput!) { createAdRule(accountId: $act, input: $input) { id name status entityType scheduleSpec } }`;
    const { evaluation_spec, execution_spec } = SPENDERS();
    const refused = await server.graphql(
      create,
      {
        act: act(),
        input: {
          name: 'Bad',
          evaluationSpec: { ...evaluation_spec, filters: [entity('ADSET'), preset('TODAY'), filter('bounces', 'GREATER_THAN', 1)] },
          executionSpec: execution_spec,
          scheduleSpec: { schedule_type: 'DAILY' },
        },
      },
      token,
    );
    expect(refused.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/unknown filter field "bounces"/),
      extensions: { code: 'BAD_USER_INPUT', field: 'input.evaluationSpec.filters[2].field' },
    });
    const created = await server.graphql(
      create,
      {
        act: act(),
        input: {
          name: 'Hourly spenders',
          status: 'DISABLED',
          evaluationSpec: evaluation_spec,
          executionSpec: execution_spec,
          scheduleSpec: { schedule_type: 'HOURLY' },
        },
      },
      token,
    );
    expect(created.body.errors).toBeUndefined();
    const rule = (created.body.data as { createAdRule: Record<string, unknown> }).createAdRule;
    expect(rule).toMatchObject({ name: 'Hourly spenders', status: 'DISABLED', entityType: 'ADSET', scheduleSpec: { schedule_type: 'HOURLY' } });

    const { body } = await server.graphql(
      `query ($act: ID!, $set: ID!, $rule: ID!, $spenders: ID!) {
        adAccount(id: $act) { adRules { totalCount nodes { name } } }
        adSet(id: $set) { adRulesGoverned { nodes { name } } all: adRulesGoverned(all: true) { totalCount } }
        adRule(id: $rule) { name account { id } }
        spenders: adRule(id: $spenders) { history { totalCount nodes { isManual results { objectId objectType actions { action field oldValue newValue errorMessage } } } } } }`,
      { act: act(), set: adSets[1]!.id, rule: rule.id, spenders: spendersId },
      token,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toMatchObject({
      adAccount: { adRules: { totalCount: 2, nodes: [{ name: 'Cool down big spenders' }, { name: 'Hourly spenders' }] } },
      adSet: { adRulesGoverned: { nodes: [{ name: 'Cool down big spenders' }, { name: 'Hourly spenders' }] }, all: { totalCount: 2 } },
      adRule: { name: 'Hourly spenders', account: { id: account.id } },
    });
    const history = (body.data as { spenders: { history: { totalCount: number; nodes: Array<{ isManual: boolean; results: unknown[] }> } } }).spenders.history;
    expect(history.totalCount).toBe(1);
    expect(history.nodes[0]!.results[0]).toEqual({
      objectId: adSets[0]!.id,
      objectType: 'ADSET',
      actions: [{ action: 'CHANGED_BUDGET', field: 'daily_budget', oldValue: '10000', newValue: '8000', errorMessage: null }],
    });

    const dry = await server.graphql(
      'mutation ($id: ID!) { executeAdRule(id: $id, dryRun: true) { run { id } results { objectId actions { action newValue } } } }',
      { id: rule.id },
      token,
    );
    expect(dry.body.data).toEqual({
      executeAdRule: {
        run: null,
        results: [
          { objectId: adSets[0]!.id, actions: [{ action: 'CHANGED_BUDGET', newValue: '6400' }] },
          { objectId: adSets[2]!.id, actions: [{ action: 'CHANGED_BUDGET', newValue: '80' }] },
        ],
      },
    });
    const outsider = await server.graphql('query ($id: ID!) { adRule(id: $id) { id } node(id: $id) { id } }', { id: rule.id }, outsiderToken);
    expect(outsider.body.data).toEqual({ adRule: null, node: null });
    expect((await server.graphql('mutation ($id: ID!) { deleteAdRule(id: $id) }', { id: rule.id }, token)).body).toEqual({ data: { deleteAdRule: true } });
  });
  it("NOTIFICATION e-mails its creator and the members it names (not another organization's user), and changes nothing", async () => {
    const created = await post(`${act()}/adrules_library`, {
      name: 'Tell me about clicks',
      evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [entity('ADSET'), preset('YESTERDAY'), filter('clicks', 'GREATER_THAN', 100)] },
      execution_spec: { execution_type: 'NOTIFICATION', execution_options: [filter('user_ids', 'EQUAL', [colleague.id, stranger.id])] },
      schedule_spec: { schedule_type: 'DAILY' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const before = await budgets();
    await post(`${created.body.id}/execute`, {});
    const mail = await smtp.waitForMailTo(advertiserEmail);
    expect(mail.subject).toBe('Rule "Tell me about clicks": 1 object matches');
    expect(mail.text).toContain(`ADSET ${adSets[0]!.id}: Set 1`);
    await smtp.waitForMailTo(colleague.email);
    const history = await eventually(async () => (await graph.get(`${created.body.id}/history`, token, {})).body.data[0]);
    expect(history.results).toEqual([
      { object_id: adSets[0]!.id, object_type: 'ADSET', actions: [{ action: 'EMAIL', field: null, old_value: null, new_value: null }] },
    ]);
    expect(smtp.messages.filter((m) => m.to.includes(stranger.email.toLowerCase()))).toEqual([]);
    expect(await budgets()).toEqual(before);
  });
  it('action_frequency: an object the rule acted on within it is left alone on the next run', async () => {
    const created = await post(`${act()}/adrules_library`, {
      name: 'Wake the second set, at most hourly',
      evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [entity('ADSET'), filter('id', 'IN', [adSets[1]!.id])] },
      execution_spec: { execution_type: 'UNPAUSE', execution_options: [filter('action_frequency', 'EQUAL', 60)] },
      schedule_spec: { schedule_type: 'DAILY' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const runs = async () => (await graph.get(`${created.body.id}/history`, token, {})).body.data as Array<{ results: unknown[] }>;
    await post(adSets[1]!.id, { status: 'PAUSED' });
    await post(`${created.body.id}/execute`, {});
    await eventually(async () => (await runs()).length === 1);
    expect((await runs())[0]!.results).toEqual([
      { object_id: adSets[1]!.id, object_type: 'ADSET', actions: [{ action: 'UNPAUSED', field: 'status', old_value: 'PAUSED', new_value: 'ACTIVE' }] },
    ]);
    // Paused again by hand within the hour: the next run leaves it paused.
    await post(adSets[1]!.id, { status: 'PAUSED' });
    await post(`${created.body.id}/execute`, {});
    await eventually(async () => (await runs()).length === 2);
    expect((await runs())[0]!.results).toEqual([]);
    expect((await graph.get(adSets[1]!.id, token, { fields: 'status' })).body.status).toBe('PAUSED');
  });
});
