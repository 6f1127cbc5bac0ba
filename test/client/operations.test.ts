import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ClientError, GraphQLClient } from 'graphql-request';
import { Kind, parse, type DocumentNode } from 'graphql';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import * as documents from '../../client/__generated__/graphql.ts';
import {
  AdAccountsDocument,
  AdSetInsightsDocument,
  AdSetFormDocument,
  AdSetsDocument,
  ChangePasswordWithOneTimePasscodeDocument,
  ConvertDateFormatDocument,
  CopyAdSetDocument,
  CreateAdSetDocument,
  EditCommentDocument,
  PostCommentsDocument,
  PublishCommentDocument,
  RequestOneTimePasscodeDocument,
  SetCommentHiddenDocument,
  SignInDocument,
  SignOutDocument,
  UpdateAdSetDocument,
  ViewerDocument,
  type AdSetFieldsFragment,
  type AdSetFormQuery,
  type CreateAdSetInput,
  type UpdateAdSetInput,
  type CommentFieldsFragment,
  type BillingEvent,
  type CopyAdSetMutation,
  type PageInfoFieldsFragment,
} from '../../client/__generated__/graphql.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { eventually } from '../helpers/api.ts';
import { adTree, importEvents } from '../helpers/insights.ts';
import { passcodeFrom } from '../helpers/smtp.ts';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * Every typed document of client/ (issue 13, item 4) sent by a standard GraphQL client (graphql-request) to a live
 * server, as a frontend would send it: variables and results are typed by codegen, so a schema change that breaks
 * an operation fails codegen, the type check of this file, or one of these cases. The first test keeps the cases and
 * client/ in step: an operation without a case here fails it.
 */

let server: TestServer;
let world: ReturnType<typeof worldBuilder>;
/** Operation names the client sent during the current case. */
const sent = new Set<string>();

beforeAll(async () => {
  server = await startTestServer();
  world = worldBuilder(server.deps);
});
afterAll(() => server?.close());

/** A graphql-request client, signed in with a session token when given one. */
function client(token?: string): GraphQLClient {
  return new GraphQLClient(`${server.url}/graphql`, {
    headers: token ? { 'service-session-token': token } : {},
    requestMiddleware: (request) => {
      if (request.operationName) sent.add(request.operationName);
      return request;
    },
  });
}

/** A fresh organization with a member of the given role, so a case sees only what it made. */
async function member(role: 'advertiser' | 'moderator' = 'advertiser') {
  const organization = await world.organization();
  const { user, token } = await world.user({ organizationId: organization.id, role });
  return { organization, user, token };
}

/** A post on a page of a fresh organization, a moderator of the page and a person who comments on it. */
async function commentScene() {
  const { organization, token: moderator } = await member('moderator');
  const commenter = await world.user();
  const page = await world.page(organization.id);
  const post = await world.post(page);
  return { post, moderator, commenter };
}

async function campaignOf(account: AdAccountRecord): Promise<CampaignRecord> {
  const [campaign] = await world.campaigns(account, 1);
  return campaign!;
}

const US = { geoLocations: { countries: ['US'] } };
const nextAfter = (pageInfo: PageInfoFieldsFragment) => pageInfo.endCursor ?? undefined;
const names = (edges: Array<{ node: { name: string } }>) => edges.map((edge) => edge.node.name);
const author = (comment: CommentFieldsFragment) => (comment.from && 'id' in comment.from ? comment.from.id : null);
/** extensions.code of the first GraphQL error a request was refused with. */
const graphqlErrorCode = (error: unknown) => (error instanceof ClientError ? error.response.errors?.[0]?.extensions?.code : undefined);

/** The passcode the server wrote to the outbox for the address (no SMTP_URL in tests). */
async function passcodeFor(email: string): Promise<string> {
  const row = await eventually(() => server.deps.db('email_outbox').where('to_address', email).orderBy('created_at', 'desc').first(), 10_000, 'outbox row');
  return passcodeFrom(row.body_text);
}

