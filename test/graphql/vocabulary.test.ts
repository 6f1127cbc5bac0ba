import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLInputObjectType, GraphQLInputType, GraphQLObjectType } from 'graphql';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { buildSchema } from '../../src/graphql/schema.ts';

/**
 * One vocabulary on GraphQL (issue 20): an error's message names what the caller sent by its GraphQL path
 * (`input.endTime`), never by the /v24.0 parameter it stands for (`end_time`), and allowed values by their GraphQL
 * enum names; the Graph API's code, where it has one, stays under `extensions.graphApi`. The same refusals on /v24.0 keep their
 * words (test/ads, test/comments). Here: bad inputs across mutations and queries, each message checked against
 * every argument and input field name of the schema written in snake_case.
 */

const schema = buildSchema();
const tag = (type: unknown) => (type as { [Symbol.toStringTag]?: string })[Symbol.toStringTag];
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every argument and input field of the schema whose /v24.0 spelling differs from its GraphQL one (end_time, adset_id, ...). */
function snakeCaseParameters(): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visitInput = (type: GraphQLInputType) => {
    const unwrapped = tag(type) === 'GraphQLNonNull' || tag(type) === 'GraphQLList' ? (type as { ofType: GraphQLInputType }).ofType : type;
    if (unwrapped !== type) return visitInput(unwrapped);
    if (tag(type) !== 'GraphQLInputObjectType' || seen.has((type as GraphQLInputObjectType).name)) return;
    seen.add((type as GraphQLInputObjectType).name);
    for (const field of Object.values((type as GraphQLInputObjectType).getFields())) {
      names.add(snake(field.name));
      visitInput(field.type);
    }
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (tag(type) !== 'GraphQLObjectType' || type.name.startsWith('__')) continue;
    for (const field of Object.values((type as GraphQLObjectType).getFields())) {
      for (const arg of field.args) {
        names.add(snake(arg.name));
        visitInput(arg.type);
      }
    }
  }
  // adset_id is how /v24.0 spells adSetId (snake would give ad_set_id).
  for (const name of [...names]) if (name.includes('ad_set')) names.add(name.replace('ad_set', 'adset'));
  return new Set([...names].filter((name) => name.includes('_')));
}

const PARAMETERS = snakeCaseParameters();

/** The /v24.0 words a GraphQL message must not use: "Param x", "The parameter x", or a parameter's snake_case name. */
function graphWords(message: string): string[] {
  const found = [...message.matchAll(/\b(?:Param|The parameter) \S+/g)].map((m) => m[0]);
  for (const word of message.match(/[a-z][a-z0-9_]*/g) ?? []) if (PARAMETERS.has(word)) found.push(word);
  return found;
}

