import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { accountUsage, batchAnswers, expectGraphError, graphClient, type GraphClient } from '../helpers/graph.ts';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';
import type { PageRecord } from '../../src/comments/store.ts';

/**
 * The per-ad-account allowance (DECISIONS section 4) with RATE_LIMIT_ACCOUNT_CALLS=3/300: every call about an
 * account counts against it and carries X-Business-Use-Case-Usage; the fourth is error 80004.
 */
const TOO_MANY = '(#80004) There have been too many calls to this ad-account. Wait a bit and try again.';

describe('the per-account rate limit', () => {
  let server: TestServer;
  let graph: GraphClient;
  let token: string;
  let outsider: string;
  let accountA: AdAccountRecord;
  let accountB: AdAccountRecord;
  let accountC: AdAccountRecord;
  let campaignA: CampaignRecord;
  let campaignC: CampaignRecord;
  let page: PageRecord;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_ACCOUNT_CALLS: '3/300' });
    graph = graphClient(server);
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    const otherOrg = await world.organization();
    token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
    outsider = (await world.user({ organizationId: otherOrg.id, role: 'owner' })).token;
    accountA = await world.adAccount(org.id);
    accountB = await world.adAccount(org.id);
    accountC = await world.adAccount(org.id);
    campaignA = (await world.campaigns(accountA, 2))[0]!;
    campaignC = (await world.campaigns(accountC, 1))[0]!;
    page = await world.page(org.id);
    await world.post(page);
  });
  afterAll(() => server?.close());

  it('counts every call about an account, says so in X-Business-Use-Case-Usage, and refuses the fourth with 80004', async () => {
    const calls = [
      () => graph.get(`act_${accountA.id}`, token, { fields: 'name' }),
      () => graph.get(campaignA.id, token, { fields: 'name' }),
      () => graph.get(`act_${accountA.id}/campaigns`, token),
    ];
    const counts: number[] = [];
    const regain: number[] = [];
    for (const call of calls) {
      const response = await call();
      expect(response.status, response.text).toBe(200);
      const usage = accountUsage(response.headers.get('x-business-use-case-usage'), accountA.id);
      expect(usage).toEqual({
        type: 'ads_management',
        call_count: expect.any(Number),
        total_cputime: expect.any(Number),
        total_time: expect.any(Number),
        estimated_time_to_regain_access: expect.any(Number),
      });
      counts.push(usage.call_count);
      regain.push(usage.estimated_time_to_regain_access);
    }
    expect(counts).toEqual([33, 67, 100]);
    // Once the allowance is used up (the third call) access is already lost for the next one.
    expect(regain.slice(0, 2)).toEqual([0, 0]);

    for (const call of [() => graph.get(`act_${accountA.id}`, token), () => graph.get(campaignA.id, token, { fields: 'name' })]) {
      const blocked = await call();
      expectGraphError(blocked, { status: 400, code: 80004, subcode: 2446079, isTransient: true, type: 'OAuthException', message: TOO_MANY });
      const usage = accountUsage(blocked.headers.get('x-business-use-case-usage'), accountA.id);
      expect(usage.call_count).toBe(100);
      expect(usage.estimated_time_to_regain_access).toBeGreaterThanOrEqual(1);
      expect(usage.estimated_time_to_regain_access).toBeLessThanOrEqual(5);
    }
  });

  it('leaves another account alone', async () => {
    const response = await graph.get(`act_${accountB.id}`, token);
    expect(response.status, response.text).toBe(200);
    expect(accountUsage(response.headers.get('x-business-use-case-usage'), accountB.id)).toMatchObject({
      call_count: 33,
      estimated_time_to_regain_access: 0,
    });
  });

  it('puts no usage header on reads that are about no account', async () => {
    for (const path of [page.id, `${page.id}/feed`]) {
      const response = await graph.get(path, token);
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('x-business-use-case-usage')).toBeNull();
    }
  });

  it('counts nothing, and says nothing, for callers who may not see the account', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await graph.get(`act_${accountC.id}`, outsider);
      expectGraphError(response, { status: 400, code: 100, subcode: 33 });
      expect(response.headers.get('x-business-use-case-usage')).toBeNull();
    }
    const response = await graph.get(campaignC.id, token);
    expect(response.status, response.text).toBe(200);
    expect(accountUsage(response.headers.get('x-business-use-case-usage'), accountC.id).call_count).toBe(33);
  });

  it('counts batch items one by one, each answer with its own usage header', async () => {
    const answers = batchAnswers(
      await graph.batch({
        access_token: token,
        batch: [{ relative_url: campaignC.id }, { relative_url: `act_${accountC.id}` }, { relative_url: `act_${accountC.id}/campaigns` }],
      }),
    );
    expect(answers.map((a) => a.code)).toEqual([200, 200, 400]);
    expect(answers.map((a) => accountUsage(a.header('X-Business-Use-Case-Usage'), accountC.id).call_count)).toEqual([67, 100, 100]);
    expectGraphError({ status: answers[2]!.code, body: answers[2]!.parsed }, { status: 400, code: 80004, subcode: 2446079, isTransient: true });
  });

  it("writes a counted call's header from its own counting, and reads the allowances only for a refused one", async () => {
    const world = worldBuilder(server.deps);
    const account = await world.adAccount((await world.organization()).id);
    const reads: string[] = [];
    const usage = server.deps.rateLimits.usage.bind(server.deps.rateLimits);
    server.deps.rateLimits.usage = (rule, key) => {
      reads.push(rule);
      return usage(rule, key);
    };
    try {
      const counts: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await graph.get(`act_${account.id}`, (await world.user({ organizationId: account.organizationId, role: 'owner' })).token);
        counts.push(accountUsage(response.headers.get('x-business-use-case-usage'), account.id).call_count);
        expect(reads, `call ${i + 1}`).toEqual(i < 3 ? [] : ['graphCallsByAccount', 'graphTimeByAccount', 'graphCpuByAccount']);
      }
      // The same figures either way: the refused fourth reads what the third's counting left.
      expect(counts).toEqual([33, 67, 100, 100]);
    } finally {
      server.deps.rateLimits.usage = usage;
    }
  });
});
