import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor, type SdkObject } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import type { AdAccountRecord, AdSetRecord } from '../../src/ads/store.ts';
import type { PageRecord } from '../../src/comments/store.ts';

/**
 * Creatives as objects (issue 21) on every surface, from one service (src/ads/writes/creatives.ts, rules in
 * src/ads/rules/creatives.ts): made with the official SDK's createAdCreative or GraphQL's createAdCreative, listed
 * by the account, by an ad set (the creatives its ads use) and by an ad; an ad shows one by id; renamed, and deleted
 * only once no live ad uses it; another organization's page is refused; another organization sees none of it.
 */
interface SdkCreatives {
  getAdCreatives(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  createAdCreative(fields: string[], params: Record<string, unknown>): Promise<SdkObject>;
}
const sdk = bizSdk as unknown as {
  AdAccount: new (id: string) => SdkCreatives;
  AdSet: new (id: string) => SdkCreatives;
  Ad: new (id: string) => SdkCreatives;
  AdCreative: new (id: string) => { get(fields: string[]): Promise<SdkObject> };
};

let server: TestServer;
let graph: GraphClient;
let token: string;
let outsiderToken: string;
let account: AdAccountRecord;
let adSet: AdSetRecord;
let page: PageRecord;
let foreignPage: PageRecord;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const setup = await world.advertiserWithAccount();
  ({ token, outsiderToken, account } = setup);
  const [campaign] = await world.campaigns(account, 1);
  [adSet] = (await world.adSets(campaign!, 1, () => ({ optimizationGoal: 'LINK_CLICKS', dailyBudget: '2000' }))) as [AdSetRecord];
  page = await world.page(setup.org.id);
  foreignPage = await world.page((await world.organization()).id);
  restoreSdk = pointSdkAt(server.url, token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

const act = () => `act_${account.id}`;
const names = (cursor: SdkCursor) => cursor.map((creative) => creative._data.name as string);
const creativeRows = async () => Number(((await server.deps.db('ad_creatives').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);

describe('ad creatives', () => {
  let linkCreative: string;

  it('the SDK creates a link creative on a page of the organization, reads it, and lists it on the account', async () => {
    const created = await new sdk.AdAccount(act()).createAdCreative([], {
      name: 'Spring link',
      object_story_spec: {
        page_id: page.id,
        link_data: {
          link: 'https://northwind.example/spring',
          message: 'New routes',
          call_to_action: { type: 'LEARN_MORE', value: { link: 'https://northwind.example/more' } },
        },
      },
      url_tags: 'utm_source=adgraph',
    });
    linkCreative = created.id;
    expect(linkCreative).toMatch(/^\d+$/);
    const read = await new sdk.AdCreative(linkCreative).get(['name', 'status', 'object_story_spec', 'url_tags', 'account_id']);
    expect(read._data).toMatchObject({
      name: 'Spring link',
      status: 'ACTIVE',
      url_tags: 'utm_source=adgraph',
      account_id: account.id,
      object_story_spec: { page_id: page.id, link_data: { link: 'https://northwind.example/spring' } },
    });
    expect(names(await new sdk.AdAccount(act()).getAdCreatives(['name']))).toEqual(['Spring link']);
  });

  it("refuses another organization's page, bad links and unknown keys, naming the parameter, and writes nothing", async () => {
    const before = await creativeRows();
    const post = (body: Record<string, unknown>) => graph.call('POST', `/v24.0/${act()}/adcreatives`, { token, json: body });
    expectGraphError(await post({ name: 'Theirs', object_story_spec: { page_id: foreignPage.id } }), {
      status: 400,
      code: 100,
      message: new RegExp(`Page ${foreignPage.id} cannot be used by ad account act_`),
    });
    expectGraphError(await post({ object_story_spec: { page_id: page.id, link_data: { link: 'javascript:alert(1)' } } }), {
      status: 400,
      code: 100,
      message: /object_story_spec\.link_data\.link must be an http or https URL/,
    });
    expectGraphError(await post({ object_story_spec: { page_id: page.id, video_data: {} } }), {
      status: 400,
      code: 100,
      message: /object_story_spec\.video_data is not a field of object_story_spec/,
    });
    expectGraphError(await post({ title: 'x', call_to_action_type: 'PRESS_HERE' }), { status: 400, code: 100, message: /call_to_action_type must be one of/ });
    // An outsider cannot see the account at all.
    expectGraphError(await graph.call('POST', `/v24.0/${act()}/adcreatives`, { token: outsiderToken, json: { title: 'x' } }), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(act(), 'post'),
    });
    expect(await creativeRows()).toBe(before);
  });

  it('an ad shows a creative by id: the ad set and the ad list it, GraphQL reads it typed, and deletion waits for the ads', async () => {
    const ad = await graph.call('POST', `/v24.0/${act()}/ads`, {
      token,
      json: { name: 'Uses link', adset_id: adSet.id, creative: { creative_id: linkCreative } },
    });
    expect(ad.status, JSON.stringify(ad.body)).toBe(200);
    expect(names(await new sdk.AdSet(adSet.id).getAdCreatives(['name']))).toEqual(['Spring link']);
    expect(names(await new sdk.Ad(ad.body.id).getAdCreatives(['name']))).toEqual(['Spring link']);

    const { body } = await server.graphql(
      `query ($ad: ID!, $set: ID!, $act: ID!) {
        ad(id: $ad) { creative { id name urlTags objectStorySpec { pageId page { id } linkData { link message callToAction { type link } } } } }
        adSet(id: $set) { adCreatives { totalCount nodes { id } } }
        adAccount(id: $act) { adCreatives(first: 10) { totalCount nodes { name } } } }`,
      { ad: ad.body.id, set: adSet.id, act: act() },
      token,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      ad: {
        creative: {
          id: linkCreative,
          name: 'Spring link',
          urlTags: 'utm_source=adgraph',
          objectStorySpec: {
            pageId: page.id,
            page: { id: page.id },
            linkData: {
              link: 'https://northwind.example/spring',
              message: 'New routes',
              callToAction: { type: 'LEARN_MORE', link: 'https://northwind.example/more' },
            },
          },
        },
      },
      adSet: { adCreatives: { totalCount: 1, nodes: [{ id: linkCreative }] } },
      adAccount: { adCreatives: { totalCount: 1, nodes: [{ name: 'Spring link' }] } },
    });

    const remove = `mutation ($id: ID!) { deleteAdCreative(id: $id) }`;
    const refused = await server.graphql(remove, { id: linkCreative }, token);
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/cannot be deleted: 1 ad\(s\)/), extensions: { code: 'BAD_USER_INPUT' } });
    await graph.call('POST', `/v24.0/${ad.body.id}`, { token, json: { status: 'DELETED' } });
    const removed = await server.graphql(remove, { id: linkCreative }, token);
    expect(removed.body).toEqual({ data: { deleteAdCreative: true } });
    const after = await server.graphql('query ($id: ID!) { adCreative(id: $id) { status } }', { id: linkCreative }, token);
    expect(after.body.data).toEqual({ adCreative: { status: 'DELETED' } });
  });