describe('GraphQL error messages speak GraphQL', () => {
  let server: TestServer;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    const world = worldBuilder(server.deps);
    const { org, token: adminToken, account, campaign } = await world.adminWithCampaign();
    token = adminToken;
    const [adSet] = await world.adSets(campaign, 1, () => ({ dailyBudget: '5000' }));
    const other = await world.adAccount(org.id);
    const [otherCampaign] = await world.campaigns(other, 1);
    const [otherAdSet] = await world.adSets(otherCampaign!, 1, () => ({ dailyBudget: '5000' }));
    const page = await world.page(org.id);
    const post = await world.post(page);
    Object.assign(ids, {
      account: account.id,
      campaign: campaign.id,
      adSet: adSet!.id,
      otherCampaign: otherCampaign!.id,
      otherAdSet: otherAdSet!.id,
      page: page.id,
      post: post.id,
    });
  });
  afterAll(() => server?.close());

  const UPDATE_AD_SET = 'mutation ($id: ID!, $input: UpdateAdSetInput!) { updateAdSet(id: $id, input: $input) { id } }';
  const INSIGHTS = 'query ($id: ID!, $input: InsightsInput!) { adAccount(id: $id) { insights(input: $input) { nodes { spend } } } }';
  const PAST = '2001-01-01T00:00:00Z';

  // [what, query, variables (ids by name), the field the error names, the message as GraphQL words it]
  const cases: Array<[string, string, (ids: Record<string, string>) => Record<string, unknown>, string, RegExp]> = [
    [
      'an ad set ending before it starts',
      UPDATE_AD_SET,
      (i) => ({ id: i.adSet, input: { startTime: '2031-01-02T00:00:00Z', endTime: '2031-01-01T00:00:00Z' } }),
      'input.endTime',
      /^input\.endTime must be after input\.startTime$/,
    ],
    [
      'a bid cap strategy without a bid',
      UPDATE_AD_SET,
      (i) => ({ id: i.adSet, input: { bidStrategy: 'LOWEST_COST_WITH_BID_CAP' } }),
      'input.bidAmount',
      /^input\.bidAmount is required/,
    ],
    [
      'two budgets',
      UPDATE_AD_SET,
      (i) => ({ id: i.adSet, input: { lifetimeBudget: 100000, endTime: '2031-03-01T00:00:00Z' } }),
      'input.lifetimeBudget',
      /input\.dailyBudget and input\.lifetimeBudget/,
    ],
    [
      'spend percentages the wrong way round',
      UPDATE_AD_SET,
      (i) => ({ id: i.adSet, input: { minBudgetSpendPercentage: 80, maxBudgetSpendPercentage: 20 } }),
      'input.minBudgetSpendPercentage',
      /input\.minBudgetSpendPercentage must not exceed input\.maxBudgetSpendPercentage/,
    ],
    [
      'a campaign whose special categories combine NONE with another',
      'mutation ($a: ID!, $input: CreateCampaignInput!) { createCampaign(accountId: $a, input: $input) { id } }',
      (i) => ({ a: i.account, input: { name: 'C', objective: 'OUTCOME_TRAFFIC', specialAdCategories: ['NONE', 'HOUSING'], dailyBudget: 5000 } }),
      'input.specialAdCategories',
      /^input\.specialAdCategories cannot combine NONE with other categories$/,
    ],
    [
      'a campaign stopping before it starts',
      'mutation ($a: ID!, $input: CreateCampaignInput!) { createCampaign(accountId: $a, input: $input) { id } }',
      (i) => ({
        a: i.account,
        input: { name: 'C', objective: 'OUTCOME_TRAFFIC', specialAdCategories: [], startTime: '2031-01-02T00:00:00Z', stopTime: '2031-01-01T00:00:00Z' },
      }),
      'input.stopTime',
      /^input\.stopTime must be after input\.startTime$/,
    ],
    [
      "an ad in another account's ad set",
      'mutation ($a: ID!, $input: CreateAdInput!) { createAd(accountId: $a, input: $input) { id } }',
      (i) => ({ a: i.account, input: { name: 'Ad', adSetId: i.otherAdSet, creative: { creative_id: '1' } } }),
      'input.adSetId',
      /^input\.adSetId must be the id of an ad set of ad account act_\d+$/,
    ],
    [
      "a copy into another account's campaign",
      'mutation ($id: ID!, $input: CopyAdSetInput) { copyAdSet(id: $id, input: $input) { copiedAdSet { id } } }',
      (i) => ({ id: i.adSet, input: { campaignId: i.otherCampaign } }),
      'input.campaignId',
      /^input\.campaignId must be the id of a campaign of ad account act_\d+, the ad set's account$/,
    ],
    [
      'a copy ending before it starts',
      'mutation ($id: ID!, $input: CopyAdSetInput) { copyAdSet(id: $id, input: $input) { copiedAdSet { id } } }',
      (i) => ({ id: i.adSet, input: { startTime: '2031-01-02T00:00:00Z', endTime: '2031-01-01T00:00:00Z' } }),
      'input.endTime',
      /^input\.endTime must be after input\.startTime$/,
    ],
    [
      'a comment sharing a URL beside an attachment',
      'mutation ($o: ID!, $input: CommentContentInput!) { publishComment(objectId: $o, input: $input) { id } }',
      (i) => ({ o: i.post, input: { attachmentShareUrl: 'https://x.example/a', attachmentUrl: 'https://x.example/b.png' } }),
      'input.attachmentShareUrl',
      /^input\.attachmentShareUrl must be sent alone, without input\.attachmentUrl, input\.attachmentId or source$/,
    ],
    [
      'an event without a start time',
      'mutation ($p: ID!, $input: CreatePagePostInput!) { createPagePost(pageId: $p, input: $input) { id } }',
      (i) => ({ p: i.page, input: { kind: 'EVENT', title: 'Launch' } }),
      'input.startTime',
      /^input\.startTime is required$/,
    ],
    [
      'a page post of a kind the page cannot publish',
      'mutation ($p: ID!, $input: CreatePagePostInput!) { createPagePost(pageId: $p, input: $input) { id } }',
      (i) => ({ p: i.page, input: { kind: 'PAGE_POST', message: 'x' } }),
      'input.kind',
      /^input\.kind must be one of \{PHOTO, VIDEO, EVENT, REVIEW\}$/,
    ],
    [
      'insights by 91 days',
      INSIGHTS,
      (i) => ({ id: i.account, input: { timeIncrementDays: 91 } }),
      'input.timeIncrementDays',
      /^input\.timeIncrementDays must be a number of days from 1 to 90, got 91\.$/,
    ],
    [
      'insights over a range that ends before it starts',
      INSIGHTS,
      (i) => ({ id: i.account, input: { timeRange: { since: '2025-02-01', until: '2025-01-01' } } }),
      'input.timeRange',
      /^input\.timeRange: since \(2025-02-01\) is after until \(2025-01-01\)\.$/,
    ],
    [
      'insights over no ranges',
      INSIGHTS,
      (i) => ({ id: i.account, input: { timeRanges: [] } }),
      'input.timeRanges',
      /^input\.timeRanges must have at least 1 elements$/,
    ],
    [
      'an insights report over a day that is no day',
      'mutation ($o: ID!, $input: InsightsInput!) { createInsightsReport(objectId: $o, input: $input) { id } }',
      (i) => ({ o: `act_${i.account}`, input: { timeRange: { since: '2025-02-30', until: '2025-03-01' } } }),
      'input.timeRange',
      /^input\.timeRange: since 2025-02-30 is not a day of the calendar\.$/,
    ],
  ];

  it.each(cases)('%s', async (_what, query, variables, field, message) => {
    const { body } = await server.graphql(query, variables(ids), token);
    const error = (body as GraphQLBody).errors?.[0];
    expect(error, JSON.stringify(body)).toBeDefined();
    expect(error!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(graphWords(error!.message)).toEqual([]);
    expect(error!.message).toMatch(message);
  });

  it('validateAdSetUpdate words every violation as GraphQL does', async () => {
    const { body } = await server.graphql(
      'mutation ($id: ID!, $input: UpdateAdSetInput!) { validateAdSetUpdate(id: $id, input: $input) { valid violations { field message } } }',
      {
        id: ids.adSet,
        input: { bidStrategy: 'LOWEST_COST_WITH_BID_CAP', minBudgetSpendPercentage: 80, maxBudgetSpendPercentage: 20, endTime: PAST },
      },
      token,
    );
    const { violations } = (body.data as { validateAdSetUpdate: { violations: Array<{ field: string; message: string }> } }).validateAdSetUpdate;
    expect(violations.length).toBeGreaterThanOrEqual(3);
    for (const violation of violations) expect(graphWords(violation.message), violation.message).toEqual([]);
  });

  it('the checker catches /v24.0 words (it can fail)', () => {
    expect(graphWords('Param end_time must be after start_time')).toEqual(['Param end_time', 'end_time', 'start_time']);
    expect(graphWords('Only one of daily_budget and lifetime_budget')).toEqual(['daily_budget', 'lifetime_budget']);
    expect(graphWords('The parameter adset_id is required')).toEqual(['The parameter adset_id', 'adset_id']);
  });
});
