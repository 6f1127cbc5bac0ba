import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor, type SdkObject } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, UNKNOWN_OBJECT, type GraphClient } from '../helpers/graph.ts';
import { TOKEN_FAILURE_MESSAGES } from '../../src/oauth/tokens.ts';
import { commentExternalId, type PageRecord, type PostRecord } from '../../src/comments/store.ts';
import type { AdAccountRecord } from '../../src/ads/store.ts';

/**
 * Page access tokens (issue 22's `/me/accounts`): a person who moderates a page gets, in its own session, a token
 * that acts as the page: `/me` is the page, comments and reactions are the page's, it moderates and replies
 * privately; it reads no ads, and it ends with the session or with the person's MODERATE task. The official SDK
 * reads the tokens (User.getAccounts) and then acts with one.
 */
const sdk = bizSdk as unknown as {
  User: new (id: string) => { getAccounts(fields: string[]): Promise<SdkCursor> };
  PagePost: new (id: string) => { createComment(fields: string[], params: Record<string, unknown>): Promise<SdkObject> };
};

let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let moderator: { token: string; user: { id: string } };
let admin: string;
let fan: { token: string; user: { id: string } };
let page: PageRecord;
let otherPage: PageRecord;
let post: PostRecord;
let otherPost: PostRecord;
let account: AdAccountRecord;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  const other = await world.organization();
  orgId = org.id;
  page = await world.page(org.id);
  otherPage = await world.page(other.id);
  post = await world.post(page);
  otherPost = await world.post(otherPage);
  account = await world.adAccount(org.id);
  moderator = await world.user({ organizationId: org.id, role: 'moderator' });
  admin = (await world.user({ organizationId: org.id, role: 'admin' })).token;
  fan = await world.user();
});
afterAll(() => server?.close());

/** A page token for the page, as `/me/accounts` hands it to the person signed in with `sessionToken`. */
async function pageToken(sessionToken: string, forPage = page): Promise<string> {
  const { body } = await graph.get('me/accounts', sessionToken, {});
  const entry = body.data.find((row: { id: string }) => row.id === forPage.id);
  expect(entry?.access_token).toEqual(expect.any(String));
  return entry.access_token as string;
}

describe('/me/accounts', () => {
  it('lists each moderated page with a page token and the tasks the person holds, as the platform does without fields', async () => {
    const { body } = await graph.get('me/accounts', moderator.token, {});
    expect(body.data).toEqual(
      [{ id: page.id, name: page.name, category: page.category ?? undefined, access_token: expect.stringMatching(/^ey/), tasks: ['MODERATE'] }].map(
        withoutUndefined,
      ),
    );
    const adminPages = (await graph.get('me/accounts', admin, { fields: 'id,tasks' })).body.data;
    expect(adminPages).toEqual([{ id: page.id, tasks: ['MANAGE', 'CREATE_CONTENT', 'MODERATE', 'ADVERTISE', 'ANALYZE'] }]);
  });

  it('the official SDK reads them (User.getAccounts), and acts as the page with one', async () => {
    let restore = pointSdkAt(server.url, moderator.token);
    let token: string;
    try {
      const pages = await new sdk.User('me').getAccounts(['name', 'access_token', 'tasks']);
      expect(pages.map((entry) => entry._data.id)).toEqual([page.id]);
      token = pages[0]!._data.access_token as string;
    } finally {
      restore();
    }
    // With it, the SDK comments as the page (PagePost.createComment).
    restore = pointSdkAt(server.url, token);
    let created: string;
    try {
      created = (await new sdk.PagePost(post.id).createComment([], { message: 'Posted by the SDK as the page' }))._data.id as string;
    } finally {
      restore();
    }
    expect((await graph.get(created, fan.token, { fields: 'from,message' })).body).toEqual({
      id: created,
      from: { id: page.id, name: page.name },
      message: 'Posted by the SDK as the page',
    });
    expect((await graph.get('me', token, { fields: 'id,name' })).body).toEqual({ id: page.id, name: page.name });
  });

  it("reads a page token on the page itself (?fields=access_token) and in GraphQL, for the page's moderators only", async () => {
    expect((await graph.get(page.id, moderator.token, { fields: 'access_token' })).body.access_token).toEqual(expect.stringMatching(/^ey/));
    expect((await graph.get(page.id, fan.token, { fields: 'name,access_token,tasks' })).body).toEqual({ id: page.id, name: page.name, tasks: [] });
    const query = 'query($id: ID!) { node(id: $id) { ... on Page { accessToken tasks } } }';
    const mine = await server.graphql(query, { id: page.id }, moderator.token);
    expect(mine.body.data?.node).toEqual({ accessToken: expect.stringMatching(/^ey/), tasks: ['MODERATE'] });
    const theirs = await server.graphql(query, { id: page.id }, fan.token);
    expect(theirs.body.data?.node).toEqual({ accessToken: null, tasks: [] });
  });
});

