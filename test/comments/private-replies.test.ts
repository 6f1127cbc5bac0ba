import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkObject } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, type GraphClient } from '../helpers/graph.ts';
import { databaseDigest, expectUnchanged } from '../helpers/table-hash.ts';
import { commentExternalId, type PageRecord, type PostRecord } from '../../src/comments/store.ts';

/**
 * Private replies: a page moderator sends the author of a person's top-level comment on the page one private
 * message, within 7 days of the comment, once (POST /<comment>/private_replies answers {id, user_id}; the SDK's
 * generic createEdge, as 24.0.1 has no named call for it; GraphQL replyPrivately). can_reply_privately and
 * private_reply_conversation follow; the message is readable by the page's moderators and the person only.
 */
const sdk = bizSdk as unknown as {
  Comment: new (id: string) => { createEdge(edge: string, fields: string[], params: Record<string, unknown>): Promise<SdkObject> };
};

let server: TestServer;
let graph: GraphClient;
let moderator: string;
let fan: { token: string; user: { id: string } };
let stranger: string;
let post: PostRecord;
let page: PageRecord;
let world: ReturnType<typeof worldBuilder>;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  page = await world.page(org.id);
  post = await world.post(page);
  moderator = (await world.user({ organizationId: org.id, role: 'moderator' })).token;
  fan = await world.user();
  stranger = (await world.user()).token;
  restoreSdk = pointSdkAt(server.url, moderator);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

const fanComment = async (fields: Record<string, unknown> = {}) =>
  commentExternalId(await world.comment(post, { authorUserId: fan.user.id, authorPageId: null, message: 'Where is my order?', ...fields }));
const reply = (id: string, token: string, message = 'We are on it: check your inbox') =>
  graph.call('POST', `/v24.0/${id}/private_replies`, { token, form: { message } });

describe('private replies', () => {
  it('the page replies once to a person; the person and the moderators read it, nobody else', async () => {
    const id = await fanComment();
    expect((await graph.get(id, moderator, { fields: 'can_reply_privately' })).body.can_reply_privately).toBe(true);
    const sent = await new sdk.Comment(id).createEdge('/private_replies', [], { message: 'We are on it: check your inbox' });
    expect(sent._data).toEqual({ id: expect.stringMatching(/^m_[0-9a-f]{32}$/), user_id: fan.user.id });

    const conversation = { id: sent._data.id, message: 'We are on it: check your inbox', created_time: expect.stringMatching(/\+0000$/) };
    expect((await graph.get(id, fan.token, { fields: 'private_reply_conversation' })).body.private_reply_conversation).toEqual(conversation);
    expect((await graph.get(id, moderator, { fields: 'private_reply_conversation,can_reply_privately' })).body).toEqual({
      id,
      private_reply_conversation: conversation,
      can_reply_privately: false,
    });
    expect((await graph.get(id, stranger, { fields: 'message,private_reply_conversation' })).body).toEqual({ id, message: 'Where is my order?' });
    // Once per comment: error 10900.
    expectGraphError(await reply(id, moderator), { status: 400, code: 10900, message: /already replied/ });
  });

  it("refuses the page's own comments, replies, comments older than 7 days and people who are not the page, writing nothing", async () => {
    const own = commentExternalId(await world.comment(post));
    const parent = await world.comment(post, { authorUserId: fan.user.id, authorPageId: null });
    const nested = commentExternalId(await world.comment(post, { authorUserId: fan.user.id, authorPageId: null, parentId: parent.id }));
    const old = await fanComment({ createdTime: new Date(Date.now() - 8 * 86_400_000) });
    const fresh = await fanComment();
    const before = await databaseDigest(server.deps.db);
    expectGraphError(await reply(own, moderator), { status: 400, code: 10903, message: /the page's own/ });
    expectGraphError(await reply(nested, moderator), { status: 400, code: 10903, message: /not a reply/ });
    expectGraphError(await reply(old, moderator), { status: 400, code: 10903, message: /within 7 days/ });
    expect((await graph.get(old, moderator, { fields: 'can_reply_privately' })).body.can_reply_privately).toBe(false);
    expectGraphError(await reply(fresh, stranger), { status: 403, code: 200, message: /only the page replies privately/ });
    expectGraphError(await reply(fresh, moderator, ''), { status: 400, code: 100, message: /message/ });
    await expectUnchanged(server.deps.db, before, 'refused private replies');
  });

  it('GraphQL: replyPrivately and Comment.privateReply', async () => {
    const id = await fanComment();
    const sent = await server.graphql('mutation ($id: ID!) { replyPrivately(id: $id, message: "Hello from the page") { id message } }', { id }, moderator);
    const replyId = (sent.body.data as { replyPrivately: { id: string } }).replyPrivately.id;
    expect(sent.body.data).toEqual({ replyPrivately: { id: replyId, message: 'Hello from the page' } });
    const read = (token: string) => server.graphql('query ($id: ID!) { comment(id: $id) { privateReply { id message } } }', { id }, token);
    expect((await read(fan.token)).body.data).toEqual({ comment: { privateReply: { id: replyId, message: 'Hello from the page' } } });
    expect((await read(stranger)).body.data).toEqual({ comment: { privateReply: null } });
  });
});