/** One case per operation of client/, keyed by operation name; each sends at least its own document. */
const cases: Record<string, () => Promise<void>> = {
  async SignIn() {
    const { user } = await member();
    const { login } = await client().request(SignInDocument, { input: { email: user.email, password: PASSWORD } });
    expect(login.sessionToken).toMatch(/\S{20,}/);
    expect(Date.parse(login.expiresAt)).toBeGreaterThan(Date.now());
    const { me } = await client(login.sessionToken).request(ViewerDocument);
    expect(me?.id).toBe(user.id);
    await expect(client().request(SignInDocument, { input: { email: user.email, password: 'Not-The-Password-1' } })).rejects.toSatisfy(
      (error) => graphqlErrorCode(error) === 'UNAUTHENTICATED',
    );
  },

  async SignOut() {
    const { user } = await member();
    const { login } = await client().request(SignInDocument, { input: { email: user.email, password: PASSWORD } });
    expect(await client(login.sessionToken).request(SignOutDocument)).toEqual({ logout: true });
    await expect(client(login.sessionToken).request(ViewerDocument)).rejects.toSatisfy((error) => graphqlErrorCode(error) === 'UNAUTHENTICATED');
  },

  async Viewer() {
    const { organization, user, token } = await member();
    const { me } = await client(token).request(ViewerDocument);
    expect(me).toEqual({
      id: user.id,
      email: user.email,
      name: user.name,
      memberships: [{ id: expect.any(String), role: 'ADVERTISER', organization: { id: organization.id, name: organization.name } }],
    });
  },

  async RequestOneTimePasscode() {
    const { user } = await member();
    expect(await client().request(RequestOneTimePasscodeDocument, { email: user.email })).toEqual({ requestOneTimePasscode: true });
    expect(await passcodeFor(user.email)).toMatch(/\S{6,}/);
    // An unknown address gets the same answer, and no mail.
    const unknown = `nobody-${Date.now()}@example.com`;
    expect(await client().request(RequestOneTimePasscodeDocument, { email: unknown })).toEqual({ requestOneTimePasscode: true });
    expect(await server.deps.db('email_outbox').where('to_address', unknown)).toEqual([]);
  },

  async ChangePasswordWithOneTimePasscode() {
    const { user } = await member();
    await client().request(RequestOneTimePasscodeDocument, { email: user.email });
    const oneTimePasscode = await passcodeFor(user.email);
    const password = 'Fresh-Passcode-Secret-42';
    const changed = await client().request(ChangePasswordWithOneTimePasscodeDocument, { input: { email: user.email, oneTimePasscode, password } });
    expect(changed).toEqual({ changePasswordWithOneTimePasscode: true });
    const { login } = await client().request(SignInDocument, { input: { email: user.email, password } });
    expect(login.sessionToken).toMatch(/\S{20,}/);
    await expect(client().request(SignInDocument, { input: { email: user.email, password: PASSWORD } })).rejects.toSatisfy(
      (error) => graphqlErrorCode(error) === 'UNAUTHENTICATED',
    );
  },

  async AdAccounts() {
    const { organization, token } = await member();
    const made = [await world.adAccount(organization.id), await world.adAccount(organization.id), await world.adAccount(organization.id)];
    const first = (await client(token).request(AdAccountsDocument, { first: 2 })).adAccounts;
    expect(first.totalCount).toBe(3);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.edges).toHaveLength(2);
    const rest = (await client(token).request(AdAccountsDocument, { first: 2, after: nextAfter(first.pageInfo) })).adAccounts;
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(rest.edges).toHaveLength(1);
    const seen = [...first.edges, ...rest.edges].map((edge) => edge.node);
    expect(seen.map((account) => account.name).sort()).toEqual(made.map((account) => account.name).sort());
    expect(seen.find((account) => account.id === made[0]!.id)).toEqual({
      id: made[0]!.id,
      actId: `act_${made[0]!.id}`,
      name: made[0]!.name,
      currency: 'USD',
      timezoneName: 'Etc/UTC',
      accountStatus: 1,
    });
  },

  async AdSets() {
    const { organization, token } = await member();
    const account = await world.adAccount(organization.id);
    const campaign = await campaignOf(account);
    await world.adSets(campaign, 3);
    await world.adSets(campaign, 1, () => ({ name: 'Paused one', status: 'PAUSED' }));
    const first = (await client(token).request(AdSetsDocument, { accountId: account.id, effectiveStatus: ['ACTIVE'], first: 2 })).adSets;
    expect(first.totalCount).toBe(3);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (
      await client(token).request(AdSetsDocument, { accountId: account.id, effectiveStatus: ['ACTIVE'], first: 2, after: nextAfter(first.pageInfo) })
    ).adSets;
    expect(rest.pageInfo.hasNextPage).toBe(false);
    expect([...names(first.edges), ...names(rest.edges)].sort()).toEqual(['Ad set 1', 'Ad set 2', 'Ad set 3']);
    const paused = (await client(token).request(AdSetsDocument, { accountId: `act_${account.id}`, effectiveStatus: ['PAUSED'] })).adSets;
    expect(paused.edges.map((edge) => [edge.node.name, edge.node.status, edge.node.campaign.id])).toEqual([['Paused one', 'PAUSED', campaign.id]]);
  },

  async AdSetInsights() {
    const { organization, token } = await member();
    const { adSets, ads } = await adTree(world, organization.id, { adsPerAdSet: 2 });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const time = `${yesterday}T12:00:00Z`;
    await importEvents(server.deps, [
      { type: 'impression', ad_id: ads[0]!.id, time, person: 'a', spend: 150 },
      { type: 'impression', ad_id: ads[0]!.id, time, person: 'b', spend: 150 },
      { type: 'impression', ad_id: ads[1]!.id, time, person: 'a', spend: 100 },
      { type: 'click', ad_id: ads[1]!.id, time, person: 'a', link: true },
    ]);
    const input = { level: 'AD' as const, datePreset: 'YESTERDAY' as const };
    const first = (await client(token).request(AdSetInsightsDocument, { adSetId: adSets[0]!.id, input, first: 1 })).adSet!;
    expect(first.insights.pageInfo.hasNextPage).toBe(true);
    expect(first.insights.summary).toEqual({ impressions: 3, reach: 2, spend: '4.00' });
    const rest = (await client(token).request(AdSetInsightsDocument, { adSetId: adSets[0]!.id, input, first: 1, after: nextAfter(first.insights.pageInfo) }))
      .adSet!;
    expect(rest.insights.pageInfo.hasNextPage).toBe(false);
    const rows = [...first.insights.nodes, ...rest.insights.nodes].sort((a, b) => (a.adId ?? '').localeCompare(b.adId ?? ''));
    expect(rows.map((row) => [row.adId, row.impressions, row.spend, row.cpc, row.dateStart])).toEqual([
      [ads[0]!.id, 2, '3.00', null, yesterday],
      [ads[1]!.id, 1, '1.00', '1', yesterday],
    ]);
    expect(rows[1]!.actions).toEqual([{ actionType: 'link_click', value: 1 }]);
  },

  async CreateAdSet() {
    const { organization, token } = await member();
    const account = await world.adAccount(organization.id);
    const campaign = await campaignOf(account);
    const { createAdSet } = await client(token).request(CreateAdSetDocument, {
      accountId: `act_${account.id}`,
      input: {
        name: 'Spring sale',
        campaignId: campaign.id,
        status: 'PAUSED',
        billingEvent: 'IMPRESSIONS',
        optimizationGoal: 'LINK_CLICKS',
        dailyBudget: '5000',
        targeting: US,
        startTime: '2030-01-01T00:00:00.000Z',
      },
    });
    expect(createAdSet).toMatchObject<Partial<AdSetFieldsFragment>>({
      name: 'Spring sale',
      status: 'PAUSED',
      effectiveStatus: 'PAUSED',
      billingEvent: 'IMPRESSIONS',
      optimizationGoal: 'LINK_CLICKS',
      dailyBudget: 5000,
      lifetimeBudget: null,
      startTime: '2030-01-01T00:00:00.000Z',
      sourceAdSetId: null,
      campaign: { id: campaign.id, name: campaign.name },
      issues: [],
    });
    expect(createAdSet.targeting).toMatchObject({ geoLocations: { countries: ['US'], regions: null }, ageMin: null });
    const listed = (await client(token).request(AdSetsDocument, { accountId: account.id })).adSets;
    expect(listed.edges.map((edge) => edge.node)).toEqual([createAdSet]);
  },

  /**
   * Issue 20: a form reads an ad set and sends it back. What AdSetForm reads, less what the form only shows (id,
   * campaignId, updatedTime), IS an UpdateAdSetInput and, with a campaign, a CreateAdSetInput: the type check of
   * this file proves the types agree; the server proves the values do (the ad set reads the same afterwards).
   */
  async AdSetForm() {
    const { organization, token } = await member();
    const account = await world.adAccount(organization.id);
    const campaign = await campaignOf(account);
    const audience = (
      await client(token).request<{ createCustomAudience: { id: string } }>(
        'mutation ($a: ID!) { createCustomAudience(accountId: $a, input: { name: "Buyers" }) { id } }',
        { a: account.id },
      )
    ).createCustomAudience;
    const entity = (id: string, name: string) => ({ id, name });
    const input: CreateAdSetInput = {
      name: 'Form',
      campaignId: campaign.id,
      status: 'PAUSED',
      billingEvent: 'IMPRESSIONS',
      optimizationGoal: 'LINK_CLICKS',
      destinationType: 'WEBSITE',
      targeting: {
        geoLocations: {
          countries: ['US', 'CA'],
          regions: [{ key: '4081', name: 'California' }],
          cities: [{ key: '777934', name: 'Menlo Park', radius: 10, distanceUnit: 'mile' }],
          locationTypes: ['home', 'recent'],
        },
        excludedGeoLocations: { zips: [{ key: 'US:94304' }] },
        ageMin: 21,
        ageMax: 55,
        genders: [1],
        locales: [6, 24],
        customAudiences: [{ id: audience.id }],
        flexibleSpec: [{ interests: [entity('6003139266461', 'Movies')], behaviors: [entity('6002714895372', 'Travellers')] }],
        exclusions: { interests: [entity('6003020834693', 'Gardening')] },
        publisherPlatforms: ['facebook', 'instagram'],
        facebookPositions: ['feed', 'story'],
        instagramPositions: ['stream'],
        devicePlatforms: ['mobile', 'desktop'],
        userOs: ['iOS'],
      },
      promotedObject: { pixelId: '1234567890', customEventType: 'PURCHASE' },
      bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
      bidAmount: 200,
      bidConstraints: { roasAverageFloor: 100 },
      bidAdjustments: { user_groups: { age: { '18-24': 0.9 } } },
      dailyBudget: 5000,
      startTime: '2030-01-01T00:00:00.000Z',
      endTime: '2030-03-01T00:00:00.000Z',
      dsaPayor: 'Acme Payor',
      dsaBeneficiary: 'Acme',
      adlabels: [{ name: 'spring' }],
      attributionSpec: [{ eventType: 'CLICK_THROUGH', windowDays: 7 }],
      frequencyControlSpecs: [{ event: 'IMPRESSIONS', intervalDays: 7, maxFrequency: 2 }],
      adsetSchedule: [{ startMinute: 0, endMinute: 600, days: [1, 2], timezoneType: 'USER' }],
      creativeSequence: ['101', '102'],
      isDynamicCreative: false,
      useNewAppClick: false,
    };
    const created = (await client(token).request(CreateAdSetDocument, { accountId: account.id, input })).createAdSet;
    const read = async (id: string) => (await client(token).request(AdSetFormDocument, { id })).adSet!;
    const before = await read(created.id);
    expect(before).toMatchObject({
      targeting: {
        geoLocations: { countries: ['US', 'CA'], cities: [input.targeting.geoLocations.cities![0]] },
        customAudiences: [{ id: audience.id, name: null }],
      },
      promotedObject: { pixelId: '1234567890', customEventType: 'PURCHASE', pageId: null },
      attributionSpec: [{ eventType: 'CLICK_THROUGH', windowDays: 7 }],
      creativeSequence: ['101', '102'],
      billingEvent: 'IMPRESSIONS',
    });
    // /v24.0 and the store keep the Graph API's shape.
    const stored = await server.deps.db('ad_sets').where({ id: created.id }).first();
    const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
    expect(json(stored.targeting)).toMatchObject({
      geo_locations: { countries: ['US', 'CA'] },
      age_min: 21,
      flexible_spec: [{ interests: [{ id: '6003139266461' }] }],
    });
    expect(json(stored.targeting).age_max).toBe(55);
    expect(json(stored.targeting)).not.toHaveProperty('excluded_custom_audiences');

    // Sent back as it was read: the update changes nothing.
    const formOf = ({ id: _id, campaignId: _campaign, updatedTime: _updated, ...form }: NonNullable<AdSetFormQuery['adSet']>) => form;
    const update: UpdateAdSetInput = formOf(before);
    await client(token).request(UpdateAdSetDocument, { id: created.id, input: update });
    expect(formOf(await read(created.id))).toEqual(formOf(before));
    // And as a new ad set in the same campaign: it reads the same as the one it was read from.
    const again: CreateAdSetInput = { ...formOf(before), campaignId: before.campaignId };
    const copy = (await client(token).request(CreateAdSetDocument, { accountId: account.id, input: again })).createAdSet;
    expect(formOf(await read(copy.id))).toEqual(formOf(before));
  },

  async UpdateAdSet() {
    const { organization, token } = await member();
    const campaign = await campaignOf(await world.adAccount(organization.id));
    const [adSet] = await world.adSets(campaign, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '5000' }));
    const { updateAdSet } = await client(token).request(UpdateAdSetDocument, {
      id: adSet!.id,
      input: { name: 'Renamed', status: 'PAUSED', dailyBudget: 7500 },
    });
    expect(updateAdSet).toMatchObject({ id: adSet!.id, name: 'Renamed', status: 'PAUSED', effectiveStatus: 'PAUSED', dailyBudget: 7500 });
    expect(await server.deps.db('ad_sets').where({ id: adSet!.id }).first()).toMatchObject({ status: 'PAUSED' });
  },

  async CopyAdSet() {
    const { organization, token } = await member();
    const campaign = await campaignOf(await world.adAccount(organization.id));
    const [source] = await world.adSets(campaign, 1, () => ({
      name: 'Original',
      billingEvent: 'IMPRESSIONS',
      optimizationGoal: 'LINK_CLICKS',
      dailyBudget: '5000',
    }));
    const [ad] = await world.ads(source!, 1);
    const { copyAdSet } = await client(token).request(CopyAdSetDocument, {
      id: source!.id,
      input: { deepCopy: true, renameOptions: { renameSuffix: ' (B)' }, statusOption: 'PAUSED' },
    });
    expect(copyAdSet.request).toBeNull();
    const copy = copyAdSet.copiedAdSet!;
    expect(copy).toMatchObject({ name: 'Original (B)', status: 'PAUSED', sourceAdSetId: source!.id, campaign: { id: campaign.id } });
    const copied: CopyAdSetMutation['copyAdSet']['adObjectIds'] = [
      { adObjectType: 'AD_SET', sourceId: source!.id, copiedId: copy.id },
      { adObjectType: 'AD', sourceId: ad!.id, copiedId: expect.stringMatching(/^\d+$/) },
    ];
    expect(copyAdSet.adObjectIds).toEqual(copied);
    // async: true answers a request to poll instead of the copy.
    const queued = (await client(token).request(CopyAdSetDocument, { id: source!.id, async: true })).copyAdSet;
    expect(queued.copiedAdSet).toBeNull();
    expect(queued.request).toEqual({ id: expect.stringMatching(/^\d+$/), status: expect.stringMatching(/^(INITIAL|IN_PROGRESS|SUCCESS)$/) });
  },

  async PostComments() {
    const { post, commenter } = await commentScene();
    for (const message of ['First', 'Second', 'Third']) await world.comment(post, { message, authorUserId: commenter.user.id, authorPageId: null });
    const first = (await client(commenter.token).request(PostCommentsDocument, { postId: post.id, first: 2 })).post!.comments;
    expect(first.totalCount).toBe(3);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (await client(commenter.token).request(PostCommentsDocument, { postId: post.id, first: 2, after: nextAfter(first.pageInfo) })).post!.comments;
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const comments = [...first.edges, ...rest.edges].map((edge) => edge.node);
    expect(comments.map((comment) => comment.message)).toEqual(['First', 'Second', 'Third']);
    expect(comments.map(author)).toEqual([commenter.user.id, commenter.user.id, commenter.user.id]);
    expect(comments[0]!.id).toMatch(new RegExp(`^${post.id}_\\d+$`));
  },

  async PublishComment() {
    const { post, commenter } = await commentScene();
    const { publishComment } = await client(commenter.token).request(PublishCommentDocument, { objectId: post.id, input: { message: 'Looks great' } });
    expect(publishComment).toMatchObject({
      message: 'Looks great',
      isHidden: false,
      likeCount: 0,
      commentCount: 0,
      userLikes: false,
      canRemove: true,
      canHide: null,
    });
    expect(author(publishComment)).toBe(commenter.user.id);
    const reply = (await client(commenter.token).request(PublishCommentDocument, { objectId: publishComment.id, input: { message: 'And a reply' } }))
      .publishComment;
    expect(reply.id).toMatch(new RegExp(`^${post.id}_\\d+$`));
  },

  async EditComment() {
    const { post, commenter } = await commentScene();
    const { publishComment } = await client(commenter.token).request(PublishCommentDocument, { objectId: post.id, input: { message: 'Frist' } });
    const { editComment } = await client(commenter.token).request(EditCommentDocument, { id: publishComment.id, input: { message: 'First' } });
    expect(editComment).toMatchObject({ id: publishComment.id, message: 'First' });
  },

  async SetCommentHidden() {
    const { post, commenter, moderator } = await commentScene();
    const { publishComment } = await client(commenter.token).request(PublishCommentDocument, { objectId: post.id, input: { message: 'Rude' } });
    const hidden = (await client(moderator).request(SetCommentHiddenDocument, { id: publishComment.id, hidden: true })).setCommentHidden;
    expect(hidden).toMatchObject({ id: publishComment.id, isHidden: true, canHide: true });
    const shown = (await client(moderator).request(SetCommentHiddenDocument, { id: publishComment.id, hidden: false })).setCommentHidden;
    expect(shown.isHidden).toBe(false);
  },

  async ConvertDateFormat() {
    const { token } = await member();
    const { convertDateFormat } = await client(token).request(ConvertDateFormatDocument, { format: 'yyyy-MM-dd HH:mm||epoch_millis' });
    expect(convertDateFormat).toMatchObject({ output: 'uuuu-MM-dd HH:mm||uuuu-MM-d HH:mm||epoch_millis', exact: true, lenient: false, usable: true });
    expect(convertDateFormat.parts.map((part) => part.severity)).toEqual(['EXACT', 'EXACT']);
    expect(convertDateFormat.parts[0]!.changes.map((change) => [change.from, change.to])).toContainEqual(['yyyy', 'uuuu']);
    const unsupported = (await client(token).request(ConvertDateFormatDocument, { format: 'YYYY-ww' })).convertDateFormat;
    expect(unsupported).toMatchObject({ output: null, usable: false, bestEffortOutput: 'yyyy-ww' });
    // It needs a session, like every operation but sign-in.
    await expect(client().request(ConvertDateFormatDocument, { format: 'yyyy' })).rejects.toSatisfy((error) => graphqlErrorCode(error) === 'UNAUTHENTICATED');
  },
};

