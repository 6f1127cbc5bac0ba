import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type GraphQLBody } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { principalTokens, type Role } from '../helpers/principals.ts';
import { dataOf, firstError, toDate } from '../helpers/api.ts';
import { createRequestContext, type RequestContext } from '../../src/context/index.ts';
import { resolvePrincipal } from '../../src/http/authenticate.ts';
import { graphError } from '../../src/http/errors/graph.ts';
import { DomainError } from '../../src/errors/index.ts';
import * as campaignWrites from '../../src/ads/writes/campaigns.ts';
import * as adWrites from '../../src/ads/writes/ads.ts';
import * as audienceWrites from '../../src/ads/writes/audiences.ts';

const writes = { ...campaignWrites, ...adWrites, ...audienceWrites };
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../../src/ads/store.ts';

// Writes of campaigns, ads, custom audiences and custom conversions (issue 5, DECISIONS section 8), through
// GraphQL on a real server, and the raw-parameter services the /v24.0 layer calls, on the same database.

const CAMPAIGN_FIELDS = 'id name objective status specialAdCategories bidStrategy buyingType dailyBudget lifetimeBudget startTime stopTime account { id }';
const CREATE_CAMPAIGN = `mutation ($a: ID!, $input: CreateCampaignInput!) { createCampaign(accountId: $a, input: $input) { ${CAMPAIGN_FIELDS} } }`;
const UPDATE_CAMPAIGN = `mutation ($id: ID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${CAMPAIGN_FIELDS} } }`;
const DELETE_CAMPAIGN = 'mutation ($id: ID!) { deleteCampaign(id: $id) }';
const AD_FIELDS = 'id name status creative { id title status } account { id } campaign { id } adSet { id }';
const CREATE_AD = `mutation ($a: ID!, $input: CreateAdInput!) { createAd(accountId: $a, input: $input) { ${AD_FIELDS} } }`;
const UPDATE_AD = `mutation ($id: ID!, $input: UpdateAdInput!) { updateAd(id: $id, input: $input) { ${AD_FIELDS} } }`;
const DELETE_AD = 'mutation ($id: ID!) { deleteAd(id: $id) }';
const CREATE_AUDIENCE = `mutation ($a: ID!, $input: CreateCustomAudienceInput!) {
  createCustomAudience(accountId: $a, input: $input) { id name subtype description lookalikeSpec flaggedReason operationStatus { code description } account { id } } }`;
const CREATE_CONVERSION = `mutation ($a: ID!, $input: CreateCustomConversionInput!) {
  createCustomConversion(accountId: $a, input: $input) { id name rule customEventType flaggedReason account { id } } }`;

const BASE_CAMPAIGN = { name: 'Spring sale', objective: 'OUTCOME_TRAFFIC', specialAdCategories: [] as string[] };

let server: TestServer;
let world: ReturnType<typeof worldBuilder>;
let tokens: Record<Role, string>;
let account: AdAccountRecord;
let otherAccount: AdAccountRecord;
let campaign: CampaignRecord;
let adSet: AdSetRecord;
let foreignAdSet: AdSetRecord;

beforeAll(async () => {
  server = await startTestServer();
  world = worldBuilder(server.deps);
  const org = await world.organization();
  const other = await world.organization();
  tokens = await principalTokens(server, org.id, other.id);
  account = await world.adAccount(org.id);
  otherAccount = await world.adAccount(org.id);
  campaign = (await world.campaigns(account, 1))[0]!;
  adSet = (await world.adSets(campaign, 1))[0]!;
  const [otherCampaign] = await world.campaigns(otherAccount, 1);
  foreignAdSet = (await world.adSets(otherCampaign!, 1))[0]!;
});
afterAll(() => server?.close());

const gql = (query: string, variables: Record<string, unknown>, role: Role | null = 'advertiser') =>
  server.graphql(query, variables, role ? tokens[role] : undefined).then((r) => r.body);

/** Rows of every table these writes touch, to prove a failure wrote nothing (ids included: they are allocated in the write's transaction). */
async function rowCounts() {
  const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return {
    objects: await count('graph_objects'),
    campaigns: await count('campaigns'),
    ads: await count('ads'),
    audiences: await count('custom_audiences'),
    conversions: await count('custom_conversions'),
  };
}

/** Runs a failing write and checks its error code (and field) and that no row changed. */
async function expectRefused(write: () => Promise<GraphQLBody>, code: string, field?: string, message?: string | RegExp) {
  const before = await rowCounts();
  const body = await write();
  const error = firstError(body);
  expect(error.extensions?.code, JSON.stringify(body)).toBe(code);
  if (field !== undefined) expect(error.extensions?.field).toBe(field);
  if (typeof message === 'string') expect(error.message).toBe(message);
  else if (message !== undefined) expect(error.message).toMatch(message);
  expect(await rowCounts()).toEqual(before);
  return error;
}

async function newCampaign(input: Record<string, unknown> = {}, role: Role = 'advertiser') {
  return dataOf(await gql(CREATE_CAMPAIGN, { a: account.id, input: { ...BASE_CAMPAIGN, ...input } }, role)).createCampaign as Record<string, any>;
}

async function newAd(adSetId = adSet.id, input: Record<string, unknown> = {}) {
  return dataOf(await gql(CREATE_AD, { a: account.id, input: { name: 'Ad', adSetId, creative: { title: 'Hi' }, ...input } })).createAd as Record<string, any>;
}

const campaignRow = (id: string) => server.deps.db('campaigns').where({ id }).first();
const LONG_AGO = new Date('2025-01-01T00:00:00Z');

