import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { dataOf, firstError } from '../helpers/api.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { insertObjects } from '../../src/db/objects.ts';
import {
  ads as adsTable,
  customAudiences,
  customConversions,
  type AdAccountRecord,
  type AdRecord,
  type AdSetRecord,
  type CampaignRecord,
  type CustomAudienceRecord,
  type CustomConversionRecord,
  type ObjectStatus,
} from '../../src/ads/store.ts';

/**
 * Ad sets through GraphQL (issue 9, the ad set half of the specification, DECISIONS section 5): createAdSet,
 * updateAdSet and deleteAdSet take camelCase input with enums and apply the same rules as /v24.0, failing with
 * extensions.code, extensions.field and extensions.graphApi; validateAdSet and validateAdSetUpdate answer every
 * violation at once and write nothing; the AdSet type's derived fields and connections; and the two surfaces
 * listing and counting the same ads, copies and ad sets.
 */

// Small enough to fill one account with world.adSets; every other account here stays far below it.
const AD_SET_LIMIT = 30;

const ADSET_FIELDS = `id name status configuredStatus effectiveStatus accountId campaignId billingEvent optimizationGoal destinationType
  bidStrategy bidAmount dailyBudget lifetimeBudget startTime endTime dsaPayor dsaBeneficiary targeting { geoLocations { countries } ageMin } pacingType sourceAdSetId
  sourceAdSet { id name } campaign { id } account { id }`;
const CREATE = `mutation ($a: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $a, input: $input) { ${ADSET_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateAdSetInput!) { updateAdSet(id: $id, input: $input) { ${ADSET_FIELDS} } }`;
const DELETE = 'mutation ($id: ID!) { deleteAdSet(id: $id) }';
const VIOLATION_FIELDS = 'field message kind code subcode userTitle userMessage data';
const VALIDATE = `mutation ($a: ID!, $input: CreateAdSetInput!) { validateAdSet(accountId: $a, input: $input) { valid violations { ${VIOLATION_FIELDS} } } }`;
const VALIDATE_UPDATE = `mutation ($id: ID!, $input: UpdateAdSetInput!) { validateAdSetUpdate(id: $id, input: $input) { valid violations { ${VIOLATION_FIELDS} } } }`;
const READ = `query ($id: ID!) { adSet(id: $id) { ${ADSET_FIELDS}
  issues { level errorCode errorSummary errorMessage errorType additionalInfo }
  recommendations { title message code importance confidence blameField } } }`;

type Role = 'advertiser' | 'auditor' | 'outsider';

let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let tokens: Record<Role, string>;
let orgId: string;

beforeAll(async () => {
  // No background runner: async requests made here stay INITIAL, so what the edges report is fixed.
  server = await startTestServer({ AD_SET_LIMIT: String(AD_SET_LIMIT), ASYNC_RUNNER: 'false' });
  graph = graphClient(server);
  world = worldBuilder(server.deps);
  const org = await world.organization();
  const other = await world.organization();
  orgId = org.id;
  tokens = {
    advertiser: (await world.user({ organizationId: org.id, role: 'advertiser' })).token,
    auditor: (await world.user({ organizationId: org.id, role: 'auditor' })).token,
    outsider: (await world.user({ organizationId: other.id, role: 'admin' })).token,
  };
});
afterAll(() => server?.close());

const gql = (query: string, variables: Record<string, unknown>, role: Role | null = 'advertiser') =>
  server.graphql(query, variables, role ? tokens[role] : undefined).then((r) => r.body);

/** An account of the test organization with one campaign (OUTCOME_TRAFFIC, no budget of its own). */
async function scene(accountFields: Partial<AdAccountRecord> = {}, campaignFields: Partial<CampaignRecord> = {}) {
  const account = await world.adAccount(orgId, accountFields);
  const [campaign] = await world.campaigns(account, 1, campaignFields);
  return { account, campaign: campaign! };
}

async function audience(account: AdAccountRecord, fields: Partial<CustomAudienceRecord> = {}): Promise<CustomAudienceRecord> {
  const [created] = await server.deps.db.transaction((trx) =>
    insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
      {
        organizationId: account.organizationId,
        accountId: account.id,
        name: 'Audience',
        subtype: 'CUSTOM',
        description: null,
        lookalikeSpec: null,
        flaggedReason: null,
        operationStatusCode: 200,
        operationStatusDescription: null,
        ...fields,
      },
    ]),
  );
  return created!;
}

async function conversion(account: AdAccountRecord, fields: Partial<CustomConversionRecord> = {}): Promise<CustomConversionRecord> {
  const [created] = await server.deps.db.transaction((trx) =>
    insertObjects<CustomConversionRecord>(trx, 'custom_conversion', customConversions, [
      {
        organizationId: account.organizationId,
        accountId: account.id,
        name: 'Conversion',
        rule: null,
        customEventType: 'PURCHASE',
        flaggedReason: null,
        ...fields,
      },
    ]),
  );
  return created!;
}

async function adsIn(adSet: AdSetRecord, statuses: ObjectStatus[]): Promise<AdRecord[]> {
  return server.deps.db.transaction((trx) =>
    insertObjects<AdRecord>(
      trx,
      'ad',
      adsTable,
      statuses.map((status, i) => ({
        organizationId: adSet.organizationId,
        accountId: adSet.accountId,
        campaignId: adSet.campaignId,
        adsetId: adSet.id,
        name: `Ad ${i + 1} ${status}`,
        status,
        creativeId: null,
        sourceAdId: null,
      })),
    ),
  );
}

/** Rows of every table an ad set write touches. */
async function rowCounts() {
  const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return {
    objects: await count('graph_objects'),
    adSets: await count('ad_sets'),
    ads: await count('ads'),
    references: await count('ad_set_references'),
    requests: await count('async_requests'),
  };
}

const adSetRow = (id: string) => server.deps.db('ad_sets').where({ id }).first();

/** The whole GraphQL error of a refused write, and proof that no row was added or removed. */
async function expectRefused(
  write: () => Promise<GraphQLBody>,
  expected: { code: string; field?: string; graphApi?: Record<string, unknown>; message?: RegExp },
) {
  const before = await rowCounts();
  const body = await write();
  const error = firstError(body);
  expect(body.data ?? null, JSON.stringify(body)).toBeNull();
  expect(error.extensions?.code, JSON.stringify(body)).toBe(expected.code);
  if (expected.field !== undefined) expect(error.extensions?.field, JSON.stringify(body)).toBe(expected.field);
  if (expected.graphApi !== undefined) expect(error.extensions?.graphApi, JSON.stringify(body)).toEqual(expected.graphApi);
  if (expected.message !== undefined) expect(error.message).toMatch(expected.message);
  expect(await rowCounts()).toEqual(before);
  return error;
}

const US = { geoLocations: { countries: ['US'] } };
const FUTURE_START = '2030-01-01T00:00:00.000Z';
const base = (campaign: CampaignRecord, input: Record<string, unknown> = {}) => ({
  name: 'Ad set',
  campaignId: campaign.id,
  billingEvent: 'IMPRESSIONS',
  targeting: US,
  dailyBudget: 5000,
  ...input,
});

