import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { PAGE_CLIENT_SCOPES, pageCast, type PageRole } from '../helpers/principals.ts';
import { expectGraphError, graphClient, ISO_TIME, UNKNOWN_OBJECT, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { dataOf, firstError, toDate } from '../helpers/api.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { insertLikes, type CommentRecord, type PageRecord, type PostKind, type PostRecord } from '../../src/comments/store.ts';

// Reading comments end to end (issue 10, DECISIONS section 6, the comment half of the specification): GET
// /v24.0/<comment id> with every field of the comment table computed for each kind of viewer, the edges
// /comments, /likes and /reactions, GET /<post>/comments on every kind of post, who sees a hidden comment (by id,
// in edges, in counts), the id forms; and the same reads through GraphQL, agreeing with /v24.0.

type Person = PageRole | 'siteAdmin' | 'postAuthor' | 'commenter' | 'tagged' | 'replier' | 'stranger' | 'outsider';
/** API clients of the page's organization by their scopes, and a full page token of another organization. */
type Client = 'pageClient' | 'engagementClient' | 'manageClient' | 'readClient' | 'readUserContentClient' | 'adsClient' | 'foreignClient';
type Viewer = Person | Client;

const ALL_FIELDS = [
  'id',
  'attachment',
  'can_comment',
  'can_remove',
  'can_hide',
  'can_like',
  'can_reply_privately',
  'comment_count',
  'created_time',
  'from',
  'like_count',
  'message',
  'message_tags',
  'object',
  'parent',
  'user_likes',
  'is_hidden',
  'permalink_url',
].join(',');

const GQL_COMMENT = `id message messageTags { id name type offset length } attachment isHidden commentCount likeCount userLikes
  canComment canRemove canHide canLike canReplyPrivately from { __typename ... on Person { id } ... on Page { id name } }
  object { id } parent { id } permalinkUrl createdTime`;

let server: TestServer;
let g: GraphClient;
let world: ReturnType<typeof worldBuilder>;
const tokens = {} as Record<Viewer, string>;
const people = {} as Record<Person, { id: string; name: string }>;
let page: PageRecord;
let otherPage: PageRecord;

const insertPost = (kind: PostKind, author: { userId: string } | { pageId: string }, onPage = page) => world.postOfKind(kind, onPage, author);

const byPage = (p: PageRecord = page) => ({ authorUserId: null, authorPageId: p.id });
const byPerson = (who: Person) => ({ authorUserId: people[who].id, authorPageId: null });
const externalId = (comment: Pick<CommentRecord, 'postId' | 'id'>) => `${comment.postId}_${comment.id}`;
const tagOf = (who: Person) => ({ id: people[who].id, name: people[who].name, type: 'user' as const, offset: 0, length: [...people[who].name].length });

async function like(comment: CommentRecord, liker: { userId: string } | { pageId: string }) {
  await server.deps.db.transaction((trx) => insertLikes(trx, [{ commentId: comment.id, ...liker }]));
}

const gql = (query: string, variables: Record<string, unknown>, viewer: Viewer) => server.graphql(query, variables, tokens[viewer]).then((r) => r.body);
const ids = (response: GraphHttpResponse) => {
  expect(response.status, response.text).toBe(200);
  return (response.body.data as Array<{ id: string }>).map((item) => item.id);
};
/** The error body with its trace id taken out: what must not differ between a missing and an invisible object. */
const withoutTrace = (response: GraphHttpResponse) => response.text.replaceAll(response.body.error.fbtrace_id, '<trace>');

beforeAll(async () => {
  server = await startTestServer();
  g = graphClient(server);
  world = worldBuilder(server.deps);
  const org = await world.organization();
  const otherOrg = await world.organization();
  const cast = await pageCast(
    server,
    org.id,
    ['postAuthor', 'commenter', 'tagged', 'replier', 'stranger'] as const,
    ['pageClient', 'engagementClient', 'manageClient', 'readClient', 'readUserContentClient', 'adsClient'] as const,
  );
  Object.assign(tokens, cast.clientTokens);
  for (const [who, signed] of Object.entries(cast.people)) {
    people[who as Person] = { id: signed.id, name: signed.name };
    tokens[who as Person] = signed.token;
  }
  const outsider = await world.user({ organizationId: otherOrg.id, role: 'admin' });
  people.outsider = { id: outsider.user.id, name: outsider.user.name || outsider.user.username };
  tokens.outsider = outsider.token;
  const { client, clientSecret } = await createClient(server.deps, { name: 'foreign', scope: PAGE_CLIENT_SCOPES.pageClient, organization: otherOrg.id });
  tokens.foreignClient = await fetchAccessToken(server.url, client.clientId, clientSecret);
  page = await world.page(org.id);
  otherPage = await world.page(otherOrg.id);
});
afterAll(() => server?.close());

describe('GET /v24.0/<comment id>: every field, computed for the viewer', () => {
  let post: PostRecord;
  let comment: CommentRecord;
  let reply: CommentRecord;
  let pageComment: CommentRecord;

  beforeAll(async () => {
    post = await insertPost('page_post', { pageId: page.id });
    comment = await world.comment(post, {
      ...byPerson('commenter'),
      message: `${people.tagged.name} look`,
      messageTags: [tagOf('tagged')],
      attachment: { type: 'photo', url: 'https://cdn.example/c.png' },
    });
    reply = await world.comment(post, { ...byPage(), parentId: comment.id, message: 'Thanks!' });
    pageComment = await world.comment(post, { ...byPage(), message: 'Welcome all' });
    await like(comment, { userId: people.admin.id });
    await like(comment, { pageId: page.id });
  });

  // A person's top-level comment on a page post (hideable), liked by the admin and by the page, with one reply.
  // can_hide and can_reply_privately are page views (admins, moderators, the page's API clients); `from` of a
  // person is shown to the page and to the person; user_likes is the viewer's (the page's, for a page token).
  type Flags = { comment: boolean; remove: boolean; like: boolean; hide?: boolean; replyPrivately?: boolean; from: boolean; likes: boolean };
  const person = (flags: Partial<Flags> = {}): Flags => ({ comment: true, remove: false, like: true, from: false, likes: false, ...flags });
  const pageView = (flags: Partial<Flags> = {}): Flags => person({ remove: true, hide: true, replyPrivately: true, from: true, ...flags });
  const rows: Array<[Viewer, Flags]> = [
    ['commenter', person({ remove: true, from: true })],
    ['postAuthor', person()],
    ['tagged', person()],
    ['stranger', person()],
    ['outsider', person()],
    ['advertiser', person()],
    ['auditor', person()],
    ['moderator', pageView()],
    ['admin', pageView({ likes: true })],
    ['owner', pageView()],
    ['siteAdmin', pageView()],
    ['pageClient', pageView({ likes: true })],
    // Deleting a person's comment needs pages_read_user_content as well.
    ['engagementClient', pageView({ likes: true, remove: false })],
    // Hiding is an update (POST /<comment>), which needs pages_read_engagement as well: the page may not hide with this token.
    ['manageClient', pageView({ likes: true, remove: false, hide: false })],
    ['readClient', person({ comment: false, like: false })],
    ['readUserContentClient', person({ comment: false, like: false })],
  ];

  it.each(rows)('%s', async (viewer, flags) => {
    const response = await g.get(externalId(comment), tokens[viewer], { fields: ALL_FIELDS });
    expect(response.status, response.text).toBe(200);
    const row = await server.deps.db('comments').where({ id: comment.id }).first();
    expect(response.body).toEqual({
      id: externalId(comment),
      attachment: { type: 'photo', url: 'https://cdn.example/c.png' },
      can_comment: flags.comment,
      can_remove: flags.remove,
      ...(flags.hide !== undefined ? { can_hide: flags.hide } : {}),
      can_like: flags.like,
      ...(flags.replyPrivately !== undefined ? { can_reply_privately: flags.replyPrivately } : {}),
      comment_count: 1,
      created_time: expect.stringMatching(ISO_TIME),
      ...(flags.from ? { from: { id: people.commenter.id, name: people.commenter.name } } : {}),
      like_count: 2,
      message: `${people.tagged.name} look`,
      message_tags: [{ id: people.tagged.id, name: people.tagged.name, type: 'user', offset: 0, length: [...people.tagged.name].length }],
      user_likes: flags.likes,
      is_hidden: false,
      permalink_url: `${server.deps.config.publicUrl}/${post.id}?comment_id=${comment.id}`,
    });
    const created = toDate(row.created_time);
    expect(Date.parse(response.body.created_time.replace('+0000', 'Z'))).toBe(Math.floor(created.getTime() / 1000) * 1000);

    // GraphQL: the same answers in camelCase; what /v24.0 leaves out is null.
    const data = dataOf(await gql(`query ($id: ID!) { comment(id: $id) { ${GQL_COMMENT} } }`, { id: externalId(comment) }, viewer)).comment;
    expect(data).toEqual({
      id: externalId(comment),
      message: response.body.message,
      messageTags: [{ id: people.tagged.id, name: people.tagged.name, type: 'USER', offset: 0, length: [...people.tagged.name].length }],
      attachment: response.body.attachment,
      isHidden: false,
      commentCount: 1,
      likeCount: 2,
      userLikes: flags.likes,
      canComment: flags.comment,
      canRemove: flags.remove,
      canHide: flags.hide ?? null,
      canLike: flags.like,
      canReplyPrivately: flags.replyPrivately ?? null,
      from: flags.from ? { __typename: 'Person', id: people.commenter.id } : null,
      object: null,
      parent: null,
      permalinkUrl: response.body.permalink_url,
      createdTime: expect.any(String),
    });
    expect(Date.parse(data.createdTime)).toBe(created.getTime());
  });

  it.each([
    ['stranger', person({ comment: false })],
    ['moderator', pageView({ comment: false, hide: false, replyPrivately: false })],
    ['pageClient', pageView({ comment: false, hide: false, replyPrivately: false })],
    ['engagementClient', pageView({ comment: false, hide: false, replyPrivately: false })],
  ] as Array<[Viewer, Flags]>)(
    'a reply by the page, seen by the %s: parent, the page as `from` for everyone, no replies to it, not hideable',
    async (viewer, flags) => {
      const response = await g.get(externalId(reply), tokens[viewer], { fields: ALL_FIELDS });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        id: externalId(reply),
        can_comment: false,
        can_remove: flags.remove,
        ...(flags.hide !== undefined ? { can_hide: false } : {}),
        can_like: true,
        ...(flags.replyPrivately !== undefined ? { can_reply_privately: false } : {}),
        comment_count: 0,
        created_time: expect.stringMatching(ISO_TIME),
        from: { id: page.id, name: page.name },
        like_count: 0,
        message: 'Thanks!',
        parent: { id: externalId(comment) },
        user_likes: false,
        is_hidden: false,
        permalink_url: `${server.deps.config.publicUrl}/${post.id}?comment_id=${reply.id}`,
      });
      expect((await g.get(externalId(reply), tokens[viewer], { fields: 'parent{id,message,from}' })).body).toEqual({
        id: externalId(reply),
        parent: {
          id: externalId(comment),
          message: `${people.tagged.name} look`,
          ...(flags.from ? { from: { id: people.commenter.id, name: people.commenter.name } } : {}),
        },
      });
      const data = dataOf(
        await gql(
          `query ($id: ID!) { comment(id: $id) { canComment canHide canReplyPrivately from { __typename ... on Page { id name } } parent { id } } }`,
          { id: externalId(reply) },
          viewer,
        ),
      ).comment;
      expect(data).toEqual({
        canComment: false,
        canHide: flags.hide !== undefined ? false : null,
        canReplyPrivately: flags.replyPrivately !== undefined ? false : null,
        from: { __typename: 'Page', id: page.id, name: page.name },
        parent: { id: externalId(comment) },
      });
    },
  );

  it.each(['moderator', 'pageClient', 'stranger'] as const)(
    "the page's own top-level comment, seen by the %s: not hideable, no private reply",
    async (viewer) => {
      const response = await g.get(externalId(pageComment), tokens[viewer], {
        fields: 'can_comment,can_hide,can_reply_privately,from,comment_count,like_count',
      });
      const pageViews = viewer === 'stranger' ? {} : { can_hide: false, can_reply_privately: false };
      expect(response.body).toEqual({
        id: externalId(pageComment),
        can_comment: true,
        ...pageViews,
        from: { id: page.id, name: page.name },
        comment_count: 0,
        like_count: 0,
      });
    },
  );

  // Another page's comment is not the page's own: removing it is the pages_read_user_content case, and the page may hide it.
  it.each([
    ['stranger', { can_comment: true, can_remove: false, can_like: true }],
    ['moderator', { can_comment: true, can_remove: true, can_hide: true, can_like: true, can_reply_privately: false }],
    ['pageClient', { can_comment: true, can_remove: true, can_hide: true, can_like: true, can_reply_privately: false }],
    ['engagementClient', { can_comment: true, can_remove: false, can_hide: true, can_like: true, can_reply_privately: false }],
  ] as Array<[Viewer, Record<string, boolean>]>)("another page's comment, seen by the %s", async (viewer, flags) => {
    const foreign = await world.comment(post, { ...byPage(otherPage), message: 'Hello neighbours' });
    const response = await g.get(externalId(foreign), tokens[viewer], { fields: 'can_comment,can_remove,can_hide,can_like,can_reply_privately,from' });
    expect(response.body).toEqual({ id: externalId(foreign), ...flags, from: { id: otherPage.id, name: otherPage.name } });
    const data = dataOf(
      await gql('query ($id: ID!) { comment(id: $id) { canRemove canHide from { __typename ... on Page { id } } } }', { id: externalId(foreign) }, viewer),
    ).comment;
    expect(data).toEqual({ canRemove: flags.can_remove, canHide: flags.can_hide ?? null, from: { __typename: 'Page', id: otherPage.id } });
  });

  it('without fields a comment is its id; an unknown field is error 100 naming it and the node type', async () => {
    const bare = await g.get(externalId(comment), tokens.stranger);
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual({ id: externalId(comment) });
    expectGraphError(await g.get(externalId(comment), tokens.stranger, { fields: 'message,nonsense' }), {
      status: 400,
      code: 100,
      message: '(#100) Tried accessing nonexisting field (nonsense) on node type (Comment)',
    });
  });

  it('needs a valid token: none or a bad one is error 190', async () => {
    expectGraphError(await g.get(externalId(comment), undefined), { status: 400, code: 190, type: 'OAuthException' });
    expectGraphError(await g.get(externalId(comment), 'not-a-token'), { status: 400, code: 190, type: 'OAuthException' });
  });

  it.each(['adsClient', 'foreignClient'] as const)('%s (no page scope, or another organization) cannot see the comment: 100/33', async (viewer) => {
    expectGraphError(await g.get(externalId(comment), tokens[viewer], { fields: 'message' }), {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(externalId(comment)),
    });
    expect(dataOf(await gql('query ($id: ID!) { comment(id: $id) { id } }', { id: externalId(comment) }, viewer)).comment).toBeNull();
  });
});