describe('createCampaign', () => {
  it('creates a campaign with every parameter and reads it back', async () => {
    const body = await gql(CREATE_CAMPAIGN, {
      a: `act_${account.id}`,
      input: {
        name: 'Launch',
        objective: 'OUTCOME_SALES',
        status: 'PAUSED',
        specialAdCategories: ['HOUSING', 'CREDIT', 'HOUSING'],
        bidStrategy: 'COST_CAP',
        dailyBudget: 2500,
        startTime: '2026-03-01T00:00:00Z',
        stopTime: '2026-03-31T00:00:00Z',
      },
    });
    const created = dataOf(body).createCampaign;
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'Launch',
      objective: 'OUTCOME_SALES',
      status: 'PAUSED',
      specialAdCategories: ['HOUSING', 'CREDIT'],
      bidStrategy: 'COST_CAP',
      buyingType: 'AUCTION',
      dailyBudget: 2500,
      lifetimeBudget: null,
      startTime: '2026-03-01T00:00:00.000Z',
      stopTime: '2026-03-31T00:00:00.000Z',
      account: { id: account.id },
    });
    const read = dataOf(await gql('query ($id: ID!) { campaign(id: $id) { name status dailyBudget } node(id: $id) { __typename } }', { id: created.id }));
    expect(read).toEqual({ campaign: { name: 'Launch', status: 'PAUSED', dailyBudget: 2500 }, node: { __typename: 'Campaign' } });
    const row = await campaignRow(created.id);
    expect({ account: String(row.account_id), organization: row.organization_id, budget: String(row.daily_budget) }).toEqual({
      account: account.id,
      organization: account.organizationId,
      budget: '2500',
    });
    expect((await server.deps.db('graph_objects').where({ id: created.id }).first()).type).toBe('campaign');
  });

  it('defaults to ACTIVE with no budget, bid strategy or schedule, and takes a lifetime budget instead of a daily one', async () => {
    expect(await newCampaign()).toMatchObject({
      status: 'ACTIVE',
      bidStrategy: null,
      dailyBudget: null,
      lifetimeBudget: null,
      startTime: null,
      stopTime: null,
      specialAdCategories: [],
    });
    expect(await newCampaign({ lifetimeBudget: '9000000000000', specialAdCategories: ['NONE'] })).toMatchObject({
      lifetimeBudget: 9000000000000,
      specialAdCategories: ['NONE'],
    });
  });

  it.each([
    [{ name: '' }, 'input.name', /^input\.name is required$/],
    [{ name: '   ' }, 'input.name', /^input\.name is required$/],
    [{ name: 'x'.repeat(401) }, 'input.name', /^input\.name must be at most 400 characters$/],
    [{ name: 'nul\u0000byte' }, 'input.name', /NUL/],
    // Values outside the GraphQL enums are refused by GraphQL itself, naming where in the variables.
    [
      { objective: 'LINK_CLICKS' },
      undefined,
      /^Variable "\$input" got invalid value "LINK_CLICKS" at "input.objective"; Value "LINK_CLICKS" does not exist in "CampaignObjective" enum\.$/,
    ],
    [
      { specialAdCategories: ['HOUSING', 'PETS'] },
      undefined,
      /^Variable "\$input" got invalid value "PETS" at "input.specialAdCategories\[1\]"; Value "PETS" does not exist in "SpecialAdCategory" enum\.$/,
    ],
    [{ bidStrategy: 'CHEAPEST' }, undefined, /at "input.bidStrategy"; Value "CHEAPEST" does not exist in "BidStrategy" enum/],
    [{ status: 'DELETED' }, 'input.status', /^input\.status DELETED cannot be used on create: only ACTIVE and PAUSED are valid during creation/],
    [{ status: 'ARCHIVED' }, 'input.status', /ARCHIVED cannot be used on create/],
    [{ specialAdCategories: ['NONE', 'CREDIT'] }, 'input.specialAdCategories', /NONE/],
    [{ dailyBudget: 0 }, 'input.dailyBudget', /^input\.dailyBudget must be a positive integer$/],
    [{ lifetimeBudget: -100 }, 'input.lifetimeBudget', /positive integer/],
    // Money is kept exact: at most 2^53 - 1 minor units, which both databases and JSON clients keep.
    [{ dailyBudget: '9223372036854775808' }, 'input.dailyBudget', /^input\.dailyBudget must be at most 9007199254740991$/],
    [{ dailyBudget: '9007199254740992' }, 'input.dailyBudget', /^input\.dailyBudget must be at most 9007199254740991$/],
    [{ dailyBudget: 100, lifetimeBudget: 1000 }, 'input.lifetimeBudget', /Only one of input\.dailyBudget and input\.lifetimeBudget/],
    [{ startTime: '2026-03-02T00:00:00Z', stopTime: '2026-03-01T00:00:00Z' }, 'input.stopTime', /^input\.stopTime must be after input\.startTime$/],
    [{ startTime: '2026-03-02T00:00:00Z', stopTime: '2026-03-02T00:00:00Z' }, 'input.stopTime', /after input\.startTime/],
  ])('refuses %j naming %s, writing nothing', async (input, field, message) => {
    await expectRefused(() => gql(CREATE_CAMPAIGN, { a: account.id, input: { ...BASE_CAMPAIGN, ...input } }), 'BAD_USER_INPUT', field, message);
  });

  it.each([
    ['admin', null],
    ['advertiser', null],
    ['siteAdmin', null],
    ['adsClient', null],
    ['auditor', 'FORBIDDEN'],
    ['adsReadClient', 'FORBIDDEN'],
    ['moderator', 'NOT_FOUND'],
    ['member', 'NOT_FOUND'],
    ['outsider', 'NOT_FOUND'],
    ['pagesClient', 'NOT_FOUND'],
  ] as const)('%s: %s', async (role, code) => {
    const write = () => gql(CREATE_CAMPAIGN, { a: account.id, input: { ...BASE_CAMPAIGN, name: `by ${role}` } }, role);
    if (code === null) expect(dataOf(await write()).createCampaign).toMatchObject({ name: `by ${role}`, account: { id: account.id } });
    else await expectRefused(write, code);
  });

  it('checks permissions before parameters, and needs a principal', async () => {
    await expectRefused(() => gql(CREATE_CAMPAIGN, { a: account.id, input: { ...BASE_CAMPAIGN, name: '' } }, 'auditor'), 'FORBIDDEN');
    await expectRefused(() => gql(CREATE_CAMPAIGN, { a: account.id, input: { ...BASE_CAMPAIGN, name: '' } }, 'outsider'), 'NOT_FOUND');
    await expectRefused(() => gql(CREATE_CAMPAIGN, { a: account.id, input: BASE_CAMPAIGN }, null), 'UNAUTHENTICATED');
  });

  it('answers an unknown account with NOT_FOUND and a malformed one with BAD_USER_INPUT on accountId', async () => {
    await expectRefused(() => gql(CREATE_CAMPAIGN, { a: 'act_999999999999999', input: BASE_CAMPAIGN }, 'admin'), 'NOT_FOUND');
    await expectRefused(() => gql(CREATE_CAMPAIGN, { a: campaign.id, input: BASE_CAMPAIGN }, 'admin'), 'NOT_FOUND');
    await expectRefused(() => gql(CREATE_CAMPAIGN, { a: 'act_x1', input: BASE_CAMPAIGN }, 'admin'), 'BAD_USER_INPUT', 'accountId');
  });
});