/** Operation names in the client/*.graphql files themselves. */
function operationsInClientFolder(): string[] {
  const folder = new URL('../../client/', import.meta.url);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.graphql'))
    .flatMap((file) => parse(readFileSync(new URL(file, folder), 'utf8')).definitions)
    .flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.name ? [definition.name.value] : []));
}

/** Operation names of the typed documents codegen generated. */
function generatedOperations(): string[] {
  return Object.values(documents as Record<string, unknown>)
    .filter((value): value is DocumentNode => typeof value === 'object' && value !== null && (value as DocumentNode).kind === Kind.DOCUMENT)
    .flatMap((document) => document.definitions)
    .flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.name ? [definition.name.value] : []));
}

describe('typed client operations against a live server', () => {
  it('has one case for every operation in client/, and codegen has a typed document for each', () => {
    const inFolder = operationsInClientFolder().sort();
    expect(inFolder.length).toBeGreaterThan(0);
    expect(Object.keys(cases).sort()).toEqual(inFolder);
    expect(generatedOperations().sort()).toEqual(inFolder);
  });

  it('types variables and results from the schema (checked by tsc, not at run time)', () => {
    expectTypeOf<VariablesOf<typeof CreateAdSetDocument>['input']['billingEvent']>().toEqualTypeOf<BillingEvent>();
    expectTypeOf<ResultOf<typeof AdSetsDocument>['adSets']['edges'][number]['node']>().toEqualTypeOf<AdSetFieldsFragment>();
    expectTypeOf<ResultOf<typeof ViewerDocument>['me']>().toBeNullable();
  });

  it.each(Object.keys(cases))('%s', async (name) => {
    sent.clear();
    await cases[name]!();
    expect([...sent], `the ${name} case must send the ${name} document`).toContain(name);
  });
});