describe('acting with a page token', () => {
  it('comments, reacts and replies privately as the page, and moderates', async () => {
    const token = await pageToken(moderator.token);
    const { body } = await graph.call('POST', `/v24.0/${post.id}/comments`, { token, form: { message: 'Thanks for asking!' } });
    const read = await graph.get(body.id, moderator.token, { fields: 'from,message' });
    expect(read.body.from).toEqual({ id: page.id, name: page.name });

    const fanComment = commentExternalId(await world.comment(post, { authorUserId: fan.user.id, authorPageId: null, message: 'Where is my order?' }));
    expect((await graph.call('POST', `/v24.0/${fanComment}/reactions`, { token, form: { type: 'LOVE' } })).status).toBe(200);
    const reactions = await graph.get(`${fanComment}/reactions`, moderator.token, { fields: 'id,type' });
    expect(reactions.body.data).toEqual([{ id: page.id, type: 'LOVE' }]);
    expect((await graph.call('POST', `/v24.0/${fanComment}`, { token, form: { is_hidden: 'true' } })).body).toEqual({ success: true });
    expect((await graph.get(fanComment, token, { fields: 'is_hidden' })).body.is_hidden).toBe(true);
    const reply = await graph.call('POST', `/v24.0/${fanComment}/private_replies`, { token, form: { message: 'Check your inbox' } });
    expect(reply.body).toEqual({ id: expect.stringMatching(/^m_/), user_id: fan.user.id });
  });

  it("reads no ad objects and moderates no other organization's page", async () => {
    const token = await pageToken(moderator.token);
    expectGraphError(await graph.get(`act_${account.id}`, token, { fields: 'name' }), {
      status: 400,
      code: 100,
      subcode: 33,
      message: UNKNOWN_OBJECT(`act_${account.id}`),
    });
    const elsewhere = commentExternalId(await world.comment(otherPost, { authorUserId: fan.user.id, authorPageId: null }));
    // Another organization's pages are not its own (as for an API client's page token): they are unknown to it.
    const hide = await graph.call('POST', `/v24.0/${elsewhere}`, { token, form: { is_hidden: 'true' } });
    expectGraphError(hide, { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(elsewhere, 'post') });
    expect((await graph.get(elsewhere, moderator.token, { fields: 'is_hidden' })).body.is_hidden).toBe(false);
  });

  it('ends with the session it was given in (logout), and when its person no longer moderates', async () => {
    const session = (await world.user({ organizationId: orgId, role: 'moderator' })).token;
    const token = await pageToken(session);
    expect((await graph.get('me', token, { fields: 'id' })).body).toEqual({ id: page.id });
    await fetch(`${server.url}/api/v2/users/logout`, { method: 'POST', headers: { 'service-session-token': session } });
    expectGraphError(await graph.get('me', token, { fields: 'id' }), { status: 400, code: 190, message: TOKEN_FAILURE_MESSAGES.page_access_ended });

    const demoted = await world.user({ organizationId: orgId, role: 'moderator' });
    const demotedToken = await pageToken(demoted.token);
    await server.deps.db('organization_members').where({ user_id: demoted.user.id }).update({ role: 'advertiser' });
    expectGraphError(await graph.get('me', demotedToken, { fields: 'id' }), { status: 400, code: 190, message: TOKEN_FAILURE_MESSAGES.page_access_ended });
  });

  it("refuses a page token that names someone else's session, even signed with the server's key", async () => {
    const key = await server.deps.keys.active();
    const now = Math.floor(Date.now() / 1000);
    const forge = (claims: Record<string, unknown>, subject: string) =>
      new SignJWT({ token_use: 'page', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
        .setSubject(subject)
        .setAudience(page.id)
        .setIssuer(server.deps.config.tokenIssuer)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + 600)
        .setJti(randomUUID())
        .sign(key.privateKey);
    const fanSession = (await server.deps.db('sessions').where({ user_id: fan.user.id }).first('id')) as { id: string };
    // The fan's live session, claimed for the moderator: the session is not the moderator's.
    expectGraphError(await graph.get('me', await forge({ sid: fanSession.id }, moderator.user.id), {}), {
      status: 400,
      code: 190,
      message: TOKEN_FAILURE_MESSAGES.page_access_ended,
    });
    // The fan's own session: the fan does not moderate the page.
    expectGraphError(await graph.get('me', await forge({ sid: fanSession.id }, fan.user.id), {}), {
      status: 400,
      code: 190,
      message: TOKEN_FAILURE_MESSAGES.page_access_ended,
    });
    // Claims of the wrong shape are refused the same way, never a server error.
    expectGraphError(await graph.get('me', await forge({ sid: 'not-a-uuid' }, fan.user.id), {}), {
      status: 400,
      code: 190,
      message: TOKEN_FAILURE_MESSAGES.page_access_ended,
    });
  });
});

function withoutUndefined<T extends Record<string, unknown>>(row: T): T {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) as T;
}