describe('updateCampaign', () => {
  it('changes any subset of the parameters and the status, and sets updated_time to the time of the write', async () => {
    const created = await newCampaign({ dailyBudget: 1000, startTime: '2026-04-01T00:00:00Z' });
    // Times far in the past, so only this write can be what moves updated_time.
    await server.deps.db('campaigns').where({ id: created.id }).update({ created_time: LONG_AGO, updated_time: LONG_AGO });
    const sentAt = Date.now();
    const body = await gql(UPDATE_CAMPAIGN, {
      id: created.id,
      input: {
        name: 'Renamed',
        status: 'PAUSED',
        bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
        dailyBudget: 1500,
        stopTime: '2026-05-01T00:00:00Z',
        specialAdCategories: ['EMPLOYMENT'],
      },
    });
    expect(dataOf(body).updateCampaign).toMatchObject({
      id: created.id,
      name: 'Renamed',
      status: 'PAUSED',
      bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
      dailyBudget: 1500,
      startTime: '2026-04-01T00:00:00.000Z',
      stopTime: '2026-05-01T00:00:00.000Z',
      specialAdCategories: ['EMPLOYMENT'],
      objective: 'OUTCOME_TRAFFIC',
    });
    // Omitted and null fields stay as they are; the same objective is no change.
    expect(dataOf(await gql(UPDATE_CAMPAIGN, { id: created.id, input: { objective: 'OUTCOME_TRAFFIC', bidStrategy: null } })).updateCampaign).toMatchObject({
      name: 'Renamed',
      bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
      dailyBudget: 1500,
    });
    const row = await campaignRow(created.id);
    expect(toDate(row.created_time).toISOString()).toBe(LONG_AGO.toISOString());
    expect(toDate(row.updated_time).getTime()).toBeGreaterThanOrEqual(sentAt);
  });

  it.each([
    [
      { objective: 'OUTCOME_SALES' },
      { code: 'BAD_USER_INPUT', field: 'input.objective', graphApi: { code: 100 } },
      'input.objective cannot be changed once the campaign is created',
    ],
    [
      { lifetimeBudget: 5000 },
      { code: 'BAD_USER_INPUT', field: 'input.lifetimeBudget', graphApi: { code: 100 } },
      'Only one of input.dailyBudget and input.lifetimeBudget may be set on a campaign',
    ],
    [
      { stopTime: '2026-03-01T00:00:00Z' },
      { code: 'BAD_USER_INPUT', field: 'input.stopTime', graphApi: { code: 100 } },
      'input.stopTime must be after input.startTime',
    ],
    [{ name: '' }, { code: 'BAD_USER_INPUT', field: 'input.name', graphApi: { code: 100 } }, 'input.name is required'],
    // Not a value of the GraphQL enum: refused by GraphQL itself before any resolver runs.
    [
      { status: 'PENDING' },
      { code: 'BAD_USER_INPUT' },
      'Variable "$input" got invalid value "PENDING" at "input.status"; Value "PENDING" does not exist in "ObjectStatus" enum.',
    ],
  ])('refuses %j with %j and changes nothing', async (input, extensions, message) => {
    const created = await newCampaign({ dailyBudget: 1000, startTime: '2026-04-01T00:00:00Z' });
    const before = await campaignRow(created.id);
    const error = firstError(await gql(UPDATE_CAMPAIGN, { id: created.id, input }));
    expect({ message: error.message, extensions: error.extensions }).toEqual({ message, extensions });
    expect(await campaignRow(created.id)).toEqual(before);
  });

  it('lets an ARCHIVED campaign change only its name and become DELETED', async () => {
    const created = await newCampaign();
    dataOf(await gql(UPDATE_CAMPAIGN, { id: created.id, input: { status: 'ARCHIVED' } }));
    expect(dataOf(await gql(UPDATE_CAMPAIGN, { id: created.id, input: { name: 'Old' } })).updateCampaign).toMatchObject({ name: 'Old', status: 'ARCHIVED' });
    const before = await campaignRow(created.id);
    await expectRefused(() => gql(UPDATE_CAMPAIGN, { id: created.id, input: { status: 'ACTIVE' } }), 'BAD_USER_INPUT', 'input.status', /is ARCHIVED/);
    await expectRefused(
      () => gql(UPDATE_CAMPAIGN, { id: created.id, input: { name: 'New', dailyBudget: 100 } }),
      'BAD_USER_INPUT',
      'input.dailyBudget',
      `input.dailyBudget cannot be changed: campaign ${created.id} is ARCHIVED, and only name may be changed, and the status only to DELETED`,
    );
    expect(await campaignRow(created.id)).toEqual(before);
    expect(dataOf(await gql(UPDATE_CAMPAIGN, { id: created.id, input: { status: 'DELETED' } })).updateCampaign.status).toBe('DELETED');
  });

  it('lets a DELETED campaign change only its name', async () => {
    const created = await newCampaign();
    expect(dataOf(await gql(DELETE_CAMPAIGN, { id: created.id })).deleteCampaign).toBe(true);
    expect(dataOf(await gql(UPDATE_CAMPAIGN, { id: created.id, input: { name: 'Gone' } })).updateCampaign).toMatchObject({ name: 'Gone', status: 'DELETED' });
    await expectRefused(
      () => gql(UPDATE_CAMPAIGN, { id: created.id, input: { status: 'PAUSED' } }),
      'BAD_USER_INPUT',
      'input.status',
      /is DELETED, and only name may be changed/,
    );
    await expectRefused(
      () => gql(UPDATE_CAMPAIGN, { id: created.id, input: { bidStrategy: 'COST_CAP' } }),
      'BAD_USER_INPUT',
      'input.bidStrategy',
      `input.bidStrategy cannot be changed: campaign ${created.id} is DELETED, and only name may be changed`,
    );
    expect(dataOf(await gql(UPDATE_CAMPAIGN, { id: created.id, input: { status: 'DELETED' } })).updateCampaign.status).toBe('DELETED');
  });

  it.each([
    ['auditor', 'FORBIDDEN'],
    ['adsReadClient', 'FORBIDDEN'],
    ['moderator', 'NOT_FOUND'],
    ['member', 'NOT_FOUND'],
    ['outsider', 'NOT_FOUND'],
  ] as const)('%s: %s, nothing changed', async (role, code) => {
    const before = await campaignRow(campaign.id);
    await expectRefused(() => gql(UPDATE_CAMPAIGN, { id: campaign.id, input: { name: 'Hijacked' } }, role), code);
    expect(await campaignRow(campaign.id)).toEqual(before);
  });

  it('answers the id of another type of object, or of nothing, with NOT_FOUND and a malformed id with BAD_USER_INPUT', async () => {
    await expectRefused(() => gql(UPDATE_CAMPAIGN, { id: adSet.id, input: { name: 'x' } }, 'admin'), 'NOT_FOUND');
    await expectRefused(() => gql(UPDATE_CAMPAIGN, { id: '999999999999999', input: { name: 'x' } }, 'admin'), 'NOT_FOUND');
    await expectRefused(() => gql(UPDATE_CAMPAIGN, { id: 'act_1', input: { name: 'x' } }, 'admin'), 'BAD_USER_INPUT', 'id');
  });
});

