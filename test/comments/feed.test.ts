import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type GraphQLBody } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { firstError } from '../helpers/api.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { createRequestContext } from '../../src/context/index.ts';
import { resolvePrincipal } from '../../src/http/authenticate.ts';
import { DomainError } from '../../src/errors/index.ts';
import { createFeedPost } from '../../src/comments/writes/posts.ts';
import type { PageRecord } from '../../src/comments/store.ts';

// Posts on a page's feed (issue 5, DECISIONS section 8): who posts as the page and who writes a visitor post,
// the kinds (photo, video, event, review), every parameter's checks, and permissions.

const CREATE_POST = `mutation ($p: ID!, $input: CreatePagePostInput!) {
  createPagePost(pageId: $p, input: $input) {
    id kind message attachment title rating eventStartTime page { id }
    from { __typename ... on Page { id } ... on Person { id } }
  }
}`;

type Who = 'owner' | 'admin' | 'advertiser' | 'moderator' | 'auditor' | 'member' | 'outsider' | 'siteAdmin' | 'pagesClient' | 'readClient' | 'adsClient';

let server: TestServer;
let tokens: Record<Who, string>;
let userIds: Partial<Record<Who, string>>;
let outsiderId: string;
let page: PageRecord;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  const other = await world.organization();
  tokens = {} as Record<Who, string>;
  userIds = {};
  for (const role of ['owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member'] as const) {
    const made = await world.user({ organizationId: org.id, role });
    tokens[role] = made.token;
    userIds[role] = made.user.id;
  }
  const outsider = await world.user({ organizationId: other.id, role: 'admin' });
  tokens.outsider = outsider.token;
  outsiderId = outsider.user.id;
  tokens.siteAdmin = (await world.user({ siteAdmin: true })).token;
  for (const [who, scope] of [
    ['pagesClient', 'pages_manage_engagement'],
    ['readClient', 'pages_read_engagement'],
    ['adsClient', 'ads_management'],
  ] as const) {
    const { client, clientSecret } = await createClient(server.deps, { name: who, scope, organization: org.id });
    tokens[who] = await fetchAccessToken(server.url, client.clientId, clientSecret);
  }
  page = await world.page(org.id);
});
afterAll(() => server?.close());

const post = (input: Record<string, unknown>, who: Who | null = 'admin', pageId = page.id) =>
  server.graphql(CREATE_POST, { p: pageId, input }, who ? tokens[who] : undefined).then((r) => r.body);

function created(body: GraphQLBody): Record<string, any> {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!.createPagePost;
}

