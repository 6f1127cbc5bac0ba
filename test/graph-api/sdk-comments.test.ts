import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt } from '../helpers/sdk.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { UNKNOWN_OBJECT } from '../helpers/graph.ts';
import { createClient } from '../../src/oauth/service.ts';
import { insertObjects } from '../../src/db/objects.ts';
import { posts, type PageRecord, type PostRecord } from '../../src/comments/store.ts';

/**
 * Comments through the reference client, facebook-nodejs-business-sdk 24.0.1 `src/objects/comment.js` (issue 10:
 * "must work unchanged"), against a test server (test/graph-api/sdk.test.ts says how it is pointed here).
 *
 * The SDK's own classes and methods only: `PagePost`/`Post`/`Photo` `createComment` and `getComments`, `Comment`
 * `get`, `update`, `delete`, `createComment` (a reply), `getComments`, `createLike`, `deleteLikes`, `getLikes`,
 * `getReactions`. Two things about the SDK shape the calls: `createEdge` builds the new object with the default
 * API (not the caller's), so the tests switch the default API (`FacebookAdsApi.init`) to act as someone; and a
 * `new Comment(id)` carries its `id` as a change, so `update` and `delete` send `id` along with the parameters.
 *
 * Who acts: the page (an API client of the page's organization with pages_manage_engagement,
 * pages_read_engagement and pages_read_user_content: a page token), a fan (a person with no role anywhere), another
 * person, and a moderator of the page's organization (session tokens, which /v24.0 takes as access_token).
 *
 * The bundle ships no types (test/types/facebook-nodejs-business-sdk.d.ts declares what sdk.test.ts uses); the
 * classes used here are typed locally below.
 */