describe('deleteCampaign', () => {
  it('sets the campaign, its ad sets and its ads to DELETED; all stay readable; deleting again is no error', async () => {
    const created = await newCampaign();
    const record = { ...campaign, id: created.id } as CampaignRecord;
    const sets = await world.adSets(record, 2, (i) => ({ status: i === 0 ? 'ACTIVE' : 'ARCHIVED' }));
    const adsOfSet = await world.ads(sets[0]!, 2);
    expect(dataOf(await gql(DELETE_CAMPAIGN, { id: created.id })).deleteCampaign).toBe(true);
    // Lists leave DELETED objects out unless asked for them; each stays readable by its id.
    const read = dataOf(
      await gql(
        `query ($id: ID!, $ad: ID!) { campaign(id: $id) { status
      adSets { totalCount } ads { totalCount }
      deletedSets: adSets(effectiveStatus: [DELETED]) { nodes { status } } deletedAds: ads(effectiveStatus: [DELETED]) { nodes { status } } }
      ad(id: $ad) { status } }`,
        { id: created.id, ad: adsOfSet[0]!.id },
      ),
    );
    expect(read).toEqual({
      campaign: {
        status: 'DELETED',
        adSets: { totalCount: 0 },
        ads: { totalCount: 0 },
        deletedSets: { nodes: [{ status: 'DELETED' }, { status: 'DELETED' }] },
        deletedAds: { nodes: [{ status: 'DELETED' }, { status: 'DELETED' }] },
      },
      ad: { status: 'DELETED' },
    });
    expect(dataOf(await gql(DELETE_CAMPAIGN, { id: created.id })).deleteCampaign).toBe(true);
  });

  it.each([
    ['auditor', 'FORBIDDEN'],
    ['moderator', 'NOT_FOUND'],
    ['outsider', 'NOT_FOUND'],
  ] as const)('%s: %s, nothing deleted', async (role, code) => {
    await expectRefused(() => gql(DELETE_CAMPAIGN, { id: campaign.id }, role), code);
    expect((await campaignRow(campaign.id)).status).toBe('ACTIVE');
  });
});