const postCount = async () => Number(((await server.deps.db('posts').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
const objectCount = async () => Number(((await server.deps.db('graph_objects').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);

async function expectRefused(body: Promise<GraphQLBody>, code: string, field?: string, message?: RegExp) {
  const [posts, objects] = [await postCount(), await objectCount()];
  const error = firstError(await body);
  expect(error.extensions?.code).toBe(code);
  if (field !== undefined) expect(error.extensions?.field).toBe(field);
  if (message) expect(error.message).toMatch(message);
  expect([await postCount(), await objectCount()]).toEqual([posts, objects]);
}

describe('createPagePost: who the post is by', () => {
  it.each(['owner', 'admin', 'siteAdmin', 'pagesClient'] as const)('%s posts as the page (PAGE_POST from the page)', async (who) => {
    const result = created(await post({ message: `Hello from ${who}` }, who));
    expect(result).toMatchObject({ kind: 'PAGE_POST', message: `Hello from ${who}`, page: { id: page.id }, from: { __typename: 'Page', id: page.id } });
    const row = await server.deps.db('posts').where({ id: result.id }).first();
    expect({ kind: row.kind, user: row.author_user_id, page: String(row.author_page_id), org: row.organization_id }).toEqual({
      kind: 'page_post',
      user: null,
      page: page.id,
      org: page.organizationId,
    });
  });

  // Pages are public (DECISIONS section 6): every signed-in person who does not manage the page writes a visitor post.
  it.each(['advertiser', 'moderator', 'auditor', 'member', 'outsider'] as const)(
    '%s (does not manage the page) writes a VISITOR_POST from the user',
    async (who) => {
      const result = created(await post({ message: `Hi, I am the ${who}` }, who));
      const row = await server.deps.db('posts').where({ id: result.id }).first();
      expect(result).toMatchObject({ kind: 'VISITOR_POST', from: { __typename: 'Person', id: row.author_user_id } });
      expect({ kind: row.kind, user: row.author_user_id, page: row.author_page_id }).toEqual({
        kind: 'visitor_post',
        user: userIds[who] ?? outsiderId,
        page: null,
      });
    },
  );

  it('lists new posts on the page and reads them back', async () => {
    const result = created(await post({ message: 'Listed' }));
    const { body } = await server.graphql(
      'query ($p: ID!, $id: ID!) { page(id: $p) { posts(last: 1) { nodes { id message } } } post(id: $id) { kind } }',
      { p: page.id, id: result.id },
      tokens.advertiser,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ page: { posts: { nodes: [{ id: result.id, message: 'Listed' }] } }, post: { kind: 'PAGE_POST' } });
  });

  it.each([
    // API clients act for their organization only: ads scopes do not reach pages, read scopes do not post.
    ['adsClient', 'NOT_FOUND'],
    ['readClient', 'FORBIDDEN'],
  ] as const)('%s: %s, nothing written', async (who, code) => {
    await expectRefused(post({ message: 'Let me in' }, who), code);
    // Permission comes before the parameters.
    await expectRefused(post({ kind: 'PAGE_POST' }, who), code);
  });

  it('needs a principal; an unknown page, or the id of something else, is NOT_FOUND; a malformed id is BAD_USER_INPUT', async () => {
    await expectRefused(post({ message: 'x' }, null), 'UNAUTHENTICATED');
    await expectRefused(post({ message: 'x' }, 'admin', '999999999999999'), 'NOT_FOUND');
    const other = created(await post({ message: 'a post, not a page' }));
    await expectRefused(post({ message: 'x' }, 'admin', other.id), 'NOT_FOUND');
    await expectRefused(post({ message: 'x' }, 'admin', 'page-1'), 'BAD_USER_INPUT', 'pageId');
  });
});

describe('createPagePost: kinds', () => {
  it('photos and videos carry their link as the attachment', async () => {
    expect(created(await post({ kind: 'PHOTO', link: 'https://cdn.example/p.jpg', message: 'Look' }))).toMatchObject({
      kind: 'PHOTO',
      attachment: { url: 'https://cdn.example/p.jpg' },
      message: 'Look',
      from: { __typename: 'Page' },
    });
    expect(created(await post({ kind: 'VIDEO', link: 'http://cdn.example/v.mp4' }, 'advertiser'))).toMatchObject({
      kind: 'VIDEO',
      attachment: { url: 'http://cdn.example/v.mp4' },
      message: null,
      from: { __typename: 'Person', id: userIds.advertiser },
    });
  });

  it("events are the page's: a title and a start time; a visitor may not create one", async () => {
    expect(created(await post({ kind: 'EVENT', title: 'Trail day', startTime: '2026-06-01T09:00:00Z', message: 'Join us' }))).toMatchObject({
      kind: 'EVENT',
      title: 'Trail day',
      eventStartTime: '2026-06-01T09:00:00.000Z',
      from: { __typename: 'Page', id: page.id },
    });
    await expectRefused(post({ kind: 'EVENT', title: 'Mine', startTime: '2026-06-01T09:00:00Z' }, 'advertiser'), 'FORBIDDEN');
  });

  it("reviews are a person's, even when the person manages the page; an API client cannot write one", async () => {
    expect(created(await post({ kind: 'REVIEW', rating: 5, title: 'Great', message: 'Loved it' }, 'advertiser'))).toMatchObject({
      kind: 'REVIEW',
      rating: 5,
      title: 'Great',
      from: { __typename: 'Person', id: userIds.advertiser },
    });
    expect(created(await post({ kind: 'REVIEW', rating: 4 }, 'admin'))).toMatchObject({ kind: 'REVIEW', from: { __typename: 'Person', id: userIds.admin } });
    await expectRefused(post({ kind: 'REVIEW', rating: 4 }, 'pagesClient'), 'FORBIDDEN');
  });
});

describe('createPagePost: bad input, nothing written', () => {
  // Each error names the input's GraphQL path, and its message names the input's fields and values as GraphQL does.
  it.each([
    [{}, 'input.message', /^Missing message or attachment$/],
    [{ message: '   ' }, 'input.message', /^Missing message or attachment$/],
    [{ message: 'm'.repeat(63_207) }, 'input.message', /^input\.message must be at most 63206 characters$/],
    [{ message: 'nul \u0000' }, 'input.message', /NUL/],
    [{ kind: 'PAGE_POST', message: 'x' }, 'input.kind', /^input\.kind must be one of \{PHOTO, VIDEO, EVENT, REVIEW\}$/],
    [{ kind: 'VISITOR_POST', message: 'x' }, 'input.kind', /must be one of/],
    [{ message: 'x', link: 'ftp://files.example/x' }, 'input.link', /http or https URL/],
    [{ message: 'x', link: 'not a url' }, 'input.link', /http or https URL/],
    [{ message: 'x', link: `https://x.example/${'a'.repeat(2048)}` }, 'input.link', /at most 2048/],
    [{ kind: 'PHOTO', message: 'no picture' }, 'input.link', /^input\.link is required$/],
    [{ kind: 'REVIEW', message: 'no stars' }, 'input.rating', /^input\.rating is required$/],
    [{ kind: 'REVIEW', rating: 6 }, 'input.rating', /^input\.rating must be between 1 and 5$/],
    [{ kind: 'REVIEW', rating: 0 }, 'input.rating', /between 1 and 5/],
    [{ kind: 'EVENT', title: 'No date' }, 'input.startTime', /^input\.startTime is required$/],
    [{ kind: 'EVENT', startTime: '2026-06-01T09:00:00Z' }, 'input.title', /^input\.title is required$/],
    [{ kind: 'EVENT', title: 't'.repeat(256), startTime: '2026-06-01T09:00:00Z' }, 'input.title', /at most 255/],
    [{ message: 'x', title: 'Only for events' }, 'input.title', /only accepted with kind event or review/],
    [{ kind: 'PHOTO', link: 'https://x.example/a.png', rating: 3 }, 'input.rating', /only accepted with kind review/],
    [{ message: 'x', startTime: '2026-06-01T09:00:00Z' }, 'input.startTime', /only accepted with kind event/],
  ])('%j is BAD_USER_INPUT naming %s', async (input, field, message) => {
    await expectRefused(post(input), 'BAD_USER_INPUT', field, message);
  });
});

describe('createFeedPost with raw Graph-style parameters (what /v24.0 calls)', () => {
  it('takes numeric strings and Unix seconds, ignores unknown parameters, and reports error 100 without the (#100) prefix', async () => {
    const viewer = (await resolvePrincipal(server.deps, tokens.owner))!;
    const ctx = createRequestContext(server.deps, { requestId: 'test', viewer });
    const review = await createFeedPost(ctx, page.id, { kind: 'review', rating: '4', access_token: 'x', fields: 'id', published: true });
    expect(review).toMatchObject({ kind: 'review', rating: 4, authorUserId: userIds.owner, authorPageId: null });
    const event = await createFeedPost(ctx, page.id, { kind: 'event', title: 'Launch', start_time: 1780304400 });
    expect(event.eventStartTime!.toISOString()).toBe('2026-06-01T09:00:00.000Z');
    expect(event.authorPageId).toBe(page.id);
    const error = await createFeedPost(ctx, page.id, { message: 12 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'message', message: 'Param message must be a string', graph: { code: 100 } });
    const kindError = await createFeedPost(ctx, page.id, { kind: 'PHOTO', link: 'https://x.example/a.png' }).catch((e: unknown) => e);
    expect(kindError).toMatchObject({ field: 'kind', message: 'Param kind must be one of {photo, video, event, review}' });
  });
});