describe('createAdSet', () => {
  it('creates an ad set from camelCase input with enums; GraphQL and /v24.0 read it back alike', async () => {
    const { account, campaign } = await scene();
    const body = await gql(CREATE, {
      a: `act_${account.id}`,
      input: base(campaign, {
        name: 'Spring',
        status: 'PAUSED',
        billingEvent: 'LINK_CLICKS',
        optimizationGoal: 'LANDING_PAGE_VIEWS',
        destinationType: 'WEBSITE',
        bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
        bidAmount: 200,
        dailyBudget: '5000',
        startTime: FUTURE_START,
        endTime: '2030-02-01T00:00:00Z',
        pacingType: ['STANDARD'],
        targeting: { geoLocations: { countries: ['US', 'CA'] }, ageMin: 21 },
      }),
    });
    const created = dataOf(body).createAdSet;
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'Spring',
      status: 'PAUSED',
      configuredStatus: 'PAUSED',
      effectiveStatus: 'PAUSED',
      accountId: account.id,
      campaignId: campaign.id,
      billingEvent: 'LINK_CLICKS',
      optimizationGoal: 'LANDING_PAGE_VIEWS',
      destinationType: 'WEBSITE',
      bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
      bidAmount: 200,
      dailyBudget: 5000,
      lifetimeBudget: null,
      startTime: FUTURE_START,
      endTime: '2030-02-01T00:00:00.000Z',
      dsaPayor: null,
      dsaBeneficiary: null,
      targeting: { geoLocations: { countries: ['US', 'CA'] }, ageMin: 21 },
      pacingType: ['STANDARD'],
      sourceAdSetId: null,
      sourceAdSet: null,
      campaign: { id: campaign.id },
      account: { id: account.id },
    });
    const rest = await graph.get(created.id, tokens.advertiser, {
      fields:
        'name,status,configured_status,effective_status,billing_event,optimization_goal,destination_type,bid_strategy,bid_amount,daily_budget,pacing_type,campaign_id',
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body).toEqual({
      id: created.id,
      name: 'Spring',
      status: 'PAUSED',
      configured_status: 'PAUSED',
      effective_status: 'PAUSED',
      billing_event: 'LINK_CLICKS',
      optimization_goal: 'LANDING_PAGE_VIEWS',
      destination_type: 'WEBSITE',
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      bid_amount: '200',
      daily_budget: '5000',
      pacing_type: ['standard'],
      campaign_id: campaign.id,
    });
    expect((await server.deps.db('graph_objects').where({ id: created.id }).first()).type).toBe('ad_set');
  });

  it("defaults: ACTIVE, the objective's first goal, and the account's payor and beneficiary in the EU", async () => {
    const { account, campaign } = await scene({ defaultDsaPayor: 'Acme GmbH', defaultDsaBeneficiary: 'Acme Foundation' });
    const created = dataOf(await gql(CREATE, { a: account.id, input: base(campaign, { targeting: { geoLocations: { countries: ['DE'] } } }) })).createAdSet;
    expect(created).toMatchObject({
      status: 'ACTIVE',
      effectiveStatus: 'ACTIVE',
      optimizationGoal: 'LINK_CLICKS',
      dsaPayor: 'Acme GmbH',
      dsaBeneficiary: 'Acme Foundation',
    });
    // Rule 3: a payor alone takes the beneficiary from the account's default, not from the payor.
    const payorOnly = dataOf(
      await gql(CREATE, { a: account.id, input: base(campaign, { targeting: { geoLocations: { countries: ['FR'] } }, dsaPayor: 'Other SA' }) }),
    ).createAdSet;
    expect(payorOnly).toMatchObject({ dsaPayor: 'Other SA', dsaBeneficiary: 'Acme Foundation' });
    // Rule 4: outside the regulated regions nothing is filled in.
    const outside = dataOf(await gql(CREATE, { a: account.id, input: base(campaign) })).createAdSet;
    expect(outside).toMatchObject({ dsaPayor: null, dsaBeneficiary: null });
  });

  describe('refuses what /v24.0 refuses, with the Graph code in extensions.graphApi, writing nothing', () => {
    let account: AdAccountRecord;
    let campaign: CampaignRecord;
    let jpy: { account: AdAccountRecord; campaign: CampaignRecord };
    let campaignWithBudget: CampaignRecord;
    let flagged: CustomAudienceRecord[];
    let flaggedConversion: CustomConversionRecord;
    beforeAll(async () => {
      ({ account, campaign } = await scene());
      jpy = await scene({ currency: 'JPY', country: 'JP' });
      [campaignWithBudget] = (await world.campaigns(account, 1, { dailyBudget: '10000' })) as [CampaignRecord];
      flagged = [await audience(account, { flaggedReason: 'health' }), await audience(account, { flaggedReason: 'financial' })];
      flaggedConversion = await conversion(account, { flaggedReason: 'health' });
    });

    const create = (input: Record<string, unknown>, to: { account: AdAccountRecord; campaign: CampaignRecord } = { account, campaign }) =>
      gql(CREATE, { a: to.account.id, input: base(to.campaign, input) });

    it.each([
      ['name longer than 400 characters', { name: 'x'.repeat(401) }, 'input.name', { code: 100 }, /^input\.name must be at most 400 characters$/],
      ['status DELETED on create', { status: 'DELETED' }, 'input.status', { code: 100 }, /DELETED cannot be used on create: only ACTIVE and PAUSED/],
      [
        'targeting without countries',
        { targeting: { geoLocations: {}, ageMin: 20 } },
        'input.targeting.geoLocations.countries',
        { code: 100 },
        /countries is required/,
      ],
      [
        'an empty list of countries',
        { targeting: { geoLocations: { countries: [] } } },
        'input.targeting.geoLocations.countries',
        { code: 100 },
        /countries is required/,
      ],
      ['a goal the objective does not allow', { optimizationGoal: 'PAGE_LIKES' }, 'input.optimizationGoal', { code: 100 }, /OUTCOME_TRAFFIC/],
      ['a bid cap strategy without a bid', { bidStrategy: 'LOWEST_COST_WITH_BID_CAP' }, 'input.bidAmount', { code: 100 }, /^input\.bidAmount is required/],
      [
        'a lifetime budget without an end time',
        { dailyBudget: null, lifetimeBudget: 100000 },
        'input.endTime',
        { code: 100 },
        /^input\.endTime is required with a lifetime budget/,
      ],
      [
        'two budgets',
        { lifetimeBudget: 100000, endTime: '2030-03-01T00:00:00Z' },
        'input.lifetimeBudget',
        { code: 100 },
        /Only one of input\.dailyBudget and input\.lifetimeBudget/,
      ],
      [
        'a daily budget for 24 hours or less',
        { startTime: FUTURE_START, endTime: '2030-01-01T20:00:00Z' },
        'input.endTime',
        { code: 100 },
        /more than 24 hours/,
      ],
    ])('%s', async (_, input, field, graphApi, message) => {
      const error = await expectRefused(() => create(input), { code: 'BAD_USER_INPUT', field, message });
      expect(error.extensions?.graphApi).toMatchObject(graphApi);
      expect(error.extensions?.graphApi.error_subcode).toBeUndefined();
    });

    it('an ad set budget under a campaign with its own budget', async () => {
      const error = await expectRefused(() => create({}, { account, campaign: campaignWithBudget }), {
        code: 'BAD_USER_INPUT',
        field: 'input.dailyBudget',
        message: /campaign has a daily budget/,
      });
      expect(error.extensions?.graphApi).toMatchObject({ code: 100, error_user_title: 'Campaign budget in use' });
    });

    it.each([
      // USD, higher-income country: impressions 0.50 doubled.
      ['USD, impressions, high-income country', 'usd', { dailyBudget: 99 }, 'input.dailyBudget', '1.00 USD', { minimum_daily_budget: '100', currency: 'USD' }],
      // JPY has no minor unit: 1.00 USD at 155 JPY.
      ['JPY has no minor unit', 'jpy', { dailyBudget: 154 }, 'input.dailyBudget', '155 JPY', { minimum_daily_budget: '155', currency: 'JPY' }],
      // Bid cap, clicks: 5 x the bid, doubled.
      [
        'bid cap, clicks: five times the bid',
        'usd',
        { billingEvent: 'LINK_CLICKS', bidStrategy: 'LOWEST_COST_WITH_BID_CAP', bidAmount: 300, dailyBudget: 2999 },
        'input.dailyBudget',
        '30.00 USD',
        { minimum_daily_budget: '3000', currency: 'USD' },
      ],
      // Lifetime: the daily minimum times 10 scheduled days.
      [
        'lifetime: daily minimum x days',
        'usd',
        { dailyBudget: null, lifetimeBudget: 999, startTime: FUTURE_START, endTime: '2030-01-11T00:00:00Z' },
        'input.lifetimeBudget',
        '10.00 USD',
        { minimum_lifetime_budget: '1000', minimum_daily_budget: '100', days: 10, currency: 'USD' },
      ],
    ] as const)('budget too low (%s): 100/1885272 with the minimum in error_user_msg', async (_, which, input, field, minimum, data) => {
      const error = await expectRefused(() => create(input, which === 'jpy' ? jpy : { account, campaign }), {
        code: 'BAD_USER_INPUT',
        field,
        message: /^Your budget is too low/,
      });
      expect(error.extensions?.graphApi).toEqual({
        code: 100,
        error_subcode: 1885272,
        error_user_title: 'Your Budget Is Too Low',
        error_user_msg: expect.stringContaining(minimum),
        error_data: data,
      });
    });

    it.each([
      ['no payor nor beneficiary', 3858079, 'dsa_payor', {}],
      ['a payor only, and no account default', 3858081, 'dsa_beneficiary', { dsaPayor: 'Acme GmbH' }],
    ])('EU targeting with %s: 100/%s blaming %s', async (_, subcode, field, input) => {
      const error = await expectRefused(() => create({ targeting: { geoLocations: { countries: ['US', 'RE'] } }, ...input }), {
        code: 'BAD_USER_INPUT',
        field: field === 'dsa_payor' ? 'input.dsaPayor' : 'input.dsaBeneficiary',
        message: new RegExp(`^input\\.${field === 'dsa_payor' ? 'dsaPayor' : 'dsaBeneficiary'} is required for ad sets targeting the European Union \\(RE\\)$`),
      });
      expect(error.extensions?.graphApi).toEqual({
        code: 100,
        error_subcode: subcode,
        error_user_title: expect.any(String),
        error_user_msg: expect.stringContaining('European Union'),
        error_data: { blame_field_specs: [[field]] },
      });
    });

    it('flagged audiences: 100/246003 listing every flagged id, included or excluded', async () => {
      const clean = await audience(account);
      const error = await expectRefused(
        () =>
          create({
            targeting: {
              geoLocations: { countries: ['US'] },
              customAudiences: [{ id: flagged[0]!.id }, { id: clean.id }],
              excludedCustomAudiences: [{ id: flagged[1]!.id }],
            },
          }),
        { code: 'BAD_USER_INPUT', field: 'input.targeting' },
      );
      expect(error.extensions?.graphApi).toEqual({
        code: 100,
        error_subcode: 246003,
        error_user_title: 'Restricted audience',
        error_user_msg: expect.stringContaining(flagged[1]!.id),
        error_data: { restricted_custom_audience_ids: [flagged[0]!.id, flagged[1]!.id] },
      });
    });

    it('a flagged custom conversion: 100/246004 naming it', async () => {
      const error = await expectRefused(() => create({ promotedObject: { customConversionId: flaggedConversion.id } }), {
        code: 'BAD_USER_INPUT',
        field: 'input.promotedObject',
      });
      expect(error.extensions?.graphApi).toMatchObject({
        code: 100,
        error_subcode: 246004,
        error_data: { restricted_custom_conversion_id: flaggedConversion.id },
      });
    });

    it('restricted locations: code 2641', async () => {
      const error = await expectRefused(() => create({ targeting: { geoLocations: { countries: ['US', 'CU'] } } }), {
        code: 'BAD_USER_INPUT',
        field: 'input.targeting.geoLocations.countries',
        message: /restricted: CU/,
      });
      expect(error.extensions?.graphApi).toMatchObject({ code: 2641, error_user_title: 'Restricted locations' });
    });

    it('a campaign of another account, and an account id that is not one', async () => {
      const other = await scene();
      await expectRefused(() => create({}, { account, campaign: other.campaign }), {
        code: 'BAD_USER_INPUT',
        field: 'input.campaignId',
        message: new RegExp(`act_${account.id}`),
      });
      await expectRefused(() => gql(CREATE, { a: 'act_12x', input: base(campaign) }), { code: 'BAD_USER_INPUT', field: 'accountId' });
    });

    it('a value outside an enum is refused by the schema itself', async () => {
      const before = await rowCounts();
      const body = await gql(CREATE, { a: account.id, input: base(campaign, { billingEvent: 'SOMETIMES' }) });
      expect(firstError(body).extensions?.code).toBe('BAD_USER_INPUT');
      expect(firstError(body).message).toMatch(/BillingEvent/);
      expect(await rowCounts()).toEqual(before);
    });
  });

  it('the ad set limit: 2695 as LIMIT_EXCEEDED; deleted ad sets do not count', async () => {
    const { account, campaign } = await scene();
    const existing = await world.adSets(campaign, AD_SET_LIMIT);
    const error = await expectRefused(() => gql(CREATE, { a: account.id, input: base(campaign) }), { code: 'LIMIT_EXCEEDED', field: 'input.campaignId' });
    expect(error.message).toMatch(/^Ad set creation reached the campaign group limit/);
    expect(error.extensions?.graphApi).toEqual({
      code: 2695,
      error_user_title: 'Too many ad sets',
      error_user_msg: expect.stringContaining(`limit of ${AD_SET_LIMIT} ad sets`),
    });
    dataOf(await gql(DELETE, { id: existing[0]!.id }));
    expect(dataOf(await gql(CREATE, { a: account.id, input: base(campaign, { name: 'After delete' }) })).createAdSet.name).toBe('After delete');
    await expectRefused(() => gql(CREATE, { a: account.id, input: base(campaign) }), { code: 'LIMIT_EXCEEDED' });
  });

  it.each([
    ['auditor', 'FORBIDDEN'],
    ['outsider', 'NOT_FOUND'],
    [null, 'UNAUTHENTICATED'],
  ] as const)('%s: %s, permissions before parameters', async (role, code) => {
    const { account, campaign } = await scene();
    await expectRefused(() => gql(CREATE, { a: account.id, input: base(campaign, { name: '' }) }, role), { code });
  });
});