describe('createAd', () => {
  it("creates an ad in an ad set of the account, under the ad set's campaign", async () => {
    const body = await gql(CREATE_AD, {
      a: `act_${account.id}`,
      input: { name: 'Hello', adSetId: adSet.id, status: 'PAUSED', creative: { title: 'Spring', body: 'Hello' } },
    });
    const ad = dataOf(body).createAd;
    // A creative given inline is made with the ad, in its account.
    expect(ad).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'Hello',
      status: 'PAUSED',
      creative: { id: expect.stringMatching(/^\d+$/), title: 'Spring', status: 'ACTIVE' },
      account: { id: account.id },
      campaign: { id: campaign.id },
      adSet: { id: adSet.id },
    });
    expect(dataOf(await gql('query ($id: ID!) { ad(id: $id) { name creative { id body } } }', { id: ad.id })).ad).toEqual({
      name: 'Hello',
      creative: { id: ad.creative.id, body: 'Hello' },
    });
    // An existing creative by id (creativeId, or {creative_id} in a string holding a JSON object); the default status is ACTIVE.
    expect(await newAd(adSet.id, { creative: undefined, creativeId: ad.creative.id })).toMatchObject({ status: 'ACTIVE', creative: { id: ad.creative.id } });
    expect(await newAd(adSet.id, { creative: `{"creative_id":"${ad.creative.id}"}` })).toMatchObject({ creative: { id: ad.creative.id } });
  });

  it.each([
    [{ name: '' }, 'input.name', /^input\.name is required$/],
    [{ name: 'y'.repeat(401) }, 'input.name', /^input\.name must be at most 400 characters$/],
    [{ status: 'DELETED' }, 'input.status', /DELETED cannot be used on create: only ACTIVE and PAUSED/],
    [{ creative: [1, 2] }, 'input.creative', /^input\.creative must be a JSON object$/],
    [{ creative: 'not json' }, 'input.creative', /JSON object/],
    [{ creative: { text: 'a'.repeat(70_000) } }, 'input.creative', /at most 65536/],
    [{ adSetId: 'abc' }, 'input.adSetId', /^input\.adSetId must be a valid ID$/],
    [{ adSetId: '999999999999999' }, 'input.adSetId', /must be the id of an ad set of ad account act_/],
  ])('refuses %j naming %s, writing nothing', async (input, field, message) => {
    await expectRefused(
      () => gql(CREATE_AD, { a: account.id, input: { name: 'Ad', adSetId: adSet.id, creative: { title: 'T' }, ...input } }),
      'BAD_USER_INPUT',
      field,
      message,
    );
  });

  it('refuses an id of another type, an ad set of another account, and a deleted or archived ad set, naming adset_id', async () => {
    const create = (adSetId: string) => () => gql(CREATE_AD, { a: account.id, input: { name: 'Ad', adSetId, creative: { title: 'T' } } });
    await expectRefused(create(campaign.id), 'BAD_USER_INPUT', 'input.adSetId', /ad set of ad account/);
    await expectRefused(create(account.id), 'BAD_USER_INPUT', 'input.adSetId');
    await expectRefused(create(foreignAdSet.id), 'BAD_USER_INPUT', 'input.adSetId', new RegExp(`act_${account.id}`));
    const [deleted, archived] = await world.adSets(campaign, 2, (i) => ({ status: i === 0 ? 'DELETED' : 'ARCHIVED' }));
    await expectRefused(create(deleted!.id), 'BAD_USER_INPUT', 'input.adSetId', /DELETED/);
    await expectRefused(create(archived!.id), 'BAD_USER_INPUT', 'input.adSetId', /ARCHIVED/);
  });

  it.each([
    ['auditor', 'FORBIDDEN'],
    ['adsReadClient', 'FORBIDDEN'],
    ['moderator', 'NOT_FOUND'],
    ['member', 'NOT_FOUND'],
    ['outsider', 'NOT_FOUND'],
  ] as const)('%s: %s', async (role, code) => {
    await expectRefused(() => gql(CREATE_AD, { a: account.id, input: { name: 'Ad', adSetId: adSet.id, creative: { title: 'T' } } }, role), code);
  });

  it('holds exactly 50 ads that are not archived or deleted per ad set, under 60 concurrent creates', async () => {
    const [target] = await world.adSets(campaign, 1);
    const liveAds = () =>
      server.deps
        .db('ads')
        .where({ adset_id: target!.id })
        .whereNotIn('status', ['ARCHIVED', 'DELETED'])
        .count({ n: '*' })
        .then((r) => Number((r[0] as { n: number | string }).n));
    const bodies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        gql(
          CREATE_AD,
          { a: account.id, input: { name: `Burst ${i}`, adSetId: target!.id, creative: { title: `Burst ${i}` } } },
          i % 2 ? 'advertiser' : 'adsClient',
        ),
      ),
    );
    const succeeded = bodies.filter((b) => !b.errors);
    const failed = bodies.filter((b) => b.errors);
    expect(succeeded).toHaveLength(50);
    expect(failed).toHaveLength(10);
    for (const body of failed) {
      expect(body.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.adSetId', graphApi: { code: 100 } });
      expect(body.errors![0]!.message).toMatch(/already has 50 ads that are not archived or deleted/);
    }
    expect(await liveAds()).toBe(50);
    expect(
      await server.deps
        .db('graph_objects')
        .whereIn('id', server.deps.db('ads').select('id').where({ adset_id: target!.id }))
        .count({ n: '*' })
        .then((r) => Number((r[0] as { n: number | string }).n)),
    ).toBe(50);

    // Archiving or deleting makes room; archived and deleted ads do not count.
    const [first, second] = succeeded.map((b) => b.data!.createAd.id as string);
    dataOf(await gql(UPDATE_AD, { id: first, input: { status: 'ARCHIVED' } }));
    dataOf(await gql(DELETE_AD, { id: second }));
    await newAd(target!.id);
    await newAd(target!.id);
    await expectRefused(
      () => gql(CREATE_AD, { a: account.id, input: { name: 'One too many', adSetId: target!.id, creative: { title: 'T' } } }),
      'BAD_USER_INPUT',
      'input.adSetId',
    );
    expect(await liveAds()).toBe(50);
  });
});