interface SdkObject {
  id: string;
  _data: Record<string, any>;
  [field: string]: unknown;
}
interface SdkCursor extends Array<SdkObject> {
  summary: any;
  paging: any;
  hasNext(): boolean;
  next(): Promise<SdkCursor>;
}
interface SdkCommentable extends SdkObject {
  getComments(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  createComment(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
}
interface SdkComment extends SdkCommentable {
  get(fields: string[], params?: Record<string, unknown>): Promise<SdkComment>;
  update(fields: string[], params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  delete(fields: string[], params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  createLike(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  deleteLikes(params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  getLikes(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
  getReactions(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor>;
}
interface Sdk {
  FacebookAdsApi: { init(token: string, locale?: string, crashLog?: boolean): unknown };
  Comment: (new (id: string) => SdkComment) & { Fields: Record<string, string>; Filter: Record<string, string>; Order: Record<string, string> };
  PagePost: new (id: string) => SdkCommentable;
  Post: new (id: string) => SdkCommentable;
  Photo: new (id: string) => SdkCommentable;
}
interface SdkRequestError extends Error {
  status: number;
  /** The `error` object of the Graph error envelope. */
  response: Record<string, any>;
}

const { FacebookAdsApi, Comment, PagePost, Post, Photo } = bizSdk as unknown as Sdk;

/** Every field of the specification's comment table (issue 10). */
const ALL_FIELDS = [
  'attachment',
  'can_comment',
  'can_remove',
  'can_hide',
  'can_like',
  'can_reply_privately',
  'comment_count',
  'created_time',
  'from',
  'id',
  'like_count',
  'message',
  'message_tags',
  'object',
  'parent',
  'user_likes',
  'is_hidden',
  'permalink_url',
];
const GRAPH_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

type Who = 'page' | 'fan' | 'other' | 'moderator';

let server: TestServer;
let tokens: Record<Who, string>;
let fanId: string;
let page: PageRecord;
let pagePost: PostRecord;
let photoPost: PostRecord;
let reviewPost: PostRecord;
let restoreSdk: (() => void) | undefined;

/** Makes `who` the SDK's default API: what `new Comment(id)` and the objects createEdge builds call with. */
function actAs(who: Who): void {
  FacebookAdsApi.init(tokens[who], 'en_US', false);
}

/** The FacebookRequestError a call fails with (the bundle does not export the class: it is known by its name). */
async function failure(call: Promise<unknown>): Promise<SdkRequestError> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect((error as Error).name).toBe('FacebookRequestError');
  return error as SdkRequestError;
}

const count = async (table: string, where: Record<string, unknown> = {}) =>
  Number(((await server.deps.db(table).where(where).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
const countIn = async (table: string, column: string, ids: string[]) =>
  Number(((await server.deps.db(table).whereIn(column, ids).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
const internalId = (externalId: string) => externalId.split('_')[1]!;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  const fan = await world.user();
  const other = await world.user();
  const moderator = await world.user({ organizationId: org.id, role: 'moderator' });
  fanId = fan.user.id;
  const scope = 'pages_manage_engagement pages_read_engagement pages_read_user_content';
  const { client, clientSecret } = await createClient(server.deps, { name: 'page token', scope, organization: org.id });
  tokens = { page: await fetchAccessToken(server.url, client.clientId, clientSecret), fan: fan.token, other: other.token, moderator: moderator.token };
  page = await world.page(org.id);
  pagePost = await world.post(page);
  [photoPost, reviewPost] = (await server.deps.db.transaction((trx) =>
    insertObjects<PostRecord>(trx, 'post', posts, [
      {
        organizationId: org.id,
        pageId: page.id,
        kind: 'photo',
        authorUserId: null,
        authorPageId: page.id,
        message: 'A photo',
        attachment: { type: 'photo', url: 'https://example.com/photo.jpg' },
        title: null,
        rating: null,
        eventStartTime: null,
        targeting: null,
      },
      {
        organizationId: org.id,
        pageId: page.id,
        kind: 'review',
        authorUserId: other.user.id,
        authorPageId: null,
        message: 'Great place',
        attachment: null,
        title: null,
        rating: 5,
        eventStartTime: null,
        targeting: null,
      },
    ]),
  )) as [PostRecord, PostRecord];
  restoreSdk = pointSdkAt(server.url, tokens.page);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

describe('facebook-nodejs-business-sdk 24.0.1: comments', () => {
  it('PagePost.createComment as the page, then Comment.get with every field of the comment table', async () => {
    actAs('page');
    const created = await new PagePost(pagePost.id).createComment([], { message: 'Thanks for visiting!' });
    expect(created.constructor).toBe(Comment);
    expect(created.id).toMatch(new RegExp(`^${pagePost.id}_\\d+$`));

    const comment = await new Comment(created.id).get(ALL_FIELDS);
    expect(comment).toBeInstanceOf(Comment);
    // The page's own top-level comment, read by the page: no likes, no replies, not hideable (rule 4), no private reply
    // (that is for a person's comment); object and parent are absent (a page post, not a reply), as are empty tags.
    expect(comment._data).toEqual({
      id: created.id,
      message: 'Thanks for visiting!',
      from: { id: page.id, name: page.name },
      created_time: expect.stringMatching(GRAPH_TIME),
      like_count: 0,
      comment_count: 0,
      user_likes: false,
      is_hidden: false,
      can_comment: true,
      can_remove: true,
      can_hide: false,
      can_like: true,
      can_reply_privately: false,
      permalink_url: expect.stringContaining(internalId(created.id)),
    });
    // The SDK's property accessors read the same data.
    expect([comment.message, comment.like_count, comment.is_hidden]).toEqual(['Thanks for visiting!', 0, false]);
  });

  it('Post.createComment as a person, with a mention: message_tags in code points, can_hide only for the page', async () => {
    actAs('fan');
    const created = await new Post(pagePost.id).createComment([], { message: `👍🏽 Love it, @[${page.id}]!` });
    const asFan = await new Comment(created.id).get(['message', 'message_tags', 'from', 'can_hide', 'can_reply_privately', 'can_remove', 'can_comment']);
    // "👍🏽 Love it, " is 2 + 10 code points (the skin-tone modifier counts as one more).
    expect(asFan._data).toEqual({
      id: created.id,
      message: `👍🏽 Love it, ${page.name}!`,
      message_tags: [{ id: page.id, name: page.name, type: 'page', offset: 12, length: [...page.name].length }],
      from: { id: fanId, name: expect.any(String) },
      can_remove: true,
      can_comment: true,
    });

    actAs('page');
    const asPage = await new Comment(created.id).get(['from', 'can_hide', 'can_reply_privately', 'can_remove']);
    expect(asPage._data).toEqual({
      id: created.id,
      from: { id: fanId, name: asFan._data.from.name },
      can_hide: true,
      can_reply_privately: true,
      can_remove: true,
    });

    // Another person sees the comment, not who wrote it (user information on page comments needs a page token).
    actAs('other');
    const asOther = await new Comment(created.id).get(['message', 'from', 'can_remove', 'can_hide']);
    expect(asOther._data).toEqual({ id: created.id, message: `👍🏽 Love it, ${page.name}!`, can_remove: false });
  });

  it("Photo.createComment: the comment's object is the photo", async () => {
    actAs('fan');
    const created = await new Photo(photoPost.id).createComment([], { attachment_url: 'https://example.com/reply.png' });
    const comment = await new Comment(created.id).get(['object', 'attachment', 'message']);
    expect(comment._data).toEqual({ id: created.id, object: { id: photoPost.id }, attachment: { type: 'photo', url: 'https://example.com/reply.png' } });
  });

  it('Comment.update: the author edits (replace semantics), the answer is {success: true} and the comment reads back at once', async () => {
    actAs('fan');
    const created = await new PagePost(pagePost.id).createComment([], { message: 'First words', attachment_url: 'https://example.com/a.png' });
    const comment = await new Comment(created.id).get(['message', 'attachment']);
    expect(comment._data).toEqual({ id: created.id, message: 'First words', attachment: { type: 'photo', url: 'https://example.com/a.png' } });

    expect(await comment.update([], { message: 'Second words' })).toEqual({ success: true });
    // What was not sent again (the attachment) is gone.
    expect((await new Comment(created.id).get(['message', 'attachment']))._data).toEqual({ id: created.id, message: 'Second words' });

    // The SDK's own way: set a property, then update() sends the changes.
    const again = await new Comment(created.id).get(['message']);
    again.message = 'Third words';
    expect(await again.update([])).toEqual({ success: true });
    expect((await new Comment(created.id).get(['message']))._data).toEqual({ id: created.id, message: 'Third words' });

    // attachment_share_url alone (rule 2): the message goes.
    expect(await new Comment(created.id).update([], { attachment_share_url: 'https://example.com/story' })).toEqual({ success: true });
    expect((await new Comment(created.id).get(['message', 'attachment']))._data).toEqual({
      id: created.id,
      attachment: { type: 'share', url: 'https://example.com/story' },
    });
  });

  it("Comment.update with is_hidden: the page hides a person's comment; it stays for its author and leaves everyone else's lists and counts", async () => {
    actAs('fan');
    const created = await new PagePost(pagePost.id).createComment([], { message: 'Hide me' });
    actAs('other');
    const before = await new PagePost(pagePost.id).getComments(['message'], { summary: 'total_count', limit: 100 });
    expect(before.map((c) => c.id)).toContain(created.id);

    actAs('page');
    expect(await new Comment(created.id).update([], { is_hidden: true })).toEqual({ success: true });
    expect((await new Comment(created.id).get(['is_hidden', 'message']))._data).toEqual({ id: created.id, is_hidden: true, message: 'Hide me' });

    actAs('fan');
    expect((await new Comment(created.id).get(['is_hidden']))._data).toEqual({ id: created.id, is_hidden: true });

    actAs('other');
    const error = await failure(new Comment(created.id).get(['message']));
    expect(error.status).toBe(400);
    expect(error.response).toMatchObject({ code: 100, error_subcode: 33, message: UNKNOWN_OBJECT(created.id) });
    const after = await new PagePost(pagePost.id).getComments(['message'], { summary: 'total_count', limit: 100 });
    expect(after.map((c) => c.id)).not.toContain(created.id);
    expect(after.summary.total_count).toBe(before.summary.total_count - 1);

    actAs('moderator');
    expect(await new Comment(created.id).update([], { is_hidden: false })).toEqual({ success: true });
    actAs('other');
    expect((await new Comment(created.id).get(['is_hidden']))._data).toEqual({ id: created.id, is_hidden: false });
  });

  it("Comment.update refusals reach the SDK as FacebookRequestError: the page rewriting a person's words (200), hiding its own comment (100), is_hidden not a boolean (100)", async () => {
    actAs('fan');
    const persons = await new PagePost(pagePost.id).createComment([], { message: 'My words' });
    actAs('page');
    const pages = await new PagePost(pagePost.id).createComment([], { message: 'Our words' });

    const rewrite = await failure(new Comment(persons.id).update([], { message: 'Not your words' }));
    expect(rewrite.status).toBe(403);
    expect(rewrite.response).toMatchObject({ code: 200, type: 'OAuthException' });

    const hideOwn = await failure(new Comment(pages.id).update([], { is_hidden: true }));
    expect(hideOwn.status).toBe(400);
    // Rule 4's refusal names the parameter and the reason.
    expect(hideOwn.response).toMatchObject({ code: 100, type: 'OAuthException' });
    expect(hideOwn.response.message).toMatch(/^\(#100\) .*is_hidden.*The page's own comments cannot be hidden/);
    expect(hideOwn.response.error_subcode).toBeUndefined();

    const notBoolean = await failure(new Comment(persons.id).update([], { is_hidden: 'sometimes' }));
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.response).toMatchObject({ code: 100 });
    expect(notBoolean.response.message).toMatch(/is_hidden/);

    // The page edits its own comment.
    expect(await new Comment(pages.id).update([], { message: 'Our better words' })).toEqual({ success: true });
    expect((await new Comment(pages.id).get(['message']))._data).toEqual({ id: pages.id, message: 'Our better words' });

    actAs('other');
    const stranger = await failure(new Comment(persons.id).update([], { message: 'Mine now' }));
    expect(stranger.status).toBe(403);
    expect(stranger.response).toMatchObject({ code: 200 });

    actAs('fan');
    expect((await new Comment(persons.id).get(['message', 'is_hidden']))._data).toEqual({ id: persons.id, message: 'My words', is_hidden: false });
  });

  it('Comment.createComment replies one level deep; Comment.getComments lists the replies; PagePost.getComments takes filter, order and summary', async () => {
    actAs('page');
    const post = await worldBuilder(server.deps).post(page);
    const first = await new PagePost(post.id).createComment([], { message: 'one' });
    const second = await new PagePost(post.id).createComment([], { message: 'two' });
    actAs('fan');
    const reply = await new Comment(first.id).createComment([], { message: 'a reply' });
    expect(reply.id).toMatch(new RegExp(`^${post.id}_\\d+$`));

    const replyRead = await new Comment(reply.id).get(['parent', 'can_comment', 'message']);
    expect(replyRead._data).toEqual({ id: reply.id, parent: { id: first.id }, can_comment: false, message: 'a reply' });

    const deeper = await failure(new Comment(reply.id).createComment([], { message: 'a reply to a reply' }));
    expect(deeper.status).toBe(400);
    expect(deeper.response).toMatchObject({
      code: 100,
      message: `(#100) Comment ${reply.id} is a reply, and replies take no replies: reply to ${first.id}`,
    });

    const replies = await new Comment(first.id).getComments(['message', 'parent'], { summary: 'total_count' });
    expect(replies.map((c) => c._data)).toEqual([{ id: reply.id, message: 'a reply', parent: { id: first.id } }]);
    expect(replies[0]).toBeInstanceOf(Comment);
    expect(replies.summary).toEqual({ total_count: 1 });

    const toplevel = await new PagePost(post.id).getComments(['message', 'comment_count'], { summary: 'total_count' });
    expect(toplevel.map((c) => c._data)).toEqual([
      { id: first.id, message: 'one', comment_count: 1 },
      { id: second.id, message: 'two', comment_count: 0 },
    ]);
    expect(toplevel.summary).toEqual({ total_count: 2 });

    const stream = await new PagePost(post.id).getComments(['message'], {
      filter: Comment.Filter.stream,
      order: Comment.Order.reverse_chronological,
      summary: 'total_count',
    });
    expect(stream.map((c) => c._data.message)).toEqual(['a reply', 'two', 'one']);
    expect(stream.summary).toEqual({ total_count: 3 });

    // The Cursor pages with limit and paging.next.
    const paged = await new PagePost(post.id).getComments(['message'], { filter: Comment.Filter.stream, limit: 2 });
    const seen = paged.map((c) => c._data.message);
    expect(paged.hasNext()).toBe(true);
    await paged.next();
    seen.push(...paged.map((c) => c._data.message));
    expect(seen).toEqual(['one', 'two', 'a reply']);
  });

  it('Comment.createLike, getLikes, getReactions and deleteLikes: like_count and user_likes follow', async () => {
    actAs('page');
    const created = await new PagePost(pagePost.id).createComment([], { message: 'Like this' });

    actAs('fan');
    const liked = await new Comment(created.id).createLike([]);
    expect(liked._data).toEqual({ success: true });
    // Liking twice is one like.
    await new Comment(created.id).createLike([]);
    expect((await new Comment(created.id).get(['like_count', 'user_likes']))._data).toEqual({ id: created.id, like_count: 1, user_likes: true });

    actAs('page');
    await new Comment(created.id).createLike([]);
    expect((await new Comment(created.id).get(['like_count', 'user_likes']))._data).toEqual({ id: created.id, like_count: 2, user_likes: true });
    const likes = await new Comment(created.id).getLikes(['id', 'name'], { summary: 'total_count' });
    expect(likes.map((like) => like._data).sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual(
      [
        { id: fanId, name: expect.any(String) },
        { id: page.id, name: page.name },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(likes.summary).toEqual({ total_count: 2 });
    const reactions = await new Comment(created.id).getReactions(['id', 'type']);
    expect(reactions.map((r) => r._data.type)).toEqual(['LIKE', 'LIKE']);

    actAs('other');
    expect((await new Comment(created.id).get(['like_count', 'user_likes']))._data).toEqual({ id: created.id, like_count: 2, user_likes: false });

    actAs('fan');
    expect(await new Comment(created.id).deleteLikes()).toEqual({ success: true });
    expect((await new Comment(created.id).get(['like_count', 'user_likes']))._data).toEqual({ id: created.id, like_count: 1, user_likes: false });
    // Unliking what is not liked changes nothing.
    expect(await new Comment(created.id).deleteLikes()).toEqual({ success: true });
    expect((await new Comment(created.id).get(['like_count']))._data).toEqual({ id: created.id, like_count: 1 });
  });

  it('Comment.delete: {success: true}; the comment, its replies and their likes are gone', async () => {
    actAs('fan');
    const created = await new PagePost(pagePost.id).createComment([], { message: 'Delete me' });
    actAs('other');
    const reply = await new Comment(created.id).createComment([], { message: 'a reply that goes too' });
    await new Comment(reply.id).createLike([]);
    await new Comment(created.id).createLike([]);
    const ids = [internalId(created.id), internalId(reply.id)];
    expect(await countIn('comment_likes', 'comment_id', ids)).toBe(2);

    // Someone else may not delete it.
    const refused = await failure(new Comment(created.id).delete([]));
    expect(refused.status).toBe(403);
    expect(refused.response).toMatchObject({ code: 200 });
    expect([await countIn('comments', 'id', ids), await countIn('comment_likes', 'comment_id', ids)]).toEqual([2, 2]);

    actAs('fan');
    expect(await new Comment(created.id).delete([])).toEqual({ success: true });
    expect([await countIn('comments', 'id', ids), await countIn('comment_likes', 'comment_id', ids), await countIn('graph_objects', 'id', ids)]).toEqual([
      0, 0, 0,
    ]);

    for (const id of [created.id, reply.id]) {
      const gone = await failure(new Comment(id).get(['message']));
      expect(gone.status).toBe(400);
      expect(gone.response).toMatchObject({ code: 100, error_subcode: 33, message: UNKNOWN_OBJECT(id) });
    }
  });

  it("Comment.delete by the page: a person's comment (pages_read_user_content) and its own; never a comment on a review", async () => {
    actAs('fan');
    const persons = await new PagePost(pagePost.id).createComment([], { message: 'Spam' });
    const onReview = await new Post(reviewPost.id).createComment([], { message: 'Agreed, five stars' });
    actAs('page');
    const pages = await new PagePost(pagePost.id).createComment([], { message: 'Oops' });
    expect(await new Comment(persons.id).delete([])).toEqual({ success: true });
    expect(await new Comment(pages.id).delete([])).toEqual({ success: true });
    expect((await count('comments', { id: internalId(persons.id) })) + (await count('comments', { id: internalId(pages.id) }))).toBe(0);

    const review = await failure(new Comment(onReview.id).delete([]));
    expect(review.status).toBe(403);
    expect(review.response).toMatchObject({
      code: 200,
      type: 'OAuthException',
      message: "(#200) Permissions error: comments on a review cannot be removed by the page, as reviews are not the page's posts",
    });
    expect(await count('comments', { id: internalId(onReview.id) })).toBe(1);
    // Its author may.
    actAs('fan');
    expect(await new Comment(onReview.id).delete([])).toEqual({ success: true });
    expect(await count('comments', { id: internalId(onReview.id) })).toBe(0);
  });

  it('names comments <post id>_<comment id>: the three-part form is error 100, an unknown one 100/33', async () => {
    actAs('page');
    const created = await new PagePost(pagePost.id).createComment([], { message: 'Named' });
    const discontinued = `${page.id}_${created.id}`;
    const old = await failure(new Comment(discontinued).get(['message']));
    expect(old.status).toBe(400);
    expect(old.response).toMatchObject({ code: 100 });
    expect(old.response.error_subcode).toBeUndefined();
    expect(old.response.message).toBe(
      `(#100) The comment id ${discontinued} uses the discontinued {page-id}_{post-id}_{comment-id} form: use {pagepost-id}_{comment-id}`,
    );

    const missing = `${pagePost.id}_999999999999`;
    const unknown = await failure(new Comment(missing).get(['message']));
    expect(unknown.response).toMatchObject({ code: 100, error_subcode: 33, message: UNKNOWN_OBJECT(missing) });
  });

  it('a bad token reaches the SDK as error 190', async () => {
    FacebookAdsApi.init('not-a-token', 'en_US', false);
    const error = await failure(new Comment(`${pagePost.id}_1`).get(['message']));
    expect(error.status).toBe(400);
    expect(error.response).toMatchObject({ code: 190, type: 'OAuthException' });
  });
});
