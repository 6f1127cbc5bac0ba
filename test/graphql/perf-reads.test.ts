import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdAccountRecord, AdSetRecord, ObjectStatus } from '../../src/ads/store.ts';
import type { CommentRecord, PostRecord } from '../../src/comments/store.ts';
import { encodeCursor } from '../../src/db/pagination.ts';
import { countStatements } from '../helpers/database.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * The read path of issue 13: a page costs the page. The statements one request sends do not grow with the
 * parents or the page sizes, on GraphQL and /v24.0; pages from a cursor deep in a list, and pages of many
 * parents read together from one cursor (ad sets of accounts, newest-first comments of posts), hold exactly the
 * right items; and the complexity estimates kept per document still follow the variables.
 */
const STATUSES: ObjectStatus[] = ['ACTIVE', 'PAUSED', 'ACTIVE', 'DELETED', 'ACTIVE', 'ARCHIVED', 'PAUSED'];
const byId = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
const shown = (s: AdSetRecord) => s.status !== 'DELETED' && s.status !== 'ARCHIVED';

let server: TestServer;
let graph: GraphClient;
let token: string;
let viewerToken: string;
let accounts: AdAccountRecord[];
let adSets: AdSetRecord[];
let posts: PostRecord[];
let comments: CommentRecord[];

beforeAll(async () => {
  // The background runner's polling would be counted with the statements.
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  graph = graphClient(server);
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  ({ token } = await world.user({ organizationId: org.id, role: 'admin' }));
  // A signed-in person of no organization reads comments through the hidden-comment filter.
  ({ token: viewerToken } = await world.user());
  accounts = [await world.adAccount(org.id), await world.adAccount(org.id), await world.adAccount(org.id)];
  const campaigns = await Promise.all(accounts.map(async (account) => (await world.campaigns(account, 1))[0]!));
  adSets = [];
  // In rounds, so the accounts' ids interleave; the first account ends up with 63 ad sets, the others 14 and 7.
  for (let round = 0; round < 7; round++) {
    for (const [i, count] of [9, 2, 1].entries()) {
      const sets = await world.adSets(campaigns[i]!, count, (k) => ({ status: STATUSES[(k + round) % STATUSES.length]! }));
      for (const set of sets) await world.ads(set, 2);
      adSets.push(...sets);
    }
  }
  const page = await world.page(org.id);
  posts = [await world.post(page), await world.post(page), await world.post(page)];
  comments = [];
  for (let round = 0; round < 6; round++) {
    for (const post of posts) {
      const comment = await world.comment(post, { isHidden: round % 4 === 3 });
      comments.push(comment);
      if (round % 3 === 1) comments.push(await world.comment(post, { parentId: comment.id }));
    }
  }
  // A session is touched at most once a minute (one more statement): that happens here, before any count.
  await server.graphql('{ me { id } }', {}, token);
  await server.graphql('{ me { id } }', {}, viewerToken);
});
afterAll(() => server?.close());

describe('statements per request', () => {
  const NESTED = `query ($accounts: Int!, $n: Int!) { adAccounts(first: $accounts) { nodes { adSets(first: $n) {
    nodes { name campaign { name } ads(first: 5) { nodes { name } } } } } } }`;

  async function graphqlStatements(accountCount: number, n: number) {
    const { result, statements } = await countStatements(server.deps.db, () => server.graphql(NESTED, { accounts: accountCount, n }, token));
    expect(result.body.errors).toBeUndefined();
    const read = result.body.data!.adAccounts.nodes as Array<{ adSets: { nodes: Array<{ ads: { nodes: unknown[] } }> } }>;
    expect(read).toHaveLength(accountCount);
    expect(read[0]!.adSets.nodes).toHaveLength(Math.min(n, adSets.filter((s) => s.accountId === accounts[0]!.id && shown(s)).length));
    return statements.length;
  }

  it('GraphQL: one account and 5 ad sets, or three accounts and 50 ad sets each, send the same number', async () => {
    const few = await graphqlStatements(1, 5);
    expect(await graphqlStatements(3, 50)).toBe(few);
    expect(await graphqlStatements(3, 5)).toBe(few);
  });

  it('/v24.0: a page of 5 ad sets or of 40, with their campaigns and ads, send the same number', async () => {
    const statementsFor = async (limit: number) => {
      const { result, statements } = await countStatements(server.deps.db, () =>
        graph.get(`act_${accounts[0]!.id}/adsets`, token, { limit, fields: 'name,campaign{name},ads.limit(5){name}' }),
      );
      expect(result.status).toBe(200);
      expect(result.body.data.length).toBe(limit);
      expect(result.body.data.every((s: { ads?: { data: unknown[] } }) => s.ads?.data.length === 2)).toBe(true);
      return statements.length;
    };
    // The account is kept after its first read (src/db/generations.ts): read once before either count.
    await statementsFor(1);
    expect(await statementsFor(40)).toBe(await statementsFor(5));
  });
});