describe('GET /<post id>/comments on every kind of post, and `object`', () => {
  const KINDS: Array<[PostKind, 'page' | 'person', boolean]> = [
    ['page_post', 'page', false],
    ['visitor_post', 'person', false],
    ['photo', 'page', true],
    ['video', 'person', true],
    ['event', 'page', false],
    ['group_post', 'person', false],
    ['review', 'person', false],
  ];

  it.each(KINDS)('%s: its comments are listed, read by id and in GraphQL; `object` is %s', async (kind, author, hasObject) => {
    const post = await insertPost(kind, author === 'page' ? { pageId: page.id } : { userId: people.postAuthor.id });
    const first = await world.comment(post, { ...byPerson('commenter'), message: `On a ${kind}` });
    const second = await world.comment(post, { ...byPage(), message: 'From the page' });
    const list = await g.get(`${post.id}/comments`, tokens.stranger, { fields: 'message,object,from', summary: 'total_count' });
    expect(list.status, list.text).toBe(200);
    const object = hasObject ? { object: { id: post.id } } : {};
    expect(list.body.data).toEqual([
      { id: externalId(first), message: `On a ${kind}`, ...object },
      { id: externalId(second), message: 'From the page', ...object, from: { id: page.id, name: page.name } },
    ]);
    expect(list.body.summary).toEqual({ total_count: 2 });
    const one = await g.get(externalId(first), tokens.stranger, { fields: 'object{id,kind}' });
    expect(one.body).toEqual({ id: externalId(first), ...(hasObject ? { object: { id: post.id, kind } } : {}) });
    const data = dataOf(
      await gql('query ($p: ID!) { post(id: $p) { comments { totalCount nodes { id message object { id } } } } }', { p: post.id }, 'stranger'),
    );
    expect(data.post.comments).toEqual({
      totalCount: 2,
      nodes: [
        { id: externalId(first), message: `On a ${kind}`, object: hasObject ? { id: post.id } : null },
        { id: externalId(second), message: 'From the page', object: hasObject ? { id: post.id } : null },
      ],
    });
  });

  it('a post without comments lists none (and counts 0); a page, a user or an ad account has no comments edge', async () => {
    const post = await insertPost('page_post', { pageId: page.id });
    const empty = await g.get(`${post.id}/comments`, tokens.stranger, { summary: 'total_count' });
    expect(empty.body).toEqual({ data: [], summary: { total_count: 0 } });
    expectGraphError(await g.get(`${page.id}/comments`, tokens.admin), {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(`${page.id}/comments`),
    });
    const account = await world.adAccount(page.organizationId);
    expectGraphError(await g.get(`act_${account.id}/comments`, tokens.admin), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(`act_${account.id}/comments`),
    });
  });
});