describe('updateAd and deleteAd', () => {
  it('changes name, status and creative (replacing it)', async () => {
    const ad = await newAd(adSet.id, { creative: { title: 'One' } });
    const updated = dataOf(await gql(UPDATE_AD, { id: ad.id, input: { name: 'Better', status: 'PAUSED', creative: { title: 'Three' } } })).updateAd;
    expect(updated).toMatchObject({ id: ad.id, name: 'Better', status: 'PAUSED', creative: { title: 'Three' }, adSet: { id: adSet.id } });
    expect(updated.creative.id).not.toBe(ad.creative.id);
    expect(dataOf(await gql(UPDATE_AD, { id: ad.id, input: { status: 'ACTIVE', creativeId: ad.creative.id } })).updateAd).toMatchObject({
      name: 'Better',
      status: 'ACTIVE',
      creative: { id: ad.creative.id, title: 'One' },
    });
  });

  it.each([
    [{ name: 'z'.repeat(401) }, 'input.name'],
    [{ creative: 'plain text' }, 'input.creative'],
    [{ name: ' ' }, 'input.name'],
  ])('refuses %j naming %s', async (input, field) => {
    const ad = await newAd();
    const before = await server.deps.db('ads').where({ id: ad.id }).first();
    await expectRefused(() => gql(UPDATE_AD, { id: ad.id, input }), 'BAD_USER_INPUT', field);
    expect(await server.deps.db('ads').where({ id: ad.id }).first()).toEqual(before);
  });

  it('follows the state table: ARCHIVED accepts name and DELETED, DELETED accepts only name', async () => {
    const ad = await newAd();
    dataOf(await gql(UPDATE_AD, { id: ad.id, input: { status: 'ARCHIVED' } }));
    await expectRefused(() => gql(UPDATE_AD, { id: ad.id, input: { status: 'ACTIVE' } }), 'BAD_USER_INPUT', 'input.status', /is ARCHIVED/);
    await expectRefused(
      () => gql(UPDATE_AD, { id: ad.id, input: { creative: { title: 'x' } } }),
      'BAD_USER_INPUT',
      'input.creative',
      `input.creative cannot be changed: ad ${ad.id} is ARCHIVED, and only name may be changed, and the status only to DELETED`,
    );
    expect(dataOf(await gql(UPDATE_AD, { id: ad.id, input: { name: 'Archived ad' } })).updateAd).toMatchObject({ name: 'Archived ad', status: 'ARCHIVED' });
    expect(dataOf(await gql(DELETE_AD, { id: ad.id })).deleteAd).toBe(true);
    expect(dataOf(await gql('query ($id: ID!) { ad(id: $id) { status name } }', { id: ad.id })).ad).toEqual({ status: 'DELETED', name: 'Archived ad' });
    await expectRefused(() => gql(UPDATE_AD, { id: ad.id, input: { status: 'ARCHIVED' } }), 'BAD_USER_INPUT', 'input.status', /is DELETED/);
    expect(dataOf(await gql(UPDATE_AD, { id: ad.id, input: { name: 'Deleted ad' } })).updateAd).toMatchObject({ name: 'Deleted ad', status: 'DELETED' });
    expect(dataOf(await gql(DELETE_AD, { id: ad.id })).deleteAd).toBe(true);
  });

  it.each([
    ['auditor', 'FORBIDDEN'],
    ['moderator', 'NOT_FOUND'],
    ['outsider', 'NOT_FOUND'],
  ] as const)('%s: %s on update and delete', async (role, code) => {
    const ad = await newAd();
    await expectRefused(() => gql(UPDATE_AD, { id: ad.id, input: { name: 'x' } }, role), code);
    await expectRefused(() => gql(DELETE_AD, { id: ad.id }, role), code);
    expect(await server.deps.db('ads').where({ id: ad.id }).first()).toMatchObject({ name: 'Ad', status: 'ACTIVE' });
  });

  it('answers an ad set id given as an ad id with NOT_FOUND', async () => {
    await expectRefused(() => gql(DELETE_AD, { id: adSet.id }, 'admin'), 'NOT_FOUND');
  });
});

describe('createCustomAudience', () => {
  it('creates a custom audience, CUSTOM by default, with operation status 200', async () => {
    const body = await gql(CREATE_AUDIENCE, { a: account.id, input: { name: 'Buyers', description: 'People who bought' } });
    expect(dataOf(body).createCustomAudience).toEqual({
      id: expect.any(String),
      name: 'Buyers',
      subtype: 'CUSTOM',
      description: 'People who bought',
      lookalikeSpec: null,
      flaggedReason: null,
      operationStatus: { code: 200, description: 'Normal' },
      account: { id: account.id },
    });
  });

  it('creates lookalikes from an audience of the account; one of a flagged audience starts with operation status 471', async () => {
    const flagged = await world.audience(account); // flagged 'health' by the platform's review
    const clean = dataOf(await gql(CREATE_AUDIENCE, { a: account.id, input: { name: 'Clean', subtype: 'WEBSITE' } })).createCustomAudience;
    const fromClean = dataOf(
      await gql(CREATE_AUDIENCE, {
        a: account.id,
        input: { name: 'LAL', subtype: 'LOOKALIKE', originAudienceId: clean.id, lookalikeSpec: { ratio: 0.01, country: 'US' } },
      }),
    ).createCustomAudience;
    expect(fromClean).toMatchObject({
      subtype: 'LOOKALIKE',
      lookalikeSpec: { ratio: 0.01, country: 'US', origin_audience_id: clean.id },
      operationStatus: { code: 200 },
    });
    const fromFlagged = dataOf(
      await gql(CREATE_AUDIENCE, {
        a: account.id,
        input: { name: 'LAL 2', subtype: 'LOOKALIKE', lookalikeSpec: { origin_audience_id: flagged.id, type: 'similarity' } },
      }),
    ).createCustomAudience;
    expect(fromFlagged).toMatchObject({
      flaggedReason: null,
      operationStatus: { code: 471, description: expect.stringMatching(/health conditions or financial status/) },
    });
  });

  it.each([
    [{ name: '' }, 'input.name', /required/],
    [{ name: 'n'.repeat(256) }, 'input.name', /at most 255 characters/],
    [{ subtype: 'FRIENDS' }, undefined, /at "input.subtype"; Value "FRIENDS" does not exist in "CustomAudienceSubtype" enum/],
    [{ description: 'd'.repeat(1025) }, 'input.description', /at most 1024/],
    [{ lookalikeSpec: { ratio: 0.1 } }, 'input.lookalikeSpec', /only accepted with subtype LOOKALIKE/],
    [{ subtype: 'LOOKALIKE' }, 'input.lookalikeSpec', /^input\.lookalikeSpec is required$/],
    [{ subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.1 } }, 'input.originAudienceId', /required/],
    [{ subtype: 'LOOKALIKE', lookalikeSpec: { ratio: 0.5 }, originAudienceId: '1' }, 'input.lookalikeSpec', /ratio must be between 0.01 and 0.2/],
    [{ subtype: 'LOOKALIKE', lookalikeSpec: { country: 'usa' }, originAudienceId: '1' }, 'input.lookalikeSpec', /country/],
    [{ subtype: 'LOOKALIKE', lookalikeSpec: 'nope' }, 'input.lookalikeSpec', /JSON object/],
    [{ subtype: 'LOOKALIKE', lookalikeSpec: {}, originAudienceId: '999999999999999' }, 'input.originAudienceId', /custom audience of ad account/],
  ])('refuses %j naming %s, writing nothing', async (input, field, message) => {
    await expectRefused(() => gql(CREATE_AUDIENCE, { a: account.id, input: { name: 'Audience', ...input } }), 'BAD_USER_INPUT', field, message);
  });

  it('refuses a source audience of another account or of another type', async () => {
    const foreign = await world.audience(otherAccount);
    for (const origin of [foreign.id, campaign.id]) {
      await expectRefused(
        () => gql(CREATE_AUDIENCE, { a: account.id, input: { name: 'x', subtype: 'LOOKALIKE', lookalikeSpec: {}, originAudienceId: origin } }),
        'BAD_USER_INPUT',
        'input.originAudienceId',
      );
    }
  });

  it.each([
    ['admin', null],
    ['adsClient', null],
    ['auditor', 'FORBIDDEN'],
    ['moderator', 'NOT_FOUND'],
    ['member', 'NOT_FOUND'],
    ['outsider', 'NOT_FOUND'],
  ] as const)('%s: %s', async (role, code) => {
    const write = () => gql(CREATE_AUDIENCE, { a: account.id, input: { name: `by ${role}` } }, role);
    if (code === null) expect(dataOf(await write()).createCustomAudience.name).toBe(`by ${role}`);
    else await expectRefused(write, code);
  });
});