describe('pages from a cursor', () => {
  const listed = (account: AdAccountRecord) =>
    adSets
      .filter((s) => s.accountId === account.id && shown(s))
      .sort(byId)
      .map((s) => s.id);

  it('walks an account to its last page and back on both surfaces, and a deep page read alone is the same page', async () => {
    const expected = listed(accounts[0]!);
    expect(expected.length).toBeGreaterThan(30);
    const query = `query ($a: ID!, $first: Int, $after: String, $last: Int, $before: String) {
      adSets(accountId: $a, first: $first, after: $after, last: $last, before: $before) { nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const gqlPage = async (variables: Record<string, unknown>) => {
      const { body } = await server.graphql(query, { a: accounts[0]!.id, ...variables }, token);
      expect(body.errors).toBeUndefined();
      return body.data!.adSets as {
        nodes: Array<{ id: string }>;
        pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
      };
    };
    const forward: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await gqlPage({ first: 7, after });
      forward.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(forward).toEqual(expected);
    const backward: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await gqlPage({ last: 7, before });
      backward.unshift(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    expect(backward).toEqual(expected);

    // Page 5 of 7, straight from its cursor, on both surfaces.
    const deep = await gqlPage({ first: 7, after: encodeCursor(expected[27]!) });
    expect(deep.nodes.map((n) => n.id)).toEqual(expected.slice(28, 35));
    const rest = await graph.get(`act_${accounts[0]!.id}/adsets`, token, { limit: 7, after: encodeCursor(expected[27]!), fields: 'id' });
    expect(rest.body.data.map((s: { id: string }) => s.id)).toEqual(expected.slice(28, 35));
    const restBack = await graph.get(`act_${accounts[0]!.id}/adsets`, token, { limit: 7, before: encodeCursor(expected[27]!), fields: 'id' });
    expect(restBack.body.data.map((s: { id: string }) => s.id)).toEqual(expected.slice(20, 27));
  });

  it('gives each account its own page from one cursor, forward and backward, in one read', async () => {
    const all = [...adSets].sort(byId);
    for (const cursorAt of [5, 30, 60, all.length - 2]) {
      const cursorId = all[cursorAt]!.id;
      const { body } = await server.graphql(
        `query ($c: String) { adAccounts(first: 3) { nodes { id
        next: adSets(first: 4, after: $c) { nodes { id } pageInfo { hasNextPage hasPreviousPage } }
        previous: adSets(last: 4, before: $c) { nodes { id } pageInfo { hasNextPage hasPreviousPage } } } } }`,
        { c: encodeCursor(cursorId) },
        token,
      );
      expect(body.errors).toBeUndefined();
      const read = body.data!.adAccounts.nodes as Array<{ id: string; next: any; previous: any }>;
      for (const account of accounts) {
        const ids = listed(account);
        const after = ids.filter((id) => BigInt(id) > BigInt(cursorId));
        const before = ids.filter((id) => BigInt(id) < BigInt(cursorId));
        const pages = read.find((a) => a.id === account.id)!;
        expect(pages.next, `after ${cursorAt}`).toEqual({
          nodes: after.slice(0, 4).map((id) => ({ id })),
          pageInfo: { hasNextPage: after.length > 4, hasPreviousPage: true },
        });
        expect(pages.previous, `before ${cursorAt}`).toEqual({
          nodes: before.slice(-4).map((id) => ({ id })),
          pageInfo: { hasNextPage: true, hasPreviousPage: before.length > 4 },
        });
      }
    }
  });

  it('pages newest-first comments of many posts from one cursor, both ways, keeping hidden ones out', async () => {
    // Top-level, visible comments of each post, newest first: what a signed-in person of no organization reads.
    const listedOf = (post: PostRecord) =>
      comments
        .filter((c) => c.postId === post.id && c.parentId === null && !c.isHidden)
        .sort(byId)
        .reverse();
    const all = comments.filter((c) => c.parentId === null).sort(byId);
    const query = `query ($p: ID!, $c: String) { page(id: $p) { posts(first: 3) { nodes { id
      older: comments(order: REVERSE_CHRONOLOGICAL, first: 2, after: $c) { nodes { id } pageInfo { hasNextPage hasPreviousPage } }
      newer: comments(order: REVERSE_CHRONOLOGICAL, last: 2, before: $c) { nodes { id } pageInfo { hasNextPage hasPreviousPage } } } } } }`;
    for (const cursorAt of [2, 7, 12, all.length - 1]) {
      const cursor = all[cursorAt]!;
      const { body } = await server.graphql(query, { p: posts[0]!.pageId, c: encodeCursor(cursor.id) }, viewerToken);
      expect(body.errors).toBeUndefined();
      const read = body.data!.page.posts.nodes as Array<{ id: string; older: any; newer: any }>;
      expect(read).toHaveLength(3);
      for (const post of posts) {
        const list = listedOf(post).map((c) => ({ id: `${c.postId}_${c.id}`, raw: BigInt(c.id) }));
        const older = list.filter((c) => c.raw < BigInt(cursor.id));
        const newer = list.filter((c) => c.raw > BigInt(cursor.id));
        const pages = read.find((p) => p.id === post.id)!;
        expect(pages.older, `older than ${cursorAt}`).toEqual({
          nodes: older.slice(0, 2).map(({ id }) => ({ id })),
          pageInfo: { hasNextPage: older.length > 2, hasPreviousPage: true },
        });
        expect(pages.newer, `newer than ${cursorAt}`).toEqual({
          nodes: newer.slice(-2).map(({ id }) => ({ id })),
          pageInfo: { hasNextPage: true, hasPreviousPage: newer.length > 2 },
        });
      }
    }
  });
});

describe('complexity estimates kept per document', () => {
  it('follow the variables: the same document is refused for a large page and answered for a small one, in any order', async () => {
    const query = 'query ($n: Int) { adAccounts(first: $n) { nodes { campaigns(first: $n) { nodes { adSets(first: $n) { nodes { id } } } } } } }';
    for (const n of [5, 100, 5, 100]) {
      const { status, body } = await server.graphql(query, { n }, token);
      if (n === 5) {
        expect(body.errors, `n = ${n}`).toBeUndefined();
      } else {
        expect(status).toBe(400);
        expect(body.errors?.[0]?.extensions).toMatchObject({
          code: 'QUERY_TOO_COMPLEX',
          measure: 'objects',
          found: 1 + 100 * (1 + (1 + 100 * (1 + (1 + 100 * 1)))),
        });
      }
    }
  });
});