describe('comment edges: filter, order, paging, summary; /likes and /reactions', () => {
  let post: PostRecord;
  let top: CommentRecord[];
  let replies: CommentRecord[];

  beforeAll(async () => {
    post = await insertPost('page_post', { pageId: page.id });
    top = [];
    for (let i = 1; i <= 5; i++) top.push(await world.comment(post, { ...byPerson('commenter'), message: `Top ${i}` }));
    replies = [];
    for (let i = 1; i <= 3; i++) replies.push(await world.comment(post, { ...byPerson('replier'), parentId: top[0]!.id, message: `Reply ${i}` }));
  });

  const topIds = () => top.map(externalId);
  const replyIds = () => replies.map(externalId);

  it.each([
    [{}, () => topIds()],
    [{ filter: 'toplevel' }, () => topIds()],
    [{ filter: 'stream' }, () => [...topIds(), ...replyIds()]],
    [{ order: 'chronological' }, () => topIds()],
    [{ order: 'reverse_chronological' }, () => [...topIds()].reverse()],
    [{ filter: 'stream', order: 'reverse_chronological' }, () => [...topIds(), ...replyIds()].reverse()],
  ])('GET /<post>/comments %j', async (query, expected) => {
    const response = await g.get(`${post.id}/comments`, tokens.stranger, { ...query, summary: 'total_count' });
    expect(ids(response)).toEqual(expected());
    expect(response.body.summary).toEqual({ total_count: expected().length });
    expect(response.body.paging.next).toBeUndefined();
  });

  it('reverse_chronological pages forward (older) and back (newer) with limit, after, before and the paging links', async () => {
    const newestFirst = [...topIds()].reverse();
    const first = await g.get(`${post.id}/comments`, tokens.stranger, { order: 'reverse_chronological', limit: 2 });
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.paging.previous).toBeUndefined();
    const second = await g.follow(first.body.paging.next);
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    const third = await g.follow(second.body.paging.next);
    expect(ids(third)).toEqual(newestFirst.slice(4));
    expect(third.body.paging.next).toBeUndefined();
    const back = await g.follow(third.body.paging.previous);
    expect(ids(back)).toEqual(newestFirst.slice(2, 4));
    const backAgain = await g.get(`${post.id}/comments`, tokens.stranger, {
      order: 'reverse_chronological',
      limit: 2,
      before: back.body.paging.cursors.before,
    });
    expect(ids(backAgain)).toEqual(newestFirst.slice(0, 2));
    expect(backAgain.body.paging.previous).toBeUndefined();
    expect(backAgain.body.paging.next).toEqual(expect.any(String));
  });

  it('chronological pages the same way, oldest first', async () => {
    const first = await g.get(`${post.id}/comments`, tokens.stranger, { limit: 3, filter: 'stream' });
    expect(ids(first)).toEqual([...topIds(), ...replyIds()].slice(0, 3));
    const second = await g.follow(first.body.paging.next);
    expect(ids(second)).toEqual([...topIds(), ...replyIds()].slice(3, 6));
    const back = await g.follow(second.body.paging.previous);
    expect(ids(back)).toEqual([...topIds(), ...replyIds()].slice(0, 3));
  });

  it('GET /<comment>/comments lists its replies in either order, pages, and counts them; a reply has none', async () => {
    const response = await g.get(`${externalId(top[0]!)}/comments`, tokens.stranger, { fields: 'message,parent', summary: 'total_count' });
    expect(response.body.data).toEqual(replies.map((reply, i) => ({ id: externalId(reply), message: `Reply ${i + 1}`, parent: { id: externalId(top[0]!) } })));
    expect(response.body.summary).toEqual({ total_count: 3 });
    const reversed = await g.get(`${externalId(top[0]!)}/comments`, tokens.stranger, { order: 'reverse_chronological', limit: 2 });
    expect(ids(reversed)).toEqual([...replyIds()].reverse().slice(0, 2));
    expect(ids(await g.follow(reversed.body.paging.next))).toEqual([replyIds()[0]]);
    expect((await g.get(`${externalId(replies[0]!)}/comments`, tokens.stranger, { summary: 'total_count' })).body).toEqual({
      data: [],
      summary: { total_count: 0 },
    });
    expect((await g.get(externalId(top[0]!), tokens.stranger, { fields: 'comment_count,comments.limit(1){message}' })).body).toEqual({
      id: externalId(top[0]!),
      comment_count: 3,
      comments: { data: [{ id: externalId(replies[0]!), message: 'Reply 1' }], paging: expect.objectContaining({ cursors: expect.any(Object) }) },
    });
  });

  it.each([
    [{ filter: 'all' }, 'filter', '(#100) Param filter must be one of {toplevel, stream}'],
    [{ order: 'newest' }, 'order', '(#100) Param order must be one of {chronological, reverse_chronological}'],
  ])('%j is error 100 naming the parameter, on posts and on comments', async (query, _field, message) => {
    expectGraphError(await g.get(`${post.id}/comments`, tokens.stranger, query), { status: 400, code: 100, message });
    expectGraphError(await g.get(`${externalId(top[0]!)}/comments`, tokens.stranger, query), { status: 400, code: 100, message });
  });

  it('/likes lists who likes (people and pages), /reactions the same as LIKE reactions; like_count and user_likes agree', async () => {
    const liked = top[1]!;
    await like(liked, { userId: people.stranger.id });
    await like(liked, { pageId: page.id });
    await like(liked, { pageId: otherPage.id });
    const expected = [
      { id: people.stranger.id, name: people.stranger.name },
      { id: page.id, name: page.name },
      { id: otherPage.id, name: otherPage.name },
    ];
    const likes = await g.get(`${externalId(liked)}/likes`, tokens.commenter, { fields: 'id,name', summary: 'total_count' });
    expect(likes.status, likes.text).toBe(200);
    expect(likes.body.data).toEqual(expect.arrayContaining(expected));
    expect(likes.body.data).toHaveLength(3);
    expect(likes.body.summary).toEqual({ total_count: 3 });
    const reactions = await g.get(`${externalId(liked)}/reactions`, tokens.commenter, { fields: 'id,name,type' });
    expect(reactions.body.data).toEqual(expect.arrayContaining(expected.map((e) => ({ ...e, type: 'LIKE' }))));
    expect(reactions.body.data).toHaveLength(3);
    expect((await g.get(externalId(liked), tokens.stranger, { fields: 'like_count,user_likes' })).body).toMatchObject({ like_count: 3, user_likes: true });
    expect((await g.get(externalId(liked), tokens.commenter, { fields: 'like_count,user_likes' })).body).toMatchObject({ like_count: 3, user_likes: false });
    expect((await g.get(externalId(liked), tokens.pageClient, { fields: 'user_likes' })).body).toMatchObject({ user_likes: true });
    const data = dataOf(
      await gql(
        `query ($id: ID!) { comment(id: $id) { likeCount userLikes likes { totalCount nodes { actor { __typename ... on Page { id } } } } } }`,
        { id: externalId(liked) },
        'stranger',
      ),
    ).comment;
    expect(data.likeCount).toBe(3);
    expect(data.userLikes).toBe(true);
    expect(data.likes.totalCount).toBe(3);
    expect(
      data.likes.nodes
        .map((n: any) => n.actor?.id)
        .filter(Boolean)
        .sort(),
    ).toEqual([page.id, otherPage.id].sort());
  });

  it('GraphQL: Post.comments(filter, order) pages forward and back like /v24.0; Comment.comments(order) and replies', async () => {
    const query = `query ($p: ID!, $f: CommentFilter, $o: CommentOrder, $first: Int, $after: String, $last: Int, $before: String) {
      post(id: $p) { comments(filter: $f, order: $o, first: $first, after: $after, last: $last, before: $before) {
        totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const page1 = dataOf(await gql(query, { p: post.id, o: 'REVERSE_CHRONOLOGICAL', first: 2 }, 'stranger')).post.comments;
    const newestFirst = [...topIds()].reverse();
    expect(page1.nodes.map((n: any) => n.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.totalCount).toBe(5);
    expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const page2 = dataOf(await gql(query, { p: post.id, o: 'REVERSE_CHRONOLOGICAL', first: 2, after: page1.pageInfo.endCursor }, 'stranger')).post.comments;
    expect(page2.nodes.map((n: any) => n.id)).toEqual(newestFirst.slice(2, 4));
    const back = dataOf(await gql(query, { p: post.id, o: 'REVERSE_CHRONOLOGICAL', last: 2, before: page2.pageInfo.startCursor }, 'stranger')).post.comments;
    expect(back.nodes.map((n: any) => n.id)).toEqual(newestFirst.slice(0, 2));
    const stream = dataOf(await gql(query, { p: post.id, f: 'STREAM' }, 'stranger')).post.comments;
    expect(stream.nodes.map((n: any) => n.id)).toEqual([...topIds(), ...replyIds()]);
    expect(stream.totalCount).toBe(8);
    // The GraphQL lists and the /v24.0 lists are the same lists.
    const rest = await g.get(`${post.id}/comments`, tokens.stranger, { filter: 'stream', order: 'reverse_chronological' });
    const gqlReverse = dataOf(await gql(query, { p: post.id, f: 'STREAM', o: 'REVERSE_CHRONOLOGICAL' }, 'stranger')).post.comments;
    expect(gqlReverse.nodes.map((n: any) => n.id)).toEqual(ids(rest));

    const repliesQuery = `query ($id: ID!) { comment(id: $id) {
      commentCount comments(order: REVERSE_CHRONOLOGICAL, first: 2) { totalCount nodes { id parent { id } } }
      replies { totalCount nodes { id } } } }`;
    const data = dataOf(await gql(repliesQuery, { id: externalId(top[0]!) }, 'stranger')).comment;
    expect(data).toEqual({
      commentCount: 3,
      comments: {
        totalCount: 3,
        nodes: [...replies]
          .reverse()
          .slice(0, 2)
          .map((r) => ({ id: externalId(r), parent: { id: externalId(top[0]!) } })),
      },
      replies: { totalCount: 3, nodes: replyIds().map((id) => ({ id })) },
    });
  });
});

describe('hidden comments: who sees them, by id, in every edge and in every count', () => {
  let post: PostRecord;
  let visible: CommentRecord;
  let hidden: CommentRecord;
  let replyUnderHidden: CommentRecord;
  let hiddenReply: CommentRecord;

  // On a person's visitor post: `visible` (top-level), `hidden` (top-level, by the commenter, tagging `tagged`) with a
  // visible reply by the replier, and `hiddenReply` (under `visible`, by the commenter, tagging `tagged`). Hidden ones
  // stay visible to the post's author, the page's admins and moderators (and the page's API client with
  // pages_manage_engagement), their author and the people tagged in them; to nobody else.
  beforeAll(async () => {
    post = await insertPost('visitor_post', { userId: people.postAuthor.id });
    visible = await world.comment(post, { ...byPerson('replier'), message: 'Visible' });
    hidden = await world.comment(post, { ...byPerson('commenter'), message: `Hidden, ${people.tagged.name}`, messageTags: [tagOf('tagged')], isHidden: true });
    replyUnderHidden = await world.comment(post, { ...byPerson('replier'), parentId: hidden.id, message: 'Under a hidden one' });
    hiddenReply = await world.comment(post, {
      ...byPerson('commenter'),
      parentId: visible.id,
      message: `Hidden reply, ${people.tagged.name}`,
      messageTags: [tagOf('tagged')],
      isHidden: true,
    });
    await like(hidden, { userId: people.tagged.id });
  });

  const SEES: Viewer[] = ['postAuthor', 'commenter', 'tagged', 'moderator', 'admin', 'owner', 'siteAdmin', 'pageClient', 'engagementClient', 'manageClient'];
  const BLIND: Viewer[] = ['replier', 'stranger', 'outsider', 'advertiser', 'auditor', 'readClient', 'readUserContentClient'];

  it.each(SEES)('%s sees the hidden comments, the reply under one, and counts them', async (viewer) => {
    const token = tokens[viewer];
    for (const comment of [hidden, replyUnderHidden, hiddenReply]) {
      const response = await g.get(externalId(comment), token, { fields: 'message,is_hidden' });
      expect(response.status, `${viewer} ${response.text}`).toBe(200);
      expect(response.body.is_hidden).toBe(comment.isHidden);
    }
    const all = [visible, hidden, replyUnderHidden, hiddenReply].map(externalId);
    const stream = await g.get(`${post.id}/comments`, token, { filter: 'stream', summary: 'total_count' });
    expect(ids(stream)).toEqual(all);
    expect(stream.body.summary).toEqual({ total_count: 4 });
    const toplevel = await g.get(`${post.id}/comments`, token, { summary: 'total_count', fields: 'comment_count' });
    expect(toplevel.body).toMatchObject({
      data: [
        { id: externalId(visible), comment_count: 1 },
        { id: externalId(hidden), comment_count: 1 },
      ],
      summary: { total_count: 2 },
    });
    expect(ids(await g.get(`${externalId(visible)}/comments`, token))).toEqual([externalId(hiddenReply)]);
    expect(ids(await g.get(`${externalId(hidden)}/comments`, token))).toEqual([externalId(replyUnderHidden)]);
    expect(ids(await g.get(`${externalId(hidden)}/likes`, token))).toEqual([people.tagged.id]);
    expect(ids(await g.get(`${externalId(hidden)}/reactions`, token))).toEqual([people.tagged.id]);

    const data = dataOf(
      await gql(
        `query ($p: ID!, $h: ID!, $r: ID!, $v: ID!) {
      post(id: $p) { stream: comments(filter: STREAM) { totalCount nodes { id } } top: comments { totalCount nodes { id commentCount } } }
      hidden: comment(id: $h) { isHidden replies { nodes { id } } likes { totalCount } }
      reply: comment(id: $r) { id parent { id } }
      visible: comment(id: $v) { commentCount comments { totalCount nodes { id isHidden } } } }`,
        { p: post.id, h: externalId(hidden), r: externalId(replyUnderHidden), v: externalId(visible) },
        viewer,
      ),
    );
    expect(data).toEqual({
      post: {
        stream: { totalCount: 4, nodes: all.map((id) => ({ id })) },
        top: {
          totalCount: 2,
          nodes: [
            { id: externalId(visible), commentCount: 1 },
            { id: externalId(hidden), commentCount: 1 },
          ],
        },
      },
      hidden: { isHidden: true, replies: { nodes: [{ id: externalId(replyUnderHidden) }] }, likes: { totalCount: 1 } },
      reply: { id: externalId(replyUnderHidden), parent: { id: externalId(hidden) } },
      visible: { commentCount: 1, comments: { totalCount: 1, nodes: [{ id: externalId(hiddenReply), isHidden: true }] } },
    });
  });

  it.each(BLIND)('%s does not: not by id (the answer of a missing id), not in any edge, not in any count', async (viewer) => {
    const token = tokens[viewer];
    for (const comment of [hidden, replyUnderHidden, hiddenReply]) {
      const response = await g.get(externalId(comment), token, { fields: 'message' });
      expectGraphError(response, { status: 400, code: 100, subcode: 33, type: 'GraphMethodException', message: UNKNOWN_OBJECT(externalId(comment)) });
      // Byte for byte what an id that names nothing gets, but for the id itself.
      const missingId = `${post.id}_${BigInt(hiddenReply.id) + 1_000_000n}`;
      const missing = await g.get(missingId, token, { fields: 'message' });
      expect(withoutTrace(response)).toBe(withoutTrace(missing).replaceAll(missingId, externalId(comment)));
      for (const edge of ['comments', 'likes', 'reactions']) {
        expectGraphError(await g.get(`${externalId(comment)}/${edge}`, token), {
          status: 400,
          code: 100,
          subcode: 33,
          type: 'GraphMethodException',
          message: UNKNOWN_OBJECT(externalId(comment)),
        });
      }
    }
    const toplevel = await g.get(`${post.id}/comments`, token, { summary: 'total_count', fields: 'comment_count' });
    expect(toplevel.body).toMatchObject({ data: [{ id: externalId(visible), comment_count: 0 }], summary: { total_count: 1 } });
    const replies = await g.get(`${externalId(visible)}/comments`, token, { summary: 'total_count' });
    expect(replies.body).toEqual({ data: [], summary: { total_count: 0 } });

    const data = dataOf(
      await gql(
        `query ($p: ID!, $h: ID!, $r: ID!, $hr: ID!, $v: ID!) {
      post(id: $p) { top: comments { totalCount nodes { id commentCount } } }
      hidden: comment(id: $h) { id } reply: comment(id: $r) { id } hiddenReply: comment(id: $hr) { id }
      node: node(id: $h) { id }
      visible: comment(id: $v) { commentCount comments { totalCount nodes { id } } replies { totalCount } } }`,
        { p: post.id, h: externalId(hidden), r: externalId(replyUnderHidden), hr: externalId(hiddenReply), v: externalId(visible) },
        viewer,
      ),
    );
    expect(data).toEqual({
      post: { top: { totalCount: 1, nodes: [{ id: externalId(visible), commentCount: 0 }] } },
      hidden: null,
      reply: null,
      hiddenReply: null,
      node: null,
      visible: { commentCount: 0, comments: { totalCount: 0, nodes: [] }, replies: { totalCount: 0 } },
    });
  });

  // A reply under a hidden comment is invisible to whoever may not see the comment (it is not read by id, above):
  // the stream (comments with their replies in one list) must leave it out too, and not count it.
  it.each(BLIND)('%s: filter=stream holds neither the hidden comments nor the reply under a hidden one', async (viewer) => {
    const stream = await g.get(`${post.id}/comments`, tokens[viewer], { filter: 'stream', summary: 'total_count' });
    // Both surfaces are checked even when the first one fails.
    expect.soft(ids(stream), '/v24.0 list').toEqual([externalId(visible)]);
    expect.soft(stream.body.summary, '/v24.0 summary').toEqual({ total_count: 1 });
    const data = dataOf(await gql('query ($p: ID!) { post(id: $p) { comments(filter: STREAM) { totalCount nodes { id } } } }', { p: post.id }, viewer));
    expect.soft(data.post.comments, 'GraphQL Post.comments(filter: STREAM)').toEqual({ totalCount: 1, nodes: [{ id: externalId(visible) }] });
  });

  it('an API client without a page scope sees neither the post nor its comments', async () => {
    expectGraphError(await g.get(`${post.id}/comments`, tokens.adsClient), {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(post.id),
    });
    expect(dataOf(await gql('query ($p: ID!) { post(id: $p) { id } }', { p: post.id }, 'adsClient')).post).toBeNull();
    expectGraphError(await g.get(externalId(visible), tokens.adsClient), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(externalId(visible)) });
  });

  it('a hidden comment answers exactly as it does once deleted (nothing tells the id exists)', async () => {
    const secret = await world.comment(post, { ...byPerson('commenter'), message: 'Secret', isHidden: true });
    const hiddenAnswer = await g.get(externalId(secret), tokens.stranger, { fields: 'message' });
    await server.deps.db('graph_objects').where({ id: secret.id }).delete();
    const goneAnswer = await g.get(externalId(secret), tokens.stranger, { fields: 'message' });
    expect(hiddenAnswer.status).toBe(400);
    expect(withoutTrace(hiddenAnswer)).toBe(withoutTrace(goneAnswer));
  });
});

describe('ids', () => {
  let post: PostRecord;
  let otherPost: PostRecord;
  let comment: CommentRecord;
  beforeAll(async () => {
    post = await insertPost('page_post', { pageId: page.id });
    otherPost = await insertPost('page_post', { pageId: page.id });
    comment = await world.comment(post, { ...byPerson('commenter'), message: 'An id' });
  });

  it('the discontinued {page-id}_{post-id}_{comment-id} form is error 100 on every call (GET, edges, POST, DELETE)', async () => {
    const old = `${page.id}_${post.id}_${comment.id}`;
    const message = `(#100) The comment id ${old} uses the discontinued {page-id}_{post-id}_{comment-id} form: use {pagepost-id}_{comment-id}`;
    expectGraphError(await g.get(old, tokens.stranger, { fields: 'message' }), { status: 400, code: 100, message });
    expectGraphError(await g.get(`${old}/comments`, tokens.stranger), { status: 400, code: 100, message });
    expectGraphError(await g.call('POST', `/v24.0/${old}/likes`, { token: tokens.stranger }), { status: 400, code: 100, message });
    expectGraphError(await g.call('DELETE', `/v24.0/${old}`, { token: tokens.commenter }), { status: 400, code: 100, message });
    const error = firstError(await gql('query ($id: ID!) { comment(id: $id) { id } }', { id: old }, 'stranger'));
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id', graphApi: { code: 100 } });
    expect(error.message).toBe(message.replace('(#100) ', ''));
  });

  it.each([
    ['a comment under another post', () => `${otherPost.id}_${comment.id}`],
    ['a comment id that names nothing', () => `${post.id}_${BigInt(comment.id) + 5_000_000n}`],
    ['a post id with a comment id of a post', () => `${post.id}_${post.id}`],
  ])('%s: unknown object 100/33, and null in GraphQL', async (_label, id) => {
    expectGraphError(await g.get(id(), tokens.admin, { fields: 'message' }), {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: UNKNOWN_OBJECT(id()),
    });
    expect(dataOf(await gql('query ($id: ID!) { comment(id: $id) { id } }', { id: id() }, 'admin')).comment).toBeNull();
  });

  it('an id of the wrong shape is BAD_USER_INPUT naming id in GraphQL, and names nothing on /v24.0', async () => {
    for (const id of ['abc_def', `${post.id}_`, `_${comment.id}`]) {
      expectGraphError(await g.get(id, tokens.admin), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(id) });
      const error = firstError(await gql('query ($id: ID!) { comment(id: $id) { id } }', { id }, 'admin'));
      expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    }
  });
});

