import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { createClient } from '../../src/oauth/service.ts';
import { commentExternalId } from '../../src/comments/store.ts';

describe('GraphQL reads', () => {
  let server: TestServer;
  let ids: Record<string, string>;
  let tokens: Record<'admin' | 'moderator' | 'member' | 'outsider' | 'siteAdmin' | 'advertiser', string>;

  beforeAll(async () => {
    server = await startTestServer();
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    const other = await world.organization();
    const admin = await world.user({ organizationId: org.id, role: 'admin' });
    tokens = {
      admin: admin.token,
      advertiser: (await world.user({ organizationId: org.id, role: 'advertiser' })).token,
      moderator: (await world.user({ organizationId: org.id, role: 'moderator' })).token,
      member: (await world.user({ organizationId: org.id, role: 'member' })).token,
      outsider: (await world.user({ organizationId: other.id, role: 'admin' })).token,
      siteAdmin: (await world.user({ siteAdmin: true })).token,
    };
    const account = await world.adAccount(org.id, { currency: 'JPY', country: 'JP' });
    const campaigns = await world.campaigns(account, 7);
    const [adSet] = await world.adSets(campaigns[0]!, 3, (i) => ({ status: (['ACTIVE', 'PAUSED', 'ARCHIVED'] as const)[i]!, dailyBudget: '4000' }));
    const [ad] = await world.ads(adSet!, 1);
    const audience = await world.audience(account);
    const conversion = await world.conversion(account);
    const page = await world.page(org.id);
    const post = await world.post(page, admin.user.id);
    const comment = await world.comment(post);
    const reply = await world.comment(post, { parentId: comment.id, authorUserId: admin.user.id, authorPageId: null });
    const membership = (await server.deps.db('organization_members').where({ user_id: admin.user.id }).first()) as { id: string };
    const { client } = await createClient(server.deps, { name: 'reporting', scope: 'ads_read', organization: org.id });
    ids = {
      org: org.id,
      user: admin.user.id,
      membership: membership.id,
      account: account.id,
      campaign: campaigns[0]!.id,
      lastCampaign: campaigns[6]!.id,
      adSet: adSet!.id,
      ad: ad!.id,
      audience: audience.id,
      conversion: conversion.id,
      page: page.id,
      post: post.id,
      comment: commentExternalId(comment),
      reply: commentExternalId(reply),
      client: client.id,
    };
  });
  afterAll(() => server?.close());

  it.each([
    ['org', 'Organization'],
    ['user', 'User'],
    ['membership', 'OrganizationMember'],
    ['account', 'AdAccount'],
    ['campaign', 'Campaign'],
    ['adSet', 'AdSet'],
    ['ad', 'Ad'],
    ['audience', 'CustomAudience'],
    ['conversion', 'CustomConversion'],
    ['page', 'Page'],
    ['post', 'Post'],
    ['comment', 'Comment'],
    ['client', 'ApiClient'],
  ])('node(id) finds the %s as %s', async (key, typename) => {
    const { body } = await server.graphql('query ($id: ID!) { node(id: $id) { __typename id } }', { id: ids[key] }, tokens.admin);
    expect(body.errors).toBeUndefined();
    expect(body.data!.node).toEqual({ __typename: typename, id: ids[key] });
  });

  it('node(id) takes an ad account as act_<id> too, as adAccount(id) and /v24.0 do (issue 13)', async () => {
    const query = 'query ($id: ID!) { node(id: $id) { __typename id } adAccount(id: $id) { id } }';
    const { body } = await server.graphql(query, { id: `act_${ids.account}` }, tokens.admin);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ node: { __typename: 'AdAccount', id: ids.account }, adAccount: { id: ids.account } });
    // Another organization's account answers like a missing one, on both.
    const outsider = await server.graphql(query, { id: `act_${ids.account}` }, tokens.outsider);
    expect(outsider.body.data).toEqual({ node: null, adAccount: null });
    const malformed = await server.graphql(query, { id: 'act_x1' }, tokens.admin);
    expect(malformed.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
  });

  it('answers an invisible object exactly like a missing one', async () => {
    const query = 'query ($id: ID!) { adSet(id: $id) { id } node(id: $id) { id } }';
    const invisible = await server.graphql(query, { id: ids.adSet }, tokens.outsider);
    const missing = await server.graphql(query, { id: '999999999999999' }, tokens.admin);
    expect(invisible.body).toEqual({ data: { adSet: null, node: null } });
    expect(missing.body).toEqual(invisible.body);
  });

  it.each([
    // role, can read the ad account, can read the page (pages are public), sees the organization
    ['admin', true, true, true],
    ['advertiser', true, true, true],
    ['moderator', false, true, true],
    ['member', false, true, true],
    ['outsider', false, true, false],
    ['siteAdmin', true, true, true],
  ] as const)('%s: ad account %s, page %s, organization %s', async (role, account, page, organization) => {
    const { body } = await server.graphql(
      'query ($a: ID!, $p: ID!, $o: ID!) { adAccount(id: $a) { id } page(id: $p) { id } organization(id: $o) { id adAccounts { totalCount nodes { id } } } }',
      { a: ids.account, p: ids.page, o: ids.org },
      tokens[role],
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.adAccount?.id ?? null).toBe(account ? ids.account : null);
    expect(body.data!.page?.id ?? null).toBe(page ? ids.page : null);
    if (organization) {
      // Lists under a visible parent hold only what the role may read.
      expect(body.data!.organization.adAccounts).toEqual(account ? { totalCount: 1, nodes: [{ id: ids.account }] } : { totalCount: 0, nodes: [] });
    } else {
      expect(body.data!.organization).toBeNull();
    }
  });

  it('resolves the connections between objects', async () => {
    const { body } = await server.graphql(
      `query ($ad: ID!, $comment: ID!) {
        ad(id: $ad) { adSet { name status configuredStatus effectiveStatus dailyBudget campaign { name account { actId currency } } } }
        comment(id: $comment) { id post { id kind page { id } } replies { totalCount nodes { id parent { id } from { __typename ... on Person { id } } } } }
      }`,
      { ad: ids.ad, comment: ids.comment },
      tokens.admin,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.ad.adSet).toEqual({
      name: 'Ad set 1',
      status: 'ACTIVE',
      configuredStatus: 'ACTIVE',
      effectiveStatus: 'ACTIVE',
      dailyBudget: 4000,
      campaign: { name: 'Campaign 1', account: { actId: `act_${ids.account}`, currency: 'JPY' } },
    });
    expect(body.data!.comment).toEqual({
      id: ids.comment,
      post: { id: ids.post, kind: 'VISITOR_POST', page: { id: ids.page } },
      replies: { totalCount: 1, nodes: [{ id: ids.reply, parent: { id: ids.comment }, from: { __typename: 'Person', id: ids.user } }] },
    });
  });

  it('filters ad sets by status', async () => {
    const { body } = await server.graphql(
      'query ($a: ID!) { active: adSets(accountId: $a, status: [ACTIVE]) { totalCount nodes { status } } some: adSets(accountId: $a, status: [PAUSED, ARCHIVED]) { totalCount } all: adSets(accountId: $a) { totalCount } }',
      // Without a filter, lists leave out DELETED and ARCHIVED ad sets (as the platform's edges do).
      { a: `act_${ids.account}` },
      tokens.advertiser,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ active: { totalCount: 1, nodes: [{ status: 'ACTIVE' }] }, some: { totalCount: 2 }, all: { totalCount: 2 } });
  });

  describe('Relay paging', () => {
    const query = `query ($a: ID!, $first: Int, $after: String, $last: Int, $before: String) {
      adAccount(id: $a) { campaigns(first: $first, after: $after, last: $last, before: $before) {
        totalCount nodes { name } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const page = async (variables: Record<string, unknown>) => {
      const { body } = await server.graphql(query, { a: ids.account, ...variables }, tokens.admin);
      expect(body.errors).toBeUndefined();
      return body.data!.adAccount.campaigns as { totalCount: number; nodes: Array<{ name: string }>; pageInfo: Record<string, any> };
    };

    it('visits every item exactly once forward and backward', async () => {
      const forward: string[] = [];
      let after: string | undefined;
      for (;;) {
        const result = await page({ first: 3, after });
        expect(result.totalCount).toBe(7);
        forward.push(...result.nodes.map((n) => n.name));
        if (!result.pageInfo.hasNextPage) break;
        after = result.pageInfo.endCursor;
      }
      expect(forward).toEqual(['Campaign 1', 'Campaign 2', 'Campaign 3', 'Campaign 4', 'Campaign 5', 'Campaign 6', 'Campaign 7']);

      const backward: string[] = [];
      let before: string | undefined;
      for (;;) {
        const result = await page({ last: 3, before });
        backward.unshift(...result.nodes.map((n) => n.name));
        if (!result.pageInfo.hasPreviousPage) break;
        before = result.pageInfo.startCursor;
      }
      expect(backward).toEqual(forward);
    });

    it.each([
      [{ first: 101 }, 'first'],
      [{ last: -1 }, 'last'],
      [{ first: 2, last: 2 }, 'last'],
      [{ after: 'not-a-cursor' }, 'after'],
      [{ before: Buffer.from('c:abc').toString('base64url') }, 'before'],
    ])('rejects %j naming %s', async (variables, field) => {
      const { body } = await server.graphql(query, { a: ids.account, ...variables }, tokens.admin);
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    });
  });

  it('answers queries over GET and refuses mutations there', async () => {
    const query = encodeURIComponent('{ me { id } }');
    const get = await fetch(`${server.url}/graphql?query=${query}`, { headers: { 'service-session-token': tokens.admin } });
    expect(get.status).toBe(200);
    expect(((await get.json()) as { data: { me: { id: string } } }).data.me.id).toBe(ids.user);
    const mutation = await fetch(`${server.url}/graphql?query=${encodeURIComponent('mutation { logout }')}`, {
      headers: { 'service-session-token': tokens.admin },
    });
    expect(mutation.status).toBe(405);
  });

  describe('errors', () => {
    it('needs a principal', async () => {
      const { body } = await server.graphql('{ adAccounts { totalCount } }');
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('refuses an unknown token with 401 and the signed-out message', async () => {
      const { status, body } = await server.graphql('{ me { id } }', {}, 'forged-token');
      expect(status).toBe(401);
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });

    it.each([
      ['adSet', 'abc'],
      ['adSet', '00000000-0000-4000-8000-000000000000'],
      ['user', '42'],
      ['organization', 'acme'],
      ['node', 'zz'],
      ['comment', '1_2_3'],
      ['adAccount', 'act_x'],
    ])('%s(id: %j) is BAD_USER_INPUT on id', async (field, id) => {
      const { body } = await server.graphql(`query ($id: ID!) { ${field}(id: $id) { id } }`, { id }, tokens.admin);
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
      expect(body.data?.[field]).toBeNull();
    });

    it('reports unknown fields and malformed documents without executing', async () => {
      const unknown = await server.graphql('{ me { emal } }', {}, tokens.admin);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors?.[0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      expect(unknown.body.errors?.[0]?.message).toContain('Cannot query field "emal" on type "User"');
      const malformed = await server.graphql('{ me { ', {}, tokens.admin);
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    });

    it('answers a body that is not JSON in GraphQL shape', async () => {
      const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ errors: [{ message: 'Request body must be valid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
    });

    it('refuses queries deeper than the limit', async () => {
      const deep =
        '{ me { memberships { organization { adAccounts { nodes { campaigns { nodes { adSets { nodes { ads { nodes { adSet { campaign { account { name } } } } } } } } } } } } } } }';
      const { status, body } = await server.graphql(deep, {}, tokens.admin);
      expect(status).toBe(400);
      expect(body.errors?.[0]).toEqual({
        message: 'Query is too deep: the limit is 12 levels, this one has 15.',
        extensions: { code: 'QUERY_TOO_DEEP', limit: 12, found: 15 },
      });
      expect(body.data).toBeUndefined();
    });
  });
});