describe('validateAdSet: every violation at once, nothing written', () => {
  it('answers each broken field with its path, code and subcode', async () => {
    const { account, campaign } = await scene();
    const flagged = [await audience(account, { flaggedReason: 'health' }), await audience(account, { flaggedReason: 'financial' })];
    const before = await rowCounts();
    const body = await gql(VALIDATE, {
      a: account.id,
      input: base(campaign, {
        name: 'x'.repeat(401),
        dailyBudget: 10,
        bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
        bidAmount: 100,
        targeting: { geoLocations: { countries: ['DE', 'FR'] }, customAudiences: [{ id: flagged[0]!.id }, { id: flagged[1]!.id }] },
      }),
    });
    const { valid, violations } = dataOf(body).validateAdSet;
    expect(valid).toBe(false);
    const byField = Object.fromEntries((violations as Array<Record<string, any>>).map((v) => [v.field, v]));
    // Each names the input's path, as the write's error would.
    expect(Object.keys(byField).sort()).toEqual([
      'input.bidAmount',
      'input.dailyBudget',
      'input.dsaBeneficiary',
      'input.dsaPayor',
      'input.name',
      'input.targeting',
    ]);
    expect(violations).toHaveLength(6);
    expect(byField['input.name']).toMatchObject({ kind: 'BAD_USER_INPUT', code: 100, subcode: null, message: 'input.name must be at most 400 characters' });
    expect(byField['input.bidAmount']).toMatchObject({
      kind: 'BAD_USER_INPUT',
      code: 100,
      subcode: null,
      message: expect.stringContaining('LOWEST_COST_WITHOUT_CAP'),
    });
    expect(byField['input.dailyBudget']).toMatchObject({
      kind: 'BAD_USER_INPUT',
      code: 100,
      subcode: 1885272,
      userTitle: 'Your Budget Is Too Low',
      userMessage: expect.stringContaining('1.00 USD'),
      data: { minimum_daily_budget: '100', currency: 'USD' },
    });
    expect(byField['input.dsaPayor']).toMatchObject({
      code: 100,
      subcode: 3858079,
      data: { blame_field_specs: [['dsa_payor']] },
      message: expect.stringContaining('(DE, FR)'),
    });
    expect(byField['input.dsaBeneficiary']).toMatchObject({ code: 100, subcode: 3858081, data: { blame_field_specs: [['dsa_beneficiary']] } });
    expect(byField['input.targeting']).toMatchObject({
      code: 100,
      subcode: 246003,
      data: { restricted_custom_audience_ids: [flagged[0]!.id, flagged[1]!.id] },
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('reports the account limit beside the rest, as LIMIT_EXCEEDED with code 2695', async () => {
    const { account, campaign } = await scene();
    await world.adSets(campaign, AD_SET_LIMIT);
    const { valid, violations } = dataOf(
      await gql(VALIDATE, { a: account.id, input: base(campaign, { targeting: { geoLocations: { countries: [] } } }) }),
    ).validateAdSet;
    expect(valid).toBe(false);
    expect((violations as Array<Record<string, any>>).map((v) => [v.field, v.kind, v.code])).toEqual([
      ['input.targeting.geoLocations.countries', 'BAD_USER_INPUT', 100],
      ['input.campaignId', 'LIMIT_EXCEEDED', 2695],
    ]);
  });

  it('a valid input: valid, no violations, nothing written', async () => {
    const { account, campaign } = await scene();
    const before = await rowCounts();
    expect(dataOf(await gql(VALIDATE, { a: account.id, input: base(campaign) })).validateAdSet).toEqual({ valid: true, violations: [] });
    expect(await rowCounts()).toEqual(before);
    // And the same input creates.
    expect(dataOf(await gql(CREATE, { a: account.id, input: base(campaign) })).createAdSet.name).toBe('Ad set');
  });

  it('needs the right to create: auditors are FORBIDDEN, outsiders NOT_FOUND', async () => {
    const { account, campaign } = await scene();
    await expectRefused(() => gql(VALIDATE, { a: account.id, input: base(campaign) }, 'auditor'), { code: 'FORBIDDEN' });
    await expectRefused(() => gql(VALIDATE, { a: account.id, input: base(campaign) }, 'outsider'), { code: 'NOT_FOUND' });
  });
});

describe('updateAdSet and validateAdSetUpdate', () => {
  let account: AdAccountRecord;
  let campaign: CampaignRecord;
  beforeAll(async () => {
    ({ account, campaign } = await scene());
  });
  const newAdSet = async (input: Record<string, unknown> = {}) =>
    dataOf(await gql(CREATE, { a: account.id, input: base(campaign, input) })).createAdSet as Record<string, any>;

  it('changes a subset with enums and answers the ad set as it now reads', async () => {
    const created = await newAdSet({ name: 'Before' });
    const updated = dataOf(
      await gql(UPDATE, {
        id: created.id,
        input: {
          name: 'After',
          campaignStatus: 'PAUSED',
          billingEvent: 'LINK_CLICKS',
          bidStrategy: 'COST_CAP',
          bidAmount: 150,
          dailyBudget: 7000,
          pacingType: ['NO_PACING'],
        },
      }),
    ).updateAdSet;
    expect(updated).toMatchObject({
      id: created.id,
      name: 'After',
      status: 'PAUSED',
      configuredStatus: 'PAUSED',
      effectiveStatus: 'PAUSED',
      billingEvent: 'LINK_CLICKS',
      bidStrategy: 'COST_CAP',
      bidAmount: 150,
      dailyBudget: 7000,
      pacingType: ['NO_PACING'],
      targeting: US,
      optimizationGoal: 'LINK_CLICKS',
    });
    expect(dataOf(await gql(READ, { id: created.id })).adSet).toMatchObject({ name: 'After', status: 'PAUSED', dailyBudget: 7000 });
    // Null leaves a field as it is; status and campaignStatus are the same thing.
    expect(dataOf(await gql(UPDATE, { id: created.id, input: { status: 'ACTIVE', bidAmount: null } })).updateAdSet).toMatchObject({
      status: 'ACTIVE',
      bidAmount: 150,
    });
  });

  it("a retargeting into the EU applies the account's defaults; without defaults it is 3858079", async () => {
    const withDefaults = await scene({ defaultDsaPayor: 'Payor Ltd', defaultDsaBeneficiary: 'Beneficiary Ltd' });
    const adSet = dataOf(await gql(CREATE, { a: withDefaults.account.id, input: base(withDefaults.campaign) })).createAdSet;
    expect(adSet).toMatchObject({ dsaPayor: null, dsaBeneficiary: null });
    expect(dataOf(await gql(UPDATE, { id: adSet.id, input: { targeting: { geoLocations: { countries: ['IT'] } } } })).updateAdSet).toMatchObject({
      dsaPayor: 'Payor Ltd',
      dsaBeneficiary: 'Beneficiary Ltd',
      targeting: { geoLocations: { countries: ['IT'] } },
    });

    const plain = await newAdSet();
    const rowBefore = await adSetRow(plain.id);
    const error = await expectRefused(() => gql(UPDATE, { id: plain.id, input: { targeting: { geoLocations: { countries: ['IT'] } } } }), {
      code: 'BAD_USER_INPUT',
      field: 'input.dsaPayor',
    });
    expect(error.extensions?.graphApi).toMatchObject({ code: 100, error_subcode: 3858079, error_data: { blame_field_specs: [['dsa_payor']] } });
    expect(await adSetRow(plain.id)).toEqual(rowBefore);
  });

  it('adding flagged audiences is 246003 listing every one; the ad set does not change', async () => {
    const adSet = await newAdSet();
    const flagged = [await audience(account, { flaggedReason: 'health' }), await audience(account, { subtype: 'LOOKALIKE', operationStatusCode: 471 })];
    const rowBefore = await adSetRow(adSet.id);
    const error = await expectRefused(
      () =>
        gql(UPDATE, {
          id: adSet.id,
          input: { targeting: { geoLocations: { countries: ['US'] }, customAudiences: flagged.map((a) => ({ id: a.id })) } },
        }),
      { code: 'BAD_USER_INPUT', field: 'input.targeting' },
    );
    expect(error.extensions?.graphApi).toMatchObject({
      code: 100,
      error_subcode: 246003,
      error_data: { restricted_custom_audience_ids: flagged.map((a) => a.id) },
    });
    expect(await adSetRow(adSet.id)).toEqual(rowBefore);
  });

  it('status and campaignStatus that disagree are refused', async () => {
    const adSet = await newAdSet();
    await expectRefused(() => gql(UPDATE, { id: adSet.id, input: { status: 'ACTIVE', campaignStatus: 'PAUSED' } }), {
      code: 'BAD_USER_INPUT',
      field: 'input.campaignStatus',
      message: /disagree/,
    });
  });

  // The specification: ad sets that use flagged audiences "are reported with issues, and creating or changing such ad
  // sets fails" (errors: "Create or modify an ad set with a flagged custom or lookalike audience: 246003"); DECISIONS 5:
  // "Creating or updating an ad set that uses a flagged audience fails". An ad set whose audience was flagged after
  // it was made is such an ad set, whatever the change leaves its targeting as.
  it('an ad set already using a flagged audience cannot be changed while it uses it: 246003', async () => {
    const flagged = await audience(account, { flaggedReason: 'health' });
    const [adSet] = await world.adSets(campaign, 1, () => ({
      billingEvent: 'IMPRESSIONS',
      dailyBudget: '5000',
      targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [flagged.id] },
    }));
    const rowBefore = await adSetRow(adSet!.id);
    const { violations } = dataOf(await gql(VALIDATE_UPDATE, { id: adSet!.id, input: { dailyBudget: 6000 } })).validateAdSetUpdate;
    expect((violations as Array<Record<string, any>>).map((v) => [v.field, v.subcode])).toEqual([['input.targeting', 246003]]);
    const error = await expectRefused(() => gql(UPDATE, { id: adSet!.id, input: { dailyBudget: 6000 } }), { code: 'BAD_USER_INPUT', field: 'input.targeting' });
    expect(error.extensions?.graphApi).toMatchObject({ code: 100, error_subcode: 246003, error_data: { restricted_custom_audience_ids: [flagged.id] } });
    expect(await adSetRow(adSet!.id)).toEqual(rowBefore);
  });

  it('removing the flagged audience is allowed, and clears the issues', async () => {
    const flagged = await audience(account, { flaggedReason: 'financial' });
    const [adSet] = await world.adSets(campaign, 1, () => ({
      billingEvent: 'IMPRESSIONS',
      dailyBudget: '5000',
      targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [flagged.id] },
    }));
    expect(dataOf(await gql(READ, { id: adSet!.id })).adSet).toMatchObject({ effectiveStatus: 'WITH_ISSUES', issues: [{ errorCode: 2460003 }] });
    expect(dataOf(await gql(UPDATE, { id: adSet!.id, input: { targeting: US } })).updateAdSet).toMatchObject({ effectiveStatus: 'ACTIVE', targeting: US });
    expect(dataOf(await gql(READ, { id: adSet!.id })).adSet.issues).toEqual([]);
  });

  it('a budget changed below the minimum is 1885272', async () => {
    const adSet = await newAdSet();
    const error = await expectRefused(() => gql(UPDATE, { id: adSet.id, input: { dailyBudget: 60 } }), { code: 'BAD_USER_INPUT', field: 'input.dailyBudget' });
    expect(error.extensions?.graphApi).toMatchObject({ code: 100, error_subcode: 1885272, error_user_msg: expect.stringContaining('1.00 USD') });
  });

  it.each([
    ['ARCHIVED', { name: 'Renamed' }, null],
    ['ARCHIVED', { campaignStatus: 'DELETED' }, null],
    ['ARCHIVED', { billingEvent: 'CLICKS' }, 'input.billingEvent'],
    ['ARCHIVED', { status: 'ACTIVE' }, 'input.status'],
    ['DELETED', { name: 'Renamed' }, null],
    ['DELETED', { campaignStatus: 'ARCHIVED' }, 'input.campaignStatus'],
    ['DELETED', { dailyBudget: 9000 }, 'input.dailyBudget'],
  ] as const)('the state table: %s accepts %j? refused on %s', async (state, input, refusedField) => {
    const [adSet] = await world.adSets(campaign, 1, () => ({ status: state, billingEvent: 'IMPRESSIONS', dailyBudget: '5000' }));
    if (refusedField === null) {
      expect(dataOf(await gql(UPDATE, { id: adSet!.id, input })).updateAdSet).toMatchObject({
        id: adSet!.id,
        ...('name' in input ? { name: input.name } : { status: 'DELETED' }),
      });
      return;
    }
    const error = await expectRefused(() => gql(UPDATE, { id: adSet!.id, input }), {
      code: 'BAD_USER_INPUT',
      field: refusedField,
      message: new RegExp(`is ${state}`),
    });
    expect(error.extensions?.graphApi).toMatchObject({ code: 100, error_user_title: `Ad set is ${state.toLowerCase()}` });
  });

  it('validateAdSetUpdate answers every violation of the change, and writes nothing', async () => {
    const adSet = await newAdSet();
    const rowBefore = await adSetRow(adSet.id);
    const { valid, violations } = dataOf(
      await gql(VALIDATE_UPDATE, {
        id: adSet.id,
        input: { name: '', targeting: { geoLocations: { countries: ['IT'] } }, dailyBudget: 10, bidStrategy: 'LOWEST_COST_WITHOUT_CAP', bidAmount: 300 },
      }),
    ).validateAdSetUpdate;
    expect(valid).toBe(false);
    expect((violations as Array<Record<string, any>>).map((v) => [v.field, v.code, v.subcode]).sort()).toEqual([
      ['input.bidAmount', 100, null],
      ['input.dailyBudget', 100, 1885272],
      ['input.dsaBeneficiary', 100, 3858081],
      ['input.dsaPayor', 100, 3858079],
      ['input.name', 100, null],
    ]);
    expect(await adSetRow(adSet.id)).toEqual(rowBefore);
    expect(dataOf(await gql(VALIDATE_UPDATE, { id: adSet.id, input: { name: 'Fine', dailyBudget: 8000 } })).validateAdSetUpdate).toEqual({
      valid: true,
      violations: [],
    });
    expect(await adSetRow(adSet.id)).toEqual(rowBefore);
  });

  it('validateAdSetUpdate of a DELETED ad set: every field the state table refuses', async () => {
    const [adSet] = await world.adSets(campaign, 1, () => ({ status: 'DELETED' }));
    const { valid, violations } = dataOf(
      await gql(VALIDATE_UPDATE, { id: adSet!.id, input: { name: 'ok', billingEvent: 'CLICKS', dailyBudget: 9000 } }),
    ).validateAdSetUpdate;
    expect(valid).toBe(false);
    expect((violations as Array<Record<string, any>>).map((v) => v.field).sort()).toEqual(['input.billingEvent', 'input.dailyBudget']);
  });

  it.each([
    ['auditor', 'FORBIDDEN'],
    ['outsider', 'NOT_FOUND'],
  ] as const)('%s: %s on update, validate and delete; nothing changes', async (role, code) => {
    const adSet = await newAdSet();
    const rowBefore = await adSetRow(adSet.id);
    await expectRefused(() => gql(UPDATE, { id: adSet.id, input: { name: 'x' } }, role), { code });
    await expectRefused(() => gql(VALIDATE_UPDATE, { id: adSet.id, input: { name: 'x' } }, role), { code });
    await expectRefused(() => gql(DELETE, { id: adSet.id }, role), { code });
    expect(await adSetRow(adSet.id)).toEqual(rowBefore);
  });
});

describe('deleteAdSet', () => {
  it('sets DELETED, its ads follow, it stays readable by id and leaves the default lists', async () => {
    const { campaign } = await scene();
    const [adSet] = await world.adSets(campaign, 1);
    const adList = await adsIn(adSet!, ['ACTIVE', 'PAUSED', 'ARCHIVED']);
    expect(dataOf(await gql(DELETE, { id: adSet!.id })).deleteAdSet).toBe(true);
    const read = dataOf(
      await gql(
        `query ($id: ID!, $c: ID!) {
      adSet(id: $id) { status effectiveStatus ads(effectiveStatus: [DELETED]) { totalCount nodes { id status } } }
      campaign(id: $c) { adSets { totalCount } deleted: adSets(effectiveStatus: [DELETED]) { nodes { id } } } }`,
        { id: adSet!.id, c: campaign.id },
      ),
    );
    expect(read.adSet).toEqual({
      status: 'DELETED',
      effectiveStatus: 'DELETED',
      ads: { totalCount: 3, nodes: adList.map((ad) => ({ id: ad.id, status: 'DELETED' })) },
    });
    expect(read.campaign).toEqual({ adSets: { totalCount: 0 }, deleted: { nodes: [{ id: adSet!.id }] } });
    // Deleting again is no error, and changes nothing.
    expect(dataOf(await gql(DELETE, { id: adSet!.id })).deleteAdSet).toBe(true);
  });
});

describe('AdSet fields', () => {
  let account: AdAccountRecord;
  let active: CampaignRecord;
  let paused: CampaignRecord;
  let flaggedAudience: CustomAudienceRecord;
  let lookalike: CustomAudienceRecord;
  let flaggedConversion: CustomConversionRecord;
  beforeAll(async () => {
    ({ account, campaign: active } = await scene());
    [paused] = (await world.campaigns(account, 1, { status: 'PAUSED' })) as [CampaignRecord];
    flaggedAudience = await audience(account, { flaggedReason: 'health' });
    lookalike = await audience(account, { subtype: 'LOOKALIKE', operationStatusCode: 471 });
    flaggedConversion = await conversion(account, { flaggedReason: 'financial' });
  });

  it.each([
    ['ACTIVE', 'active', false, 'ACTIVE'],
    ['PAUSED', 'active', false, 'PAUSED'],
    ['ACTIVE', 'paused', false, 'CAMPAIGN_PAUSED'],
    ['ACTIVE', 'active', true, 'WITH_ISSUES'],
    ['ACTIVE', 'paused', true, 'CAMPAIGN_PAUSED'],
    ['PAUSED', 'active', true, 'PAUSED'],
    ['ARCHIVED', 'active', false, 'ARCHIVED'],
    ['DELETED', 'paused', true, 'DELETED'],
  ] as const)('own %s under an %s campaign, issues %s: effectiveStatus %s, the same on /v24.0', async (own, under, issues, expected) => {
    const [adSet] = await world.adSets(under === 'active' ? active : paused, 1, () => ({
      status: own,
      targeting: { geo_locations: { countries: ['US'] }, ...(issues ? { custom_audiences: [flaggedAudience.id] } : {}) },
    }));
    const read = dataOf(await gql(READ, { id: adSet!.id })).adSet;
    expect({ status: read.status, configuredStatus: read.configuredStatus, effectiveStatus: read.effectiveStatus }).toEqual({
      status: own,
      configuredStatus: own,
      effectiveStatus: expected,
    });
    const rest = await graph.get(adSet!.id, tokens.advertiser, { fields: 'status,configured_status,effective_status' });
    expect(rest.body).toEqual({ id: adSet!.id, status: own, configured_status: own, effective_status: expected });
  });

  it('issues: one per flagged audience and conversion, a warning per lookalike at 471, as issues_info on /v24.0', async () => {
    const [adSet] = await world.adSets(active, 1, () => ({
      targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [lookalike.id], excluded_custom_audiences: [{ id: flaggedAudience.id }] },
      promotedObject: { custom_conversion_id: flaggedConversion.id },
    }));
    const issues = dataOf(await gql(READ, { id: adSet!.id })).adSet.issues;
    expect(issues).toEqual([
      {
        level: 'AD_SET',
        errorCode: 2460003,
        errorSummary: 'Lookalike audience restricted (warning)',
        errorMessage: expect.stringContaining('471'),
        errorType: 'SOFT_ERROR',
        additionalInfo: `custom_audience_id: ${lookalike.id}`,
      },
      {
        level: 'AD_SET',
        errorCode: 2460003,
        errorSummary: 'Custom audience blocked',
        errorMessage: expect.stringContaining('health conditions'),
        errorType: 'SOFT_ERROR',
        additionalInfo: `custom_audience_id: ${flaggedAudience.id}`,
      },
      {
        level: 'AD_SET',
        errorCode: 2460004,
        errorSummary: 'Custom conversion blocked',
        errorMessage: expect.stringContaining('financial status'),
        errorType: 'SOFT_ERROR',
        additionalInfo: `custom_conversion_id: ${flaggedConversion.id}`,
      },
    ]);
    const rest = await graph.get(adSet!.id, tokens.advertiser, { fields: 'issues_info,effective_status' });
    expect(rest.body.effective_status).toBe('WITH_ISSUES');
    expect(rest.body.issues_info).toEqual(
      issues.map((i: Record<string, unknown>) => ({
        level: i.level,
        error_code: i.errorCode,
        error_summary: i.errorSummary,
        error_message: i.errorMessage,
        error_type: i.errorType,
        additional_info: i.additionalInfo,
      })),
    );
    const [clean] = await world.adSets(active, 1);
    expect(dataOf(await gql(READ, { id: clean!.id })).adSet.issues).toEqual([]);
  });

  it('recommendations: null when there are none, a list when there are (and absent vs present on /v24.0)', async () => {
    const [none, some] = await world.adSets(active, 2, (i) => ({
      billingEvent: 'IMPRESSIONS',
      dailyBudget: i === 0 ? '5000' : '150',
      targeting: { geo_locations: { countries: ['US'] }, ...(i === 1 ? { publisher_platforms: ['facebook'] } : {}) },
    }));
    expect(dataOf(await gql(READ, { id: none!.id })).adSet.recommendations).toBeNull();
    const list = dataOf(await gql(READ, { id: some!.id })).adSet.recommendations;
    expect(list).toEqual([
      {
        title: 'Raise your budget',
        message: expect.stringContaining('1.00 USD'),
        code: 1885500,
        importance: 'MEDIUM',
        confidence: 'HIGH',
        blameField: 'daily_budget',
      },
      {
        title: 'Use more placements',
        message: expect.any(String),
        code: 1885502,
        importance: 'LOW',
        confidence: 'MEDIUM',
        blameField: 'targeting.publisher_platforms',
      },
    ]);
    expect((await graph.get(none!.id, tokens.advertiser, { fields: 'id,recommendations' })).body).toEqual({ id: none!.id });
    expect((await graph.get(some!.id, tokens.advertiser, { fields: 'recommendations' })).body.recommendations.map((r: { code: number }) => r.code)).toEqual([
      1885500, 1885502,
    ]);
  });

  it('budgets and enums: whole numbers in the minor unit, enum values, null when unset', async () => {
    const [adSet] = await world.adSets(active, 1, () => ({
      lifetimeBudget: '9000000000',
      bidStrategy: 'COST_CAP',
      bidAmount: '250',
      billingEvent: 'THRUPLAY',
      optimizationGoal: 'THRUPLAY',
      destinationType: 'ON_VIDEO',
      endTime: new Date('2031-01-01T00:00:00Z'),
    }));
    expect(dataOf(await gql(READ, { id: adSet!.id })).adSet).toMatchObject({
      dailyBudget: null,
      lifetimeBudget: 9000000000,
      bidAmount: 250,
      bidStrategy: 'COST_CAP',
      billingEvent: 'THRUPLAY',
      optimizationGoal: 'THRUPLAY',
      destinationType: 'ON_VIDEO',
      endTime: '2031-01-01T00:00:00.000Z',
      startTime: null,
      pacingType: null,
    });
  });

  it('sourceAdSet and copies: the source of a copy, and the copies of a source with effectiveStatus filters', async () => {
    const [source] = await world.adSets(active, 1, () => ({ name: 'Source' }));
    const copies = await world.adSets(active, 3, (i) => ({
      name: `Copy ${i}`,
      sourceAdsetId: source!.id,
      status: (['ACTIVE', 'PAUSED', 'DELETED'] as const)[i],
    }));
    const read = dataOf(
      await gql(
        `query ($s: ID!, $c: ID!) {
      source: adSet(id: $s) { sourceAdSet { id } copies { totalCount nodes { id } }
        paused: copies(effectiveStatus: [PAUSED]) { totalCount nodes { id } }
        all: copies(effectiveStatus: [ACTIVE, PAUSED, DELETED]) { totalCount nodes { id } } }
      copy: adSet(id: $c) { sourceAdSetId sourceAdSet { id name } } }`,
        { s: source!.id, c: copies[0]!.id },
      ),
    );
    expect(read).toEqual({
      source: {
        sourceAdSet: null,
        copies: { totalCount: 2, nodes: [{ id: copies[0]!.id }, { id: copies[1]!.id }] },
        paused: { totalCount: 1, nodes: [{ id: copies[1]!.id }] },
        all: { totalCount: 3, nodes: copies.map((c) => ({ id: c.id })) },
      },
      copy: { sourceAdSetId: source!.id, sourceAdSet: { id: source!.id, name: 'Source' } },
    });
  });

  it('ads: DELETED and ARCHIVED left out by default, effectiveStatus filters (ADSET_PAUSED, WITH_ISSUES), totalCount agreeing with nodes', async () => {
    const [pausedSet, troubled] = await world.adSets(active, 2, (i) => ({
      status: i === 0 ? 'PAUSED' : 'ACTIVE',
      targeting: { geo_locations: { countries: ['US'] }, ...(i === 1 ? { custom_audiences: [flaggedAudience.id] } : {}) },
    }));
    const pausedAds = await adsIn(pausedSet!, ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED']);
    const troubledAds = await adsIn(troubled!, ['ACTIVE', 'PAUSED']);
    const query = `query ($id: ID!, $f: [EffectiveStatus!]) { adSet(id: $id) { ads(effectiveStatus: $f, first: 100) { totalCount nodes { id effectiveStatus } } } }`;
    const adsOf = async (id: string, f?: string[]) =>
      dataOf(await gql(query, { id, f })).adSet.ads as { totalCount: number; nodes: Array<{ id: string; effectiveStatus: string }> };
    const cases: Array<[string, string[] | undefined, AdRecord[], string[]]> = [
      [pausedSet!.id, undefined, pausedAds.slice(0, 2), ['ADSET_PAUSED', 'PAUSED']],
      [pausedSet!.id, ['ADSET_PAUSED'], pausedAds.slice(0, 1), ['ADSET_PAUSED']],
      [pausedSet!.id, ['ARCHIVED', 'DELETED'], pausedAds.slice(2), ['ARCHIVED', 'DELETED']],
      [pausedSet!.id, ['ACTIVE'], [], []],
      [troubled!.id, undefined, troubledAds, ['WITH_ISSUES', 'PAUSED']],
      [troubled!.id, ['WITH_ISSUES'], troubledAds.slice(0, 1), ['WITH_ISSUES']],
    ];
    for (const [id, filter, expected, statuses] of cases) {
      const found = await adsOf(id, filter);
      expect(found, JSON.stringify(filter)).toEqual({
        totalCount: expected.length,
        nodes: expected.map((ad, i) => ({ id: ad.id, effectiveStatus: statuses[i] })),
      });
    }
  });

  it('totalCount counts the whole list, not the page; status alone replaces the default filter', async () => {
    const [adSet] = await world.adSets(active, 1);
    const list = await adsIn(adSet!, ['ACTIVE', 'PAUSED', 'ACTIVE', 'DELETED']);
    const read = dataOf(
      await gql(
        `query ($id: ID!, $a: ID!) {
      adSet(id: $id) { first: ads(first: 2) { totalCount nodes { id } pageInfo { hasNextPage } } }
      deleted: adSets(accountId: $a, status: [DELETED]) { totalCount nodes { id } } }`,
        { id: adSet!.id, a: account.id },
      ),
    );
    expect(read.adSet.first).toEqual({ totalCount: 3, nodes: [{ id: list[0]!.id }, { id: list[1]!.id }], pageInfo: { hasNextPage: true } });
    const deletedIds = (await server.deps.db('ad_sets').where({ account_id: account.id, status: 'DELETED' }).select('id')).map((r: { id: unknown }) =>
      String(r.id),
    );
    expect(deletedIds.length).toBeGreaterThan(0);
    expect(read.deleted.totalCount).toBe(deletedIds.length);
    expect(read.deleted.nodes.map((n: { id: string }) => n.id).sort()).toEqual([...deletedIds].sort());
  });

  it('asyncRequests: the asynchronous copies requested of the ad set, the same as asyncadrequests on /v24.0', async () => {
    const [adSet, quiet] = await world.adSets(active, 2);
    const posted = await graph.call('POST', `/v24.0/act_${account.id}/async_batch_requests`, {
      token: tokens.advertiser,
      form: {
        name: 'copies',
        adbatch: [
          { name: 'one', relative_url: `${adSet!.id}/copies`, body: 'deep_copy=true' },
          { name: 'two', relative_url: `${adSet!.id}/copies` },
        ],
      },
    });
    expect(posted.status, posted.text).toBe(200);
    const read = dataOf(
      await gql(
        `query ($a: ID!, $q: ID!) {
      a: adSet(id: $a) { asyncRequests { totalCount nodes { id name type status scopeObjectId requestSet { id } } } }
      q: adSet(id: $q) { asyncRequests { totalCount nodes { id } } } }`,
        { a: adSet!.id, q: quiet!.id },
      ),
    );
    expect(read.q.asyncRequests).toEqual({ totalCount: 0, nodes: [] });
    expect(read.a.asyncRequests.totalCount).toBe(2);
    expect(read.a.asyncRequests.nodes).toEqual(
      ['one', 'two'].map((name) => ({
        id: expect.stringMatching(/^\d+$/),
        name,
        type: 'ADSET_COPY',
        status: 'INITIAL',
        scopeObjectId: adSet!.id,
        requestSet: { id: posted.body.id },
      })),
    );
    const rest = await graph.get(`${adSet!.id}/asyncadrequests`, tokens.advertiser, { fields: 'id,status', summary: 'total_count' });
    expect(rest.body.data).toEqual(read.a.asyncRequests.nodes.map((n: { id: string }) => ({ id: n.id, status: 'INITIAL' })));
    expect(rest.body.summary).toEqual({ total_count: 2 });
  });

  it('an ad set of another organization is invisible; an auditor reads', async () => {
    const [adSet] = await world.adSets(active, 1);
    expect(dataOf(await gql(READ, { id: adSet!.id }, 'outsider')).adSet).toBeNull();
    expect(dataOf(await gql(READ, { id: adSet!.id }, 'auditor')).adSet.id).toBe(adSet!.id);
  });
});

describe('GraphQL and /v24.0 list and count the same ads, copies and ad sets', () => {
  it('with and without effective_status filters', async () => {
    const { account, campaign } = await scene();
    const [pausedCampaign] = await world.campaigns(account, 1, { status: 'PAUSED' });
    const flagged = await audience(account, { flaggedReason: 'health' });
    const statuses: ObjectStatus[] = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'ACTIVE'];
    const sets = await world.adSets(campaign, 5, (i) => ({
      status: statuses[i]!,
      targeting: { geo_locations: { countries: ['US'] }, ...(i === 4 ? { custom_audiences: [flagged.id] } : {}) },
    }));
    const [underPaused] = await world.adSets(pausedCampaign!, 1);
    const source = sets[0]!;
    const copies = await world.adSets(campaign, 3, (i) => ({ status: (['ACTIVE', 'PAUSED', 'DELETED'] as const)[i], sourceAdsetId: source.id }));
    const ads = await adsIn(source, ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED']);
    const troubledAds = await adsIn(sets[4]!, ['ACTIVE']);

    const ids = (records: Array<{ id: string }>) => records.map((r) => r.id);
    // What the lists must hold, by hand, so the comparison below cannot pass by both surfaces being empty.
    const expected: Record<string, Record<string, string[]>> = {
      account: {
        default: ids([sets[0]!, sets[1]!, sets[4]!, underPaused!, copies[0]!, copies[1]!]),
        ACTIVE: ids([sets[0]!, copies[0]!]),
        'PAUSED,CAMPAIGN_PAUSED': ids([sets[1]!, underPaused!, copies[1]!]),
        'DELETED,ARCHIVED': ids([sets[2]!, sets[3]!, copies[2]!]),
        WITH_ISSUES: ids([sets[4]!]),
      },
      copies: {
        default: ids(copies.slice(0, 2)),
        ACTIVE: ids(copies.slice(0, 1)),
        'PAUSED,CAMPAIGN_PAUSED': ids(copies.slice(1, 2)),
        'DELETED,ARCHIVED': ids(copies.slice(2)),
        WITH_ISSUES: [],
      },
      ads: {
        default: ids(ads.slice(0, 2)),
        ACTIVE: ids(ads.slice(0, 1)),
        'PAUSED,CAMPAIGN_PAUSED': ids(ads.slice(1, 2)),
        'DELETED,ARCHIVED': ids(ads.slice(2)),
        WITH_ISSUES: [],
      },
      campaignAds: {
        default: ids([...ads.slice(0, 2), ...troubledAds]),
        ACTIVE: ids(ads.slice(0, 1)),
        'PAUSED,CAMPAIGN_PAUSED': ids(ads.slice(1, 2)),
        'DELETED,ARCHIVED': ids(ads.slice(2)),
        WITH_ISSUES: ids(troubledAds),
      },
    };
    const sorted = (list: string[]) => [...list].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const query = `query ($a: ID!, $c: ID!, $s: ID!, $f: [EffectiveStatus!]) {
      adSets(accountId: $a, effectiveStatus: $f, first: 100) { totalCount nodes { id } }
      campaign(id: $c) { ads(effectiveStatus: $f, first: 100) { totalCount nodes { id } } }
      adSet(id: $s) { copies(effectiveStatus: $f, first: 100) { totalCount nodes { id } } ads(effectiveStatus: $f, first: 100) { totalCount nodes { id } } } }`;
    for (const key of ['default', 'ACTIVE', 'PAUSED,CAMPAIGN_PAUSED', 'DELETED,ARCHIVED', 'WITH_ISSUES']) {
      const filter = key === 'default' ? undefined : key.split(',');
      const data = dataOf(await gql(query, { a: account.id, c: campaign.id, s: source.id, f: filter }));
      const rest = async (path: string) => {
        const response = await graph.get(path, tokens.advertiser, {
          fields: 'id',
          limit: 100,
          summary: 'total_count',
          ...(filter ? { effective_status: filter } : {}),
        });
        expect(response.status, response.text).toBe(200);
        return { totalCount: response.body.summary.total_count as number, nodes: (response.body.data as Array<{ id: string }>).map((n) => ({ id: n.id })) };
      };
      const both = {
        account: [data.adSets, await rest(`act_${account.id}/adsets`)],
        campaignAds: [data.campaign.ads, await rest(`${campaign.id}/ads`)],
        copies: [data.adSet.copies, await rest(`${source.id}/copies`)],
        ads: [data.adSet.ads, await rest(`${source.id}/ads`)],
      } as const;
      for (const [edge, [viaGraphql, viaRest]] of Object.entries(both)) {
        expect(viaRest, `${edge} ${key}`).toEqual(viaGraphql);
        expect(sorted(viaGraphql.nodes.map((n: { id: string }) => n.id)), `${edge} ${key}`).toEqual(sorted(expected[edge]![key]!));
        expect(viaGraphql.totalCount, `${edge} ${key}`).toBe(viaGraphql.nodes.length);
      }
    }
    // A status an ad set never has is refused by both, naming the filter (effectiveStatus, effective_status).
    const refused = await gql('query ($a: ID!) { adSets(accountId: $a, effectiveStatus: [ADSET_PAUSED]) { totalCount } }', { a: account.id });
    expect(firstError(refused).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'effectiveStatus' });
    const restRefused = await graph.get(`act_${account.id}/adsets`, tokens.advertiser, { effective_status: ['ADSET_PAUSED'] });
    expect({ status: restRefused.status, code: restRefused.body.error?.code }).toEqual({ status: 400, code: 100 });
  });
});
