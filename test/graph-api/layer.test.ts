import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { batchAnswers, expectGraphError, graphClient, ISO_TIME, UNKNOWN_OBJECT, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { createClient } from '../../src/oauth/service.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';
import type { PageRecord, PostRecord } from '../../src/comments/store.ts';

/**
 * The /v24.0 layer (DECISIONS section 4), on a real server: versions, tokens, parameter encodings, the
 * fields parser, dates and money, edge paging both ways, batch requests, the error envelope and visibility.
 * Everything here is a read (or a refused call): writes have their own tests.
 */
const DEPRECATED = '(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: v24.0.';
const START = new Date('2026-01-05T10:00:00Z');

describe('the /v24.0 layer', () => {
  let server: TestServer;
  let graph: GraphClient;
  let token: string; // an advertiser of org A (session token)
  let outsider: string; // a user of org B only
  let accessToken: string; // an OAuth access token of an org A client (ads_read)
  let account: AdAccountRecord;
  let emptyAccount: AdAccountRecord;
  let pagingAccount: AdAccountRecord;
  let campaign: CampaignRecord;
  let pagingCampaigns: CampaignRecord[];
  let adSet: AdSetRecord;
  let page: PageRecord;
  let post: PostRecord;
  let other: { account: AdAccountRecord; campaign: CampaignRecord; adSet: AdSetRecord; page: PageRecord; post: PostRecord };

  beforeAll(async () => {
    server = await startTestServer();
    graph = graphClient(server);
    const world = worldBuilder(server.deps);
    const orgA = await world.organization();
    const orgB = await world.organization();
    token = (await world.user({ organizationId: orgA.id, role: 'advertiser' })).token;
    outsider = (await world.user({ organizationId: orgB.id, role: 'owner' })).token;
    account = await world.adAccount(orgA.id, { spendCap: '500000' });
    emptyAccount = await world.adAccount(orgA.id);
    pagingAccount = await world.adAccount(orgA.id);
    campaign = (await world.campaigns(account, 1, { name: 'Spring', status: 'PAUSED', dailyBudget: '2500', startTime: START }))[0]!;
    pagingCampaigns = await world.campaigns(pagingAccount, 7);
    adSet = (await world.adSets(campaign, 1))[0]!;
    await world.ads(adSet, 5);
    page = await world.page(orgA.id);
    post = await world.post(page);
    const otherAccount = await world.adAccount(orgB.id);
    const [otherCampaign] = await world.campaigns(otherAccount, 1);
    const [otherAdSet] = await world.adSets(otherCampaign!, 1);
    const otherPage = await world.page(orgB.id);
    other = { account: otherAccount, campaign: otherCampaign!, adSet: otherAdSet!, page: otherPage, post: await world.post(otherPage) };
    const client = await createClient(server.deps, { name: 'reporting', scope: 'ads_read pages_read_engagement', organization: orgA.id });
    accessToken = await fetchAccessToken(server.url, client.client.clientId, client.clientSecret);
  });
  afterAll(() => server?.close());

  const act = (record: AdAccountRecord) => `act_${record.id}`;

  describe('versions', () => {
    it('serves v24.0 and v23.0 alike', async () => {
      for (const version of ['v24.0', 'v23.0']) {
        const response = await graph.call('GET', `/${version}/${act(account)}`, { token, query: { fields: 'name' } });
        expect(response.status, response.text).toBe(200);
        expect(response.body).toEqual({ id: act(account), name: account.name });
      }
    });

    it('answers an older version with 2635, HTTP 400', async () => {
      for (const version of ['v22.0', 'v2.0', 'v18.0']) {
        const response = await graph.call('GET', `/${version}/${act(account)}`, { token });
        expectGraphError(response, { status: 400, code: 2635, type: 'OAuthException', message: DEPRECATED });
      }
    });

    it('answers an older version with 2635 before it looks at the token', async () => {
      const response = await graph.call('GET', `/v22.0/${act(account)}`);
      expectGraphError(response, { status: 400, code: 2635, message: DEPRECATED });
    });

    it('answers an unknown version segment with the unknown-object error', async () => {
      for (const version of ['v99.0', 'v25.0', 'v24', 'vfoo']) {
        const response = await graph.call('GET', `/${version}/${act(account)}`, { token });
        expectGraphError(response, {
          status: 400,
          code: 100,
          subcode: 33,
          type: 'GraphMethodException',
          message: /^Unsupported get request\. Object with ID '[^']*' does not exist/,
        });
      }
    });
  });

  describe('tokens', () => {
    const probe = (response: GraphHttpResponse) => {
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ id: act(account) });
    };

    it('takes access_token from the query string (session token and OAuth access token)', async () => {
      probe(await graph.get(act(account), token));
      probe(await graph.get(act(account), accessToken));
    });

    it('takes Authorization: Bearer and Authorization: OAuth', async () => {
      for (const scheme of ['Bearer', 'OAuth', 'bearer']) {
        probe(await graph.call('GET', `/v24.0/${act(account)}`, { headers: { authorization: `${scheme} ${token}` } }));
        probe(await graph.call('GET', `/v24.0/${act(account)}`, { headers: { authorization: `${scheme} ${accessToken}` } }));
      }
    });

    it('takes access_token from a form body and from a JSON body (batch)', async () => {
      const batch = [{ method: 'GET', relative_url: act(account) }];
      for (const credential of [token, accessToken]) {
        const form = batchAnswers(await graph.call('POST', '/v24.0/', { form: { access_token: credential, batch } }));
        expect(form.map((a) => [a.code, a.parsed])).toEqual([[200, { id: act(account) }]]);
        const json = batchAnswers(await graph.call('POST', '/v24.0/', { json: { access_token: credential, batch: JSON.stringify(batch) } }));
        expect(json.map((a) => [a.code, a.parsed])).toEqual([[200, { id: act(account) }]]);
      }
    });

    it('checks a token in a form body before anything else about a POST', async () => {
      const response = await graph.call('POST', `/v24.0/${act(account)}`, { form: { access_token: 'nonsense', name: 'x' } });
      expectGraphError(response, { status: 400, code: 190, type: 'OAuthException' });
    });

    it('prefers access_token in the parameters over the Authorization header', async () => {
      probe(await graph.call('GET', `/v24.0/${act(account)}`, { token, headers: { authorization: 'Bearer nonsense' } }));
    });

    it('answers a missing token with 190 OAuthException, HTTP 400', async () => {
      for (const response of [
        await graph.get(act(account), undefined),
        await graph.get(act(account), ''),
        await graph.call('GET', `/v24.0/${act(account)}`, { headers: { authorization: 'Basic Zm9vOmJhcg==' } }),
      ]) {
        expectGraphError(response, { status: 400, code: 190, type: 'OAuthException' });
      }
    });

    it('answers a bad token with 190 OAuthException, HTTP 400', async () => {
      const forged = `${accessToken.slice(0, -4)}AAAA`;
      for (const bad of ['nonsense', forged, 'a.b.c', 'x'.repeat(9000)]) {
        expectGraphError(await graph.get(act(account), bad), { status: 400, code: 190, type: 'OAuthException' });
        expectGraphError(await graph.call('GET', `/v24.0/${act(account)}`, { headers: { authorization: `Bearer ${bad}` } }), {
          status: 400,
          code: 190,
          type: 'OAuthException',
        });
      }
    });

    it('says the same about a bad token whatever the object', async () => {
      const a = await graph.get(act(account), 'nonsense');
      const b = await graph.get('123456789', 'nonsense');
      expect(a.body.error.message).toBe(b.body.error.message);
      expect(a.body.error.message).not.toMatch(/(#190)/);
    });
  });

  describe('parameter encodings', () => {
    it('refuses a repeated parameter with error 100 naming it', async () => {
      const response = await graph.call('GET', `/v24.0/${act(pagingAccount)}/campaigns?limit=1&limit=2`, { token });
      expectGraphError(response, { status: 400, code: 100, message: /limit/ });
    });

    it('refuses a repeated form field with error 100 naming it', async () => {
      const response = await graph.call('POST', '/v24.0/', {
        raw: `access_token=${token}&batch=${encodeURIComponent(JSON.stringify([{ relative_url: act(account) }]))}&batch=x`,
        contentType: 'application/x-www-form-urlencoded',
      });
      expectGraphError(response, { status: 400, code: 100, message: /batch/ });
    });

    it('refuses broken JSON in a form field with error 100 naming the field', async () => {
      const response = await graph.call('POST', `/v24.0/${act(account)}/campaigns`, {
        form: { access_token: token, name: 'x', objective: 'OUTCOME_SALES', special_ad_categories: '[NONE' },
      });
      expectGraphError(response, { status: 400, code: 100, message: '(#100) Param special_ad_categories must be JSON-encoded: [NONE' });
      const batch = await graph.batch({ access_token: token, batch: '[{"relative_url": ' });
      expectGraphError(batch, { status: 400, code: 100, message: /batch/ });
    });

    it('refuses a body that is not valid JSON with error 100, not a 500', async () => {
      const response = await graph.call('POST', '/v24.0/', { raw: '{"batch": [', contentType: 'application/json', token });
      expectGraphError(response, { status: 400, code: 100 });
    });

    it('takes a batch as a real JSON list in a JSON body', async () => {
      // A JSON body carries lists and objects as themselves: they are not "repeated parameters".
      const response = await graph.call('POST', '/v24.0/', { json: { access_token: token, batch: [{ method: 'GET', relative_url: act(account) }] } });
      expect(batchAnswers(response).map((a) => a.code)).toEqual([200]);
    });

    it('decodes JSON-encoded objects and lists in the form fields of batch items', async () => {
      // fields and limit inside a batch item body of a GET are read like query parameters.
      const answers = batchAnswers(
        await graph.batch({
          access_token: token,
          batch: [{ method: 'GET', relative_url: `${act(pagingAccount)}/campaigns?fields=name&limit=2` }],
        }),
      );
      expect(answers[0]!.code).toBe(200);
      expect(answers[0]!.parsed.data).toHaveLength(2);
    });
  });

  describe('fields', () => {
    it('returns the id alone without fields', async () => {
      expect((await graph.get(campaign.id, token)).body).toEqual({ id: campaign.id });
      expect((await graph.get(act(account), token)).body).toEqual({ id: act(account) });
      expect((await graph.get(post.id, token)).body).toEqual({ id: post.id });
    });

    it('returns the fields asked for, nested selections included', async () => {
      const response = await graph.get(adSet.id, token, { fields: 'name,campaign{name,status},account{account_id,currency}' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        id: adSet.id,
        name: 'Ad set 1',
        campaign: { id: campaign.id, name: 'Spring', status: 'PAUSED' },
        account: { id: act(account), account_id: account.id, currency: 'USD' },
      });
    });

    it('pages nested edges by their modifiers', async () => {
      const response = await graph.get(campaign.id, token, { fields: 'name,ads.limit(3){name,status}' });
      expect(response.status, response.text).toBe(200);
      expect(response.body.name).toBe('Spring');
      expect(response.body.ads.data).toHaveLength(3);
      for (const ad of response.body.ads.data) expect(Object.keys(ad).sort()).toEqual(['id', 'name', 'status']);
      expect(response.body.ads.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });

      const rest = await graph.get(campaign.id, token, { fields: `ads.limit(3).after(${response.body.ads.paging.cursors.after}){name}` });
      expect(rest.status, rest.text).toBe(200);
      expect(rest.body.ads.data.map((a: { name: string }) => a.name)).toEqual(['Ad 4', 'Ad 5']);
    });

    it('tolerates spaces between fields', async () => {
      const response = await graph.get(adSet.id, token, { fields: ' name , campaign { name } ' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ id: adSet.id, name: 'Ad set 1', campaign: { id: campaign.id, name: 'Spring' } });
    });

    it('answers an unknown field with error 100 naming the field and the node type', async () => {
      expectGraphError(await graph.get(campaign.id, token, { fields: 'name,x' }), {
        status: 400,
        code: 100,
        type: 'OAuthException',
        message: '(#100) Tried accessing nonexisting field (x) on node type (Campaign)',
      });
      expectGraphError(await graph.get(adSet.id, token, { fields: 'campaign{nope}' }), {
        status: 400,
        code: 100,
        message: '(#100) Tried accessing nonexisting field (nope) on node type (Campaign)',
      });
      expectGraphError(await graph.get(act(account), token, { fields: 'organization_id' }), {
        status: 400,
        code: 100,
        message: '(#100) Tried accessing nonexisting field (organization_id) on node type (AdAccount)',
      });
      expectGraphError(await graph.get(`${act(pagingAccount)}/campaigns`, token, { fields: 'bogus' }), {
        status: 400,
        code: 100,
        message: '(#100) Tried accessing nonexisting field (bogus) on node type (Campaign)',
      });
    });

    it('answers a fields text asked for again as the first time, and refuses a bad one every time', async () => {
      // parsedFields keeps a text's selections, and the edge filters and checks worked out from them.
      const fields = 'name,ads.limit(3).effective_status(["ACTIVE","PAUSED","CAMPAIGN_PAUSED","ADSET_PAUSED"]){name,status}';
      const first = await graph.get(campaign.id, token, { fields });
      expect(first.status, first.text).toBe(200);
      expect(first.body.ads.data.length).toBeGreaterThan(0);
      expect((await graph.get(campaign.id, token, { fields })).body).toEqual(first.body);
      for (let call = 0; call < 2; call++) {
        expectGraphError(await graph.get(campaign.id, token, { fields: 'name,ads.limit(3){name,nope}' }), {
          status: 400,
          code: 100,
          message: '(#100) Tried accessing nonexisting field (nope) on node type (Ad)',
        });
        const badStatus = await graph.get(campaign.id, token, { fields: 'ads.effective_status(["NOPE"]){name}' });
        expect(badStatus.status, badStatus.text).toBe(400);
        expect(badStatus.body.error.message).toContain('effective_status');
      }
    });

    it('answers an unknown field on an edge even when the edge is empty', async () => {
      expectGraphError(await graph.get(`${act(emptyAccount)}/campaigns`, token, { fields: 'bogus' }), {
        status: 400,
        code: 100,
        message: '(#100) Tried accessing nonexisting field (bogus) on node type (Campaign)',
      });
    });

    it('answers a fields list that does not parse with error 2500 (error parsing the query), a bad limit modifier with error 100', async () => {
      const syntax = (at: number, what: string, fields: string) => `(#2500) Syntax error "${what}" at character ${at}: ${fields}`;
      const cases: Array<[string, number, string]> = [
        ['name{', 2500, syntax(5, 'Expected name.', 'name{')],
        ['name}', 2500, syntax(4, 'Unexpected }', 'name}')],
        ['name,,status', 2500, syntax(5, 'Expected name.', 'name,,status')],
        ['ads.limit(3', 2500, syntax(9, 'Expected ).', 'ads.limit(3')],
        ['ads.limit{name}', 2500, syntax(9, 'Expected (.', 'ads.limit{name}')],
        ['campaign{name', 2500, syntax(13, 'Expected }.', 'campaign{name')],
        ['{name}', 2500, syntax(0, 'Expected name.', '{name}')],
        ['name status', 2500, syntax(5, 'Unexpected s', 'name status')],
        ['a{b{c{d{e{f{g{h}}}}}}}', 2500, '(#2500) Syntax error: fields are nested too deeply.'],
        ['ads.limit(x){name}', 100, '(#100) Param limit must be an integer between 0 and 100'],
        ['ads.limit(500){name}', 100, '(#100) Param limit must be an integer between 0 and 100'],
      ];
      for (const [fields, code, message] of cases) {
        expectGraphError(await graph.get(adSet.id, token, { fields }), { status: 400, code, type: 'OAuthException', message });
      }
    });
  });

  describe('dates and money', () => {
    it('writes date-times as ISO 8601 with +0000', async () => {
      const response = await graph.get(campaign.id, token, { fields: 'start_time,created_time,updated_time' });
      expect(response.status, response.text).toBe(200);
      expect(response.body.start_time).toBe('2026-01-05T10:00:00+0000');
      expect(response.body.created_time).toMatch(ISO_TIME);
      expect(response.body.updated_time).toMatch(ISO_TIME);
      expect(Math.abs(Date.parse(response.body.created_time.replace('+0000', 'Z')) - Date.now())).toBeLessThan(10 * 60_000);
    });

    it('writes date-times as integer Unix seconds with date_format=U, nested ones too', async () => {
      const response = await graph.get(adSet.id, token, { fields: 'created_time,campaign{start_time}', date_format: 'U' });
      expect(response.status, response.text).toBe(200);
      expect(response.body.campaign.start_time).toBe(START.getTime() / 1000);
      expect(Number.isInteger(response.body.created_time)).toBe(true);
      expect(Math.abs(response.body.created_time * 1000 - Date.now())).toBeLessThan(10 * 60_000);
    });

    it('writes money as numeric strings in minor units', async () => {
      const c = await graph.get(campaign.id, token, { fields: 'daily_budget,lifetime_budget' });
      expect(c.body).toEqual({ id: campaign.id, daily_budget: '2500' });
      const a = await graph.get(act(account), token, { fields: 'spend_cap,amount_spent,currency' });
      // amount_spent comes from the statistics (test/insights/delivery.test.ts): none here.
      expect(a.body).toEqual({ id: act(account), spend_cap: '500000', amount_spent: '0', currency: 'USD' });
    });
  });

  describe('edge paging', () => {
    const ids = (response: GraphHttpResponse) => (response.body.data as Array<{ id: string }>).map((item) => item.id);

    it('answers a page with data, cursors and a next link, and no previous link on the first page', async () => {
      const response = await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 3, fields: 'name' });
      expect(response.status, response.text).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'paging']);
      expect(ids(response)).toEqual(pagingCampaigns.slice(0, 3).map((c) => c.id));
      expect(response.body.data[0]).toEqual({ id: pagingCampaigns[0]!.id, name: 'Campaign 1' });
      expect(response.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
      expect(response.body.paging.next).toMatch(new RegExp(`^${server.url}/v24\\.0/act_${pagingAccount.id}/campaigns\\?`));
      expect(response.body.paging.previous).toBeUndefined();
    });

    it('defaults to 25 items and takes up to 100', async () => {
      const all = await graph.get(`${act(pagingAccount)}/campaigns`, token);
      expect(ids(all)).toEqual(pagingCampaigns.map((c) => c.id));
      expect(all.body.paging.next).toBeUndefined();
      expect((await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 100 })).status).toBe(200);
    });

    it('follows next through every page and previous back, each item exactly once', async () => {
      const forward: string[] = [];
      let response = await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 2, fields: 'name' });
      let pages = 1;
      for (;;) {
        expect(response.status, response.text).toBe(200);
        forward.push(...ids(response));
        if (!response.body.paging.next) break;
        expect(response.body.paging.next).toContain('fields=name');
        response = await graph.follow(response.body.paging.next);
        pages++;
      }
      expect(pages).toBe(4);
      expect(forward).toEqual(pagingCampaigns.map((c) => c.id));

      const backward: string[] = [];
      for (;;) {
        backward.unshift(...ids(response));
        if (!response.body.paging.previous) break;
        response = await graph.follow(response.body.paging.previous);
        expect(response.status, response.text).toBe(200);
      }
      expect(backward).toEqual(pagingCampaigns.map((c) => c.id));
    });

    it('pages by after and before cursors', async () => {
      const first = await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 3 });
      const second = await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 3, after: first.body.paging.cursors.after });
      expect(ids(second)).toEqual(pagingCampaigns.slice(3, 6).map((c) => c.id));
      expect(second.body.paging.previous).toEqual(expect.any(String));
      expect(second.body.paging.next).toEqual(expect.any(String));
      const back = await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 3, before: second.body.paging.cursors.before });
      expect(ids(back)).toEqual(ids(first));
      const end = await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 3, before: first.body.paging.cursors.before });
      expect(end.status).toBe(200);
      expect(end.body.data).toEqual([]);
    });

    it('answers summary=total_count with the count of the whole edge', async () => {
      const response = await graph.get(`${act(pagingAccount)}/campaigns`, token, { limit: 2, summary: 'total_count' });
      expect(response.body.summary).toEqual({ total_count: 7 });
      expect(response.body.data).toHaveLength(2);
      expect(response.body.paging.next).toContain('summary=total_count');
      const empty = await graph.get(`${act(emptyAccount)}/campaigns`, token, { summary: 'total_count' });
      expect(empty.body).toEqual({ data: [], summary: { total_count: 0 } });
    });

    it('answers an empty edge with an empty list and no paging', async () => {
      const response = await graph.get(`${act(emptyAccount)}/campaigns`, token);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: [] });
    });

    it('refuses a limit over 100, a limit that is not a number, and a cursor it did not write', async () => {
      for (const query of [
        { limit: 101 },
        { limit: 1000 },
        { limit: -1 },
        { limit: 'ten' },
        { after: 'nonsense!' },
        { before: 'Zm9v' },
        { after: 'x', before: 'y' },
      ]) {
        const response = await graph.get(`${act(pagingAccount)}/campaigns`, token, query);
        expectGraphError(response, { status: 400, code: 100 });
      }
    });

    it('answers an unknown edge with the unsupported-request error naming the path', async () => {
      expectGraphError(await graph.get(`${act(account)}/nothing`, token), {
        status: 400,
        code: 100,
        subcode: 33,
        type: 'GraphMethodException',
        message: UNKNOWN_OBJECT(`${act(account)}/nothing`),
      });
    });
  });

  describe('batch', () => {
    it('answers mixed successes and errors, each as {code, headers, body} with body a JSON string', async () => {
      const answers = batchAnswers(
        await graph.batch({
          access_token: token,
          batch: [
            { method: 'GET', relative_url: `${campaign.id}?fields=name,status` },
            { method: 'GET', relative_url: `v24.0/${act(pagingAccount)}/campaigns?limit=2` },
            { method: 'GET', relative_url: `/v23.0/${campaign.id}?fields=name` },
            { method: 'GET', relative_url: '999999999?fields=name' },
            { method: 'GET', relative_url: `${campaign.id}?fields=nope` },
            { method: 'GET', relative_url: `v22.0/${campaign.id}` },
            { relative_url: other.campaign.id },
          ],
        }),
      );
      expect(answers.map((a) => a.code)).toEqual([200, 200, 200, 400, 400, 400, 400]);
      expect(answers[0]!.parsed).toEqual({ id: campaign.id, name: 'Spring', status: 'PAUSED' });
      expect(answers[1]!.parsed.data).toHaveLength(2);
      expect(answers[1]!.parsed.paging.next).toEqual(expect.any(String));
      expect(answers[2]!.parsed).toEqual({ id: campaign.id, name: 'Spring' });
      for (const answer of answers) {
        expect(answer.headers).toEqual(expect.arrayContaining([{ name: 'Content-Type', value: expect.stringMatching(/charset=UTF-8/) }]));
        for (const header of answer.headers) expect(header).toEqual({ name: expect.any(String), value: expect.any(String) });
      }
      expectGraphError({ status: answers[3]!.code, body: answers[3]!.parsed }, { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT('999999999') });
      expectGraphError({ status: answers[4]!.code, body: answers[4]!.parsed }, { status: 400, code: 100, message: /nonexisting field \(nope\)/ });
      expectGraphError({ status: answers[5]!.code, body: answers[5]!.parsed }, { status: 400, code: 2635 });
      expectGraphError(
        { status: answers[6]!.code, body: answers[6]!.parsed },
        { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(other.campaign.id) },
      );
    });

    it('answers the paging links of batch items against the server', async () => {
      const [answer] = batchAnswers(await graph.batch({ access_token: token, batch: [{ relative_url: `${act(pagingAccount)}/campaigns?limit=5` }] }));
      const next = await graph.follow(answer!.parsed.paging.next);
      expect(next.status, next.text).toBe(200);
      expect(next.body.data.map((c: { id: string }) => c.id)).toEqual(pagingCampaigns.slice(5).map((c) => c.id));
    });

    it('lets an item carry its own access_token, and lets items inherit the batch token', async () => {
      const answers = batchAnswers(
        await graph.batch({
          access_token: token,
          batch: [
            { relative_url: act(account) },
            { relative_url: `${act(account)}?access_token=nonsense` },
            { relative_url: other.campaign.id },
            { relative_url: `${other.campaign.id}?access_token=${outsider}` },
          ],
        }),
      );
      expect(answers.map((a) => a.code)).toEqual([200, 400, 400, 200]);
      expect(answers[1]!.parsed.error.code).toBe(190);
      expect(answers[3]!.parsed).toEqual({ id: other.campaign.id });
    });

    it('answers every item of a batch without any token with 190', async () => {
      const answers = batchAnswers(await graph.batch({ batch: [{ relative_url: act(account) }, { relative_url: campaign.id }] }));
      for (const answer of answers) expectGraphError({ status: answer.code, body: answer.parsed }, { status: 400, code: 190, type: 'OAuthException' });
    });

    it('takes the batch token from the Authorization header too', async () => {
      const response = await graph.call('POST', '/v24.0/', {
        form: { batch: [{ relative_url: act(account) }] },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(batchAnswers(response).map((a) => [a.code, a.parsed])).toEqual([[200, { id: act(account) }]]);
    });

    it('takes 50 requests and refuses 51 with error 100', async () => {
      const fifty = Array.from({ length: 50 }, () => ({ method: 'GET', relative_url: campaign.id }));
      expect(batchAnswers(await graph.batch({ access_token: token, batch: fifty })).every((a) => a.code === 200)).toBe(true);
      const response = await graph.batch({ access_token: token, batch: [...fifty, { method: 'GET', relative_url: campaign.id }] });
      expectGraphError(response, { status: 400, code: 100, message: /50/ });
    });

    it('refuses a batch that is not a list of requests', async () => {
      for (const batch of ['{}', '[]', '[1]', '[{"method":"GET"}]', '"x"']) {
        expectGraphError(await graph.batch({ access_token: token, batch }), { status: 400, code: 100, message: /batch/ });
      }
    });
  });

  describe('error envelope', () => {
    it('carries one trace id in the body and the x-fb-trace-id header, and leaves out empty fields', async () => {
      const response = await graph.get('999999999', token);
      expectGraphError(response, { status: 400, code: 100, subcode: 33, type: 'GraphMethodException', message: UNKNOWN_OBJECT('999999999') });
      expect(Object.keys(response.body.error).sort()).toEqual(['code', 'error_subcode', 'fbtrace_id', 'is_transient', 'message', 'type']);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('gives every call its own trace id', async () => {
      const a = await graph.get('999999999', token);
      const b = await graph.get('999999999', token);
      expect(a.body.error.fbtrace_id).not.toBe(b.body.error.fbtrace_id);
    });

    it('puts the trace id on successful answers too', async () => {
      const response = await graph.get(campaign.id, token);
      expect(response.headers.get('x-fb-trace-id')).toMatch(/^\S+$/);
    });

    it('answers a path with nothing in it, a method it does not know and a too-deep path with the envelope', async () => {
      const cases: Array<[string, string, string]> = [
        ['GET', '/v24.0/', UNKNOWN_OBJECT('')],
        ['GET', '/v24.0', UNKNOWN_OBJECT('')],
        ['PUT', `/v24.0/${campaign.id}`, UNKNOWN_OBJECT(campaign.id, 'put')],
        ['GET', `/v24.0/${campaign.id}/ads/x`, UNKNOWN_OBJECT(`${campaign.id}/ads/x`)],
        ['GET', '/v24.0/act_abc', UNKNOWN_OBJECT('act_abc')],
      ];
      for (const [method, path, message] of cases) {
        expectGraphError(await graph.call(method, path, { token }), { status: 400, code: 100, subcode: 33, type: 'GraphMethodException', message });
      }
    });

    it('answers a path segment with a broken %-escape with the envelope, not a 500', async () => {
      for (const path of ['/v24.0/%ZZ', '/v24.0/act_1/%E0%A4%A', '/v%ZZ/act_1']) {
        const response = await graph.call('GET', path, { token });
        expect(response.status, `${path}: ${response.text}`).toBe(400);
        expectGraphError(response, { status: 400, code: 100, subcode: 33 });
      }
      const answers = batchAnswers(await graph.batch({ access_token: token, batch: [{ relative_url: '%ZZ' }, { relative_url: `${campaign.id}/%ZZ` }] }));
      for (const answer of answers) expectGraphError({ status: answer.code, body: answer.parsed }, { status: 400, code: 100, subcode: 33 });
    });

    it('refuses a POST to an object that takes no updates with the unsupported-request error', async () => {
      const response = await graph.call('POST', `/v24.0/${post.id}`, { form: { access_token: token, message: 'x' } });
      expectGraphError(response, { status: 400, code: 100, subcode: 33, type: 'GraphMethodException', message: UNKNOWN_OBJECT(post.id, 'post') });
    });
  });

  describe('visibility', () => {
    /** The answer with its trace ids and the asked-for id replaced, to compare byte for byte. */
    const normalize = (response: GraphHttpResponse, id: string) => {
      const trace = response.body?.error?.fbtrace_id as string;
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!['date', 'x-request-id', 'x-fb-trace-id', 'content-length', 'etag'].includes(name)) headers[name] = value;
      });
      return { status: response.status, headers, text: response.text.split(trace).join('<trace>').split(id).join('<id>') };
    };

    it('reads the pages and posts of another organization: pages are public', async () => {
      expect((await graph.get(other.page.id, token, { fields: 'name' })).body).toEqual({ id: other.page.id, name: expect.any(String) });
      expect((await graph.get(other.post.id, token)).body).toEqual({ id: other.post.id });
      expect((await graph.get(`${other.page.id}/feed`, token)).body.data).toEqual(expect.arrayContaining([{ id: other.post.id }]));
    });

    it('answers an ad object of another organization exactly like one that does not exist', async () => {
      const cases: Array<[string, string, Record<string, unknown>]> = [
        [other.campaign.id, other.campaign.id, {}],
        [other.campaign.id, other.campaign.id, { fields: 'name,status' }],
        [other.adSet.id, other.adSet.id, { fields: 'campaign{name}' }],
        [act(other.account), act(other.account), {}],
        [`${act(other.account)}/campaigns`, act(other.account), { summary: 'total_count' }],
        // (Pages and their posts are public to every signed-in person: DECISIONS section 6.)
      ];
      for (const [path, id, query] of cases) {
        const missingId = id.startsWith('act_') ? 'act_999999999' : '999999999';
        const hidden = await graph.get(path, token, query);
        const missing = await graph.get(path.replace(id, missingId), token, query);
        expectGraphError(hidden, { status: 400, code: 100, subcode: 33, type: 'GraphMethodException', message: UNKNOWN_OBJECT(id) });
        expect(normalize(hidden, id), path).toEqual(normalize(missing, missingId));
      }
    });

    it('names the method in the unknown-object error of a POST or DELETE, the same for hidden and missing ids', async () => {
      for (const method of ['POST', 'DELETE']) {
        const hidden = await graph.call(method, `/v24.0/${other.campaign.id}`, { token });
        const missing = await graph.call(method, '/v24.0/999999999', { token });
        expectGraphError(hidden, {
          status: 400,
          code: 100,
          subcode: 33,
          type: 'GraphMethodException',
          message: UNKNOWN_OBJECT(other.campaign.id, method.toLowerCase()),
        });
        expect(normalize(hidden, other.campaign.id)).toEqual(normalize(missing, '999999999'));
      }
    });

    it('answers the same for an OAuth client of another organization', async () => {
      const hidden = await graph.get(other.campaign.id, accessToken);
      const missing = await graph.get('999999999', accessToken);
      expect(normalize(hidden, other.campaign.id)).toEqual(normalize(missing, '999999999'));
    });

    it('shows the owner of the object what the outsider could not see', async () => {
      const response = await graph.get(other.campaign.id, outsider, { fields: 'name' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ id: other.campaign.id, name: 'Campaign 1' });
    });

    it('answers ids of no object shape like unknown ids', async () => {
      for (const id of ['abc', '0', '-1', '1e5', 'act_', 'act_x', 'act_01']) {
        const response = await graph.get(id, token);
        expectGraphError(response, { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(id) });
      }
    });
  });
});