  it('GraphQL creates and renames a creative, refusals naming the input path; an outsider reads nothing', async () => {
    const create = `mutation ($act: ID!, $input: CreateAdCreativeInput!) { createAdCreative(accountId: $act, input: $input) { id name title callToActionType objectStorySpec { pageId linkData { link callToAction { type link } } } } }`;
    const refused = await server.graphql(
      create,
      { act: act(), input: { title: 'Bad', objectStorySpec: { pageId: page.id, linkData: { link: 'not a url' } } } },
      token,
    );
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.objectStorySpec.linkData.link' });
    const foreign = await server.graphql(create, { act: act(), input: { title: 'Theirs', objectStorySpec: { pageId: foreignPage.id } } }, token);
    expect(foreign.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.objectStorySpec.pageId' });

    const created = await server.graphql(
      create,
      {
        act: act(),
        input: {
          title: 'Typed',
          callToActionType: 'SHOP_NOW',
          objectStorySpec: {
            pageId: page.id,
            linkData: { link: 'https://northwind.example/', callToAction: { type: 'SHOP_NOW', link: 'https://northwind.example/shop' } },
          },
        },
      },
      token,
    );
    expect(created.body.errors).toBeUndefined();
    const creative = (created.body.data as { createAdCreative: Record<string, unknown> }).createAdCreative;
    expect(creative).toEqual({
      id: expect.stringMatching(/^\d+$/),
      // Named after its title when no name is given.
      name: 'Typed',
      title: 'Typed',
      callToActionType: 'SHOP_NOW',
      objectStorySpec: {
        pageId: page.id,
        linkData: { link: 'https://northwind.example/', callToAction: { type: 'SHOP_NOW', link: 'https://northwind.example/shop' } },
      },
    });
    // The Graph API reads the same story in its own shape.
    const read = await graph.get(creative.id as string, token, { fields: 'object_story_spec' });
    expect(read.body.object_story_spec).toEqual({
      page_id: page.id,
      link_data: { link: 'https://northwind.example/', call_to_action: { type: 'SHOP_NOW', value: { link: 'https://northwind.example/shop' } } },
    });

    const renamed = await server.graphql(
      'mutation ($id: ID!) { updateAdCreative(id: $id, input: { name: "Renamed" }) { name title } }',
      { id: creative.id },
      token,
    );
    expect(renamed.body).toEqual({ data: { updateAdCreative: { name: 'Renamed', title: 'Typed' } } });

    const outsider = await server.graphql('query ($id: ID!) { adCreative(id: $id) { id } node(id: $id) { id } }', { id: creative.id }, outsiderToken);
    expect(outsider.body.data).toEqual({ adCreative: null, node: null });
  });

  it("an ad takes an existing creative by creativeId in GraphQL; naming another account's creative is refused", async () => {
    const world = worldBuilder(server.deps);
    const other = await world.advertiserWithAccount();
    const [theirs] = await world.creatives({ organizationId: other.org.id, accountId: other.account.id }, 1);
    const [mine] = await world.creatives({ organizationId: account.organizationId, accountId: account.id }, 1);
    const create = `mutation ($act: ID!, $input: CreateAdInput!) { createAd(accountId: $act, input: $input) { id creative { id title } } }`;
    const refused = await server.graphql(create, { act: act(), input: { name: 'Borrowed', adSetId: adSet.id, creativeId: theirs!.id } }, token);
    expect(refused.body.errors?.[0]?.message).toMatch(new RegExp(`creative_id must be the id of a creative of ad account ${act()}`));
    const both = await server.graphql(
      create,
      { act: act(), input: { name: 'Both', adSetId: adSet.id, creativeId: mine!.id, creative: { title: 'x' } } },
      token,
    );
    expect(both.body.errors?.[0]?.message).toMatch(/Give creativeId or creative, not both/);
    const ok = await server.graphql(create, { act: act(), input: { name: 'Mine', adSetId: adSet.id, creativeId: mine!.id } }, token);
    expect(ok.body.errors).toBeUndefined();
    expect((ok.body.data as { createAd: unknown }).createAd).toEqual({ id: expect.stringMatching(/^\d+$/), creative: { id: mine!.id, title: 'Creative 1' } });
  });
});