describe('createCustomConversion', () => {
  it('stores the rule as JSON text, from an object or from a string holding one', async () => {
    const own = await world.adAccount(account.organizationId); // its conversions are exactly the two made here
    const fromObject = dataOf(
      await gql(CREATE_CONVERSION, { a: own.id, input: { name: 'Thanks page', rule: { url: { i_contains: 'thank-you' } }, customEventType: 'PURCHASE' } }),
    ).createCustomConversion;
    expect(fromObject).toEqual({
      id: expect.any(String),
      name: 'Thanks page',
      rule: '{"url":{"i_contains":"thank-you"}}',
      customEventType: 'PURCHASE',
      flaggedReason: null,
      account: { id: own.id },
    });
    const fromString = dataOf(
      await gql(CREATE_CONVERSION, { a: own.id, input: { name: 'Lead', rule: '{ "and": [ {"url": {"i_contains": "lead"}} ] }' } }),
    ).createCustomConversion;
    expect(fromString).toMatchObject({ rule: '{"and":[{"url":{"i_contains":"lead"}}]}', customEventType: null });
    expect(
      dataOf(await gql('query ($a: ID!) { adAccount(id: $a) { customConversions { totalCount nodes { id name } } } }', { a: own.id })).adAccount
        .customConversions,
    ).toEqual({
      totalCount: 2,
      nodes: [
        { id: fromObject.id, name: 'Thanks page' },
        { id: fromString.id, name: 'Lead' },
      ],
    });
  });

  it.each([
    [{ name: '' }, 'input.name', /required/],
    [{ rule: 'url contains thanks' }, 'input.rule', /JSON object/],
    [{ rule: [1, 2] }, 'input.rule', /JSON object/],
    [{ rule: '' }, 'input.rule', /^input\.rule is required$/],
    [{ customEventType: 'BUY' }, undefined, /at "input.customEventType"; Value "BUY" does not exist in "CustomEventType" enum/],
  ])('refuses %j naming %s, writing nothing', async (input, field, message) => {
    await expectRefused(
      () => gql(CREATE_CONVERSION, { a: account.id, input: { name: 'Conversion', rule: { event: 'x' }, ...input } }),
      'BAD_USER_INPUT',
      field,
      message,
    );
  });

  it.each([
    ['advertiser', null],
    ['auditor', 'FORBIDDEN'],
    ['adsReadClient', 'FORBIDDEN'],
    ['moderator', 'NOT_FOUND'],
    ['outsider', 'NOT_FOUND'],
  ] as const)('%s: %s', async (role, code) => {
    const write = () => gql(CREATE_CONVERSION, { a: account.id, input: { name: `by ${role}`, rule: {} } }, role);
    if (code === null) expect(dataOf(await write()).createCustomConversion.name).toBe(`by ${role}`);
    else await expectRefused(write, code);
  });
});