describe('GraphQL Person: the id and name /v24.0 shows, the full user only to those who may read it', () => {
  const query = `query ($id: ID!) { comment(id: $id) {
    from { __typename ... on Person { id name user { id email } } }
    post { from { __typename ... on Person { id name user { email } } } }
    likes { nodes { actor { __typename ... on Person { id name user { email } } } } }
  } }`;
  let comment: CommentRecord;

  beforeAll(async () => {
    const post = await insertPost('visitor_post', { userId: people.postAuthor.id });
    comment = await world.comment(post, { ...byPerson('commenter'), message: 'Nice' });
    await like(comment, { userId: people.replier.id });
  });

  it.each([
    ['the page admin (shares no organization with them)', 'admin', false],
    ['the page token', 'pageClient', false],
    ['the commenter, who reads only their own user', 'commenter', true],
    ['the site admin, who reads every user', 'siteAdmin', true],
  ] as const)('%s', async (_label, viewer, readsCommenter) => {
    const result = dataOf(await gql(query, { id: externalId(comment) }, viewer)).comment;
    const commenterUser = readsCommenter ? { id: people.commenter.id, email: expect.stringContaining('@') } : null;
    expect(result.from).toEqual({ __typename: 'Person', id: people.commenter.id, name: people.commenter.name, user: commenterUser });
    // The post's author follows the comment's rule (the page and the writer only): the commenter is neither.
    if (viewer === 'commenter') expect(result.post.from).toBeNull();
    else expect(result.post.from).toMatchObject({ __typename: 'Person', id: people.postAuthor.id, name: people.postAuthor.name });
    // The liker shows as /v24.0's likes edge shows it to every reader: id and name.
    expect(result.likes.nodes).toEqual([{ actor: expect.objectContaining({ __typename: 'Person', id: people.replier.id, name: people.replier.name }) }]);
    if (viewer !== 'siteAdmin') {
      if (viewer !== 'commenter') expect(result.post.from.user).toBeNull();
      expect(result.likes.nodes[0].actor.user).toBeNull();
    }
  });

  it('a stranger sees no person behind the comment (user information needs a page token), as on /v24.0', async () => {
    const result = dataOf(await gql(query, { id: externalId(comment) }, 'stranger')).comment;
    expect(result.from).toBeNull();
    const rest = await g.get(externalId(comment), tokens.stranger, { fields: 'from' });
    expect(rest.body.from).toBeUndefined();
  });
});
