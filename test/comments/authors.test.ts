import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { dataOf } from '../helpers/api.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import type { CommentRecord, PageRecord, PostRecord } from '../../src/comments/store.ts';
import { displayName } from '../../src/identity/store.ts';

// Issue 13 item 5: a post's or comment's author is one rule (src/comments/rules/authors.ts) that GraphQL `from`
// and /v24.0 `?fields=from` both ask, so the two surfaces name the same author to the same viewer: a page always,
// a person only to the page (its owner, its moderators, its API client) and to that person. (An API client of
// another organization reads no page of this one at all.)

type Viewer = 'owner' | 'moderator' | 'member' | 'pageClient' | 'visitor' | 'otherOrg';

let server: TestServer;
let g: GraphClient;
const tokens = {} as Record<Viewer, string>;
let visitor: { id: string; name: string };
let page: PageRecord;
let visitorPost: PostRecord;
let pagePost: PostRecord;
let visitorComment: CommentRecord;

beforeAll(async () => {
  server = await startTestServer();
  g = graphClient(server);
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  const other = await world.organization();
  for (const role of ['owner', 'moderator', 'member'] as const) tokens[role] = (await world.user({ organizationId: org.id, role })).token;
  const signedUp = await world.user({ organizationId: other.id, role: 'admin' });
  tokens.visitor = signedUp.token;
  visitor = { id: signedUp.user.id, name: displayName(signedUp.user) };
  tokens.otherOrg = (await world.user({ organizationId: other.id, role: 'member' })).token;
  const { client, clientSecret } = await createClient(server.deps, {
    name: 'page',
    scope: 'pages_manage_engagement pages_read_engagement',
    organization: org.id,
  });
  tokens.pageClient = await fetchAccessToken(server.url, client.clientId, clientSecret);
  page = await world.page(org.id);
  pagePost = await world.post(page);
  visitorPost = await world.post(page, visitor.id);
  visitorComment = await world.comment(pagePost, { authorUserId: visitor.id, authorPageId: null });
});
afterAll(() => server?.close());

const AUTHOR = '__typename ... on Person { id name } ... on Page { id name }';

/** GraphQL's author as /v24.0 prints one: {id, name}, or null. */
const printed = (from: { __typename: string; id: string; name: string } | null) => (from ? { id: from.id, name: from.name } : null);

async function bothSurfaces(objectId: string, viewer: Viewer, kind: 'post' | 'comment') {
  const query = `query ($id: ID!) { ${kind}(id: $id) { from { ${AUTHOR} } } }`;
  const graphql = printed(dataOf((await server.graphql(query, { id: objectId }, tokens[viewer])).body)[kind].from);
  const response = await g.get(objectId, tokens[viewer], { fields: 'from' });
  expect(response.status, response.text).toBe(200);
  return { graphql, rest: response.body.from ?? null };
}

describe('a visitor post names its writer to the page and to the writer only, on both surfaces', () => {
  it.each([
    ['owner', true],
    ['moderator', true],
    ['pageClient', true],
    ['visitor', true],
    ['member', false],
    ['otherOrg', false],
  ] as const)('%s: named %s', async (viewer, named) => {
    const { graphql, rest } = await bothSurfaces(visitorPost.id, viewer, 'post');
    expect(graphql).toEqual(rest);
    expect(rest).toEqual(named ? visitor : null);
  });

  it('the feed lists agree with the post read by id', async () => {
    for (const viewer of ['owner', 'otherOrg'] as const) {
      const listed = dataOf(
        (await server.graphql(`query ($p: ID!) { page(id: $p) { posts { nodes { id from { ${AUTHOR} } } } } }`, { p: page.id }, tokens[viewer])).body,
      );
      const graphql = Object.fromEntries(listed.page.posts.nodes.map((node: any) => [node.id, printed(node.from)]));
      const feed = await g.get(`${page.id}/feed`, tokens[viewer], { fields: 'from' });
      const rest = Object.fromEntries((feed.body.data as Array<{ id: string; from?: unknown }>).map((item) => [item.id, item.from ?? null]));
      expect(graphql).toEqual(rest);
      expect(rest[visitorPost.id]).toEqual(viewer === 'owner' ? visitor : null);
    }
  });
});

describe("the page's own post and a visitor's comment follow the same rule", () => {
  it.each(['owner', 'pageClient', 'member', 'visitor', 'otherOrg'] as const)("%s reads the page as the page post's author", async (viewer) => {
    const { graphql, rest } = await bothSurfaces(pagePost.id, viewer, 'post');
    expect(graphql).toEqual(rest);
    expect(rest).toEqual({ id: page.id, name: page.name });
  });

  it.each([
    ['owner', true],
    ['pageClient', true],
    ['visitor', true],
    ['member', false],
    ['otherOrg', false],
  ] as const)("the visitor's comment, read by %s: named %s", async (viewer, named) => {
    const { graphql, rest } = await bothSurfaces(`${visitorComment.postId}_${visitorComment.id}`, viewer, 'comment');
    expect(graphql).toEqual(rest);
    expect(rest).toEqual(named ? visitor : null);
  });
});