describe('the services with raw Graph-style parameters (what /v24.0 calls)', () => {
  let ctx: RequestContext;
  beforeAll(async () => {
    const viewer = await resolvePrincipal(server.deps, tokens.advertiser);
    ctx = createRequestContext(server.deps, { requestId: 'test', viewer: viewer! });
  });

  /** The service's error for these parameters, asserting it is Graph error 100 naming `field`. */
  async function paramFailure(write: () => Promise<unknown>, field: string): Promise<DomainError> {
    const before = await rowCounts();
    const error = await write().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    const domain = error as DomainError;
    expect({ code: domain.code, field: domain.field, graph: domain.graph }).toEqual({ code: 'BAD_USER_INPUT', field, graph: { code: 100 } });
    expect(domain.message).not.toMatch(/^\(#100\)/);
    expect(await rowCounts()).toEqual(before);
    return domain;
  }

  it('takes numeric strings, Unix seconds, Graph-style offsets and JSON-encoded lists, and ignores unknown parameters', async () => {
    const created = (await writes.createCampaign(ctx, `act_${account.id}`, {
      name: 'Raw',
      objective: 'OUTCOME_LEADS',
      special_ad_categories: '["CREDIT"]',
      daily_budget: '2500',
      start_time: 1767607200,
      stop_time: '2026-02-01T10:00:00+0000',
      access_token: 'ignored',
      fields: 'id,name',
      date_format: 'U',
      execution_options: [],
      colour: 'blue',
    }))!;
    expect(created).toMatchObject({ name: 'Raw', dailyBudget: '2500', specialAdCategories: ['CREDIT'], status: 'ACTIVE', accountId: account.id });
    expect(created.startTime!.toISOString()).toBe('2026-01-05T10:00:00.000Z');
    expect(created.stopTime!.toISOString()).toBe('2026-02-01T10:00:00.000Z');
    const updated = (await writes.updateCampaign(ctx, created.id, { stop_time: '2026-02-01T12:00:00+02:00', lifetime_budget: null, status: 'PAUSED' }))!;
    expect(updated).toMatchObject({ status: 'PAUSED', dailyBudget: '2500', lifetimeBudget: null });
    expect(updated.stopTime!.toISOString()).toBe('2026-02-01T10:00:00.000Z');

    const ad = (await writes.createAd(ctx, account.id, { name: 'Raw ad', adset_id: Number(adSet.id), creative: { title: 'Raw' }, status: 'PAUSED' }))!;
    expect(ad).toMatchObject({ adsetId: adSet.id, campaignId: campaign.id, status: 'PAUSED' });
    await writes.deleteAd(ctx, ad.id);
    expect((await server.deps.db('ads').where({ id: ad.id }).first()).status).toBe('DELETED');
    // Repeating the ad set id on an update is no change.
    expect((await writes.updateAd(ctx, ad.id, { name: 'Renamed', adset_id: adSet.id }))!.name).toBe('Renamed');
  });

  it.each([
    [{ name: 42 }, 'name', 'Param name must be a string'],
    [{ objective: undefined }, 'objective', 'The parameter objective is required'],
    [{ special_ad_categories: undefined }, 'special_ad_categories', 'The parameter special_ad_categories is required'],
    [{ special_ad_categories: 'HOUSING' }, 'special_ad_categories', 'Param special_ad_categories must be an array'],
    [{ daily_budget: 'lots' }, 'daily_budget', 'Param daily_budget must be an integer'],
    [{ daily_budget: 12.5 }, 'daily_budget', "Param daily_budget must be a whole number in the currency's smallest unit or the field's unit, without decimals"],
    [{ daily_budget: true }, 'daily_budget', 'Param daily_budget must be an integer'],
    [{ start_time: 'tomorrow' }, 'start_time', 'Param start_time must be a valid date-time (ISO 8601 or Unix seconds)'],
    [{ start_time: '2026-02-30T00:00:00Z' }, 'start_time', 'Param start_time must be a valid date-time (ISO 8601 or Unix seconds)'],
    [{ stop_time: '2026-01-01T25:00:00Z' }, 'stop_time', 'Param stop_time must be a valid date-time (ISO 8601 or Unix seconds)'],
    [{ stop_time: -5 }, 'stop_time', 'Param stop_time must be a valid date-time (ISO 8601 or Unix seconds)'],
    [{ status: 'active' }, 'status', 'Param status must be one of {ACTIVE, PAUSED}'],
    // The status table's other values are states an object reaches, refused on create with the platform's reason.
    ...(['DELETED', 'ARCHIVED'] as const).map((status): [Record<string, unknown>, string, string] => [
      { status },
      'status',
      `Param status ${status} cannot be used on create: only ACTIVE and PAUSED are valid during creation; create it, then set status to ${status}`,
    ]),
  ])('createCampaign refuses %j with error 100 naming %s', async (override, field, message) => {
    const error = await paramFailure(
      () => writes.createCampaign(ctx, account.id, { name: 'Raw', objective: 'OUTCOME_SALES', special_ad_categories: [], ...override }),
      field,
    );
    expect(error.message).toBe(message);
  });

  it('gives the /v24.0 envelope what it needs: (#100) and the message, 400', async () => {
    const error = await paramFailure(
      () => writes.createCampaign(ctx, account.id, { name: 'n'.repeat(401), objective: 'OUTCOME_SALES', special_ad_categories: [] }),
      'name',
    );
    const { status, body } = graphError(error, 'trace');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ message: '(#100) Param name must be at most 400 characters', type: 'OAuthException', code: 100 });
  });

  it.each([
    [{ adset_id: undefined }, 'adset_id', 'The parameter adset_id is required'],
    [{ adset_id: 12.5 }, 'adset_id', 'Param adset_id must be a valid ID'],
    [{ adset_id: { id: '1' } }, 'adset_id', 'Param adset_id must be a valid ID'],
    [{ creative: undefined }, 'creative', 'The parameter creative is required'],
    [{ creative: 7 }, 'creative', 'Param creative must be a JSON object'],
    [{ creative: { bad: 'nul\u0000' } }, 'creative', 'Param creative must not contain NUL characters'],
    [
      { status: 'ARCHIVED' },
      'status',
      'Param status ARCHIVED cannot be used on create: only ACTIVE and PAUSED are valid during creation; create it, then set status to ARCHIVED',
    ],
  ])('createAd refuses %j with error 100 naming %s', async (override, field, message) => {
    const error = await paramFailure(() => writes.createAd(ctx, account.id, { name: 'Raw', adset_id: adSet.id, creative: { title: 'T' }, ...override }), field);
    expect(error.message).toBe(message);
  });

  it('refuses to move an ad to another ad set', async () => {
    const ad = (await writes.createAd(ctx, account.id, { name: 'Stay', adset_id: adSet.id, creative: { title: 'T' } }))!;
    const [sibling] = await world.adSets(campaign, 1);
    await paramFailure(() => writes.updateAd(ctx, ad.id, { adset_id: sibling!.id }), 'adset_id');
  });

  it('answers a missing account with NOT_FOUND carrying the id as written (the unknown-object error), and forbids with Graph code 200', async () => {
    const missing = await writes.createCampaign(ctx, 'act_999999999999999', {}).catch((e: DomainError) => e);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', detail: 'act_999999999999999', graph: { code: 100, subcode: 33 } });
    const auditor = createRequestContext(server.deps, { requestId: 'test', viewer: (await resolvePrincipal(server.deps, tokens.auditor))! });
    const refused = await writes.createCustomConversion(auditor, account.id, { name: 'x', rule: {} }).catch((e: DomainError) => e);
    expect(refused).toMatchObject({ code: 'FORBIDDEN', graph: { code: 200 } });
  });

  it('custom conversions: rule and custom_event_type types', async () => {
    await paramFailure(() => writes.createCustomConversion(ctx, account.id, { name: 'x', rule: 5 }), 'rule');
    await paramFailure(() => writes.createCustomConversion(ctx, account.id, { name: 'x', rule: {}, custom_event_type: 3 }), 'custom_event_type');
    const ok = await writes.createCustomConversion(ctx, account.id, { name: 'x', rule: { a: 1 }, custom_event_type: 'LEAD' });
    expect(ok).toMatchObject({ rule: '{"a":1}', customEventType: 'LEAD' });
  });
});
