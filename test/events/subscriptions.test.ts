import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { graphqlWsClients } from '../helpers/graphql-ws.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { commentExternalId, type PageRecord, type PostRecord } from '../../src/comments/store.ts';

/**
 * GraphQL subscriptions over graphql-ws (issue: real time): a comment written through /v24.0 reaches a
 * subscriber of its page, in order, with what the subscriber may read; a hidden comment only reaches those who
 * may read it; bad documents and credentials are refused.
 */
let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let page: PageRecord;
let post: PostRecord;
let moderator: string;
let fan: { token: string; user: { id: string } };
let visitor: string;
const websockets = graphqlWsClients(() => server.url);
const connect = (token?: string) => websockets.connect(token);

beforeAll(async () => {
  server = await startTestServer();
  world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  page = await world.page(org.id);
  post = await world.post(page);
  moderator = (await world.user({ organizationId: org.id, role: 'moderator' })).token;
  fan = await world.user();
  visitor = (await world.user()).token;
});
afterAll(async () => {
  await websockets.disposeAll();
  await server?.close();
});

interface Heard {
  events: Array<Record<string, any>>;
  errors: unknown[];
  /** Resolves once `count` events have arrived. */
  until(count: number): Promise<void>;
  stop(): void;
}

function listen(client: Client, query: string, variables: Record<string, unknown>): Promise<Heard> {
  const events: Array<Record<string, any>> = [];
  const errors: unknown[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const heard: Heard = {
    events,
    errors,
    until: (count) => new Promise((resolve) => (events.length >= count ? resolve() : waiters.push({ count, resolve }))),
    stop: () => undefined,
  };
  return new Promise((ready) => {
    heard.stop = client.subscribe(
      { query, variables },
      {
        next: (result) => {
          if (result.errors) errors.push(...result.errors);
          if (result.data) events.push(result.data);
          for (const waiter of waiters) if (events.length >= waiter.count) waiter.resolve();
        },
        error: (error) => errors.push(error),
        complete: () => undefined,
      },
    );
    // The server answers nothing when a subscription starts: give it a moment to be listening.
    setTimeout(() => ready(heard), 150);
  });
}

const COMMENT_EVENTS = `subscription($pageId: ID) { commentEvents(pageId: $pageId) { id item verb commentId postId comment { id message } } }`;

describe('commentEvents', () => {
  it('hears comments written through /v24.0 on the page, in order, once each', async () => {
    const heard = await listen(connect(moderator), COMMENT_EVENTS, { pageId: page.id });
    const first = (await graph.call('POST', `/v24.0/${post.id}/comments`, { token: fan.token, form: { message: 'First!' } })).body.id as string;
    const second = (await graph.call('POST', `/v24.0/${post.id}/comments`, { token: fan.token, form: { message: 'Second' } })).body.id as string;
    await graph.call('POST', `/v24.0/${first}`, { token: fan.token, form: { message: 'First, edited' } });
    await heard.until(3);
    expect(heard.errors).toEqual([]);
    expect(heard.events.map((e) => [e.commentEvents.verb, e.commentEvents.commentId, e.commentEvents.comment?.id])).toEqual([
      ['ADD', first, first],
      ['ADD', second, second],
      ['EDITED', first, first],
    ]);
    // The comment is read when the event goes out, as the subscriber may read it then.
    expect(heard.events[2]!.commentEvents.comment.message).toBe('First, edited');
    const ids = heard.events.map((e) => e.commentEvents.id);
    expect(new Set(ids).size).toBe(3);
    heard.stop();
  });

  it('tells a hidden comment only to those who may read it', async () => {
    const comment = commentExternalId(await world.comment(post, { authorUserId: fan.user.id, authorPageId: null, message: 'Rude words' }));
    const asModerator = await listen(connect(moderator), COMMENT_EVENTS, { pageId: page.id });
    const asVisitor = await listen(connect(visitor), COMMENT_EVENTS, { pageId: page.id });
    const asAuthor = await listen(connect(fan.token), COMMENT_EVENTS, { pageId: page.id });
    await graph.call('POST', `/v24.0/${comment}`, { token: moderator, form: { is_hidden: 'true' } });
    const marker = (await graph.call('POST', `/v24.0/${post.id}/comments`, { token: fan.token, form: { message: 'Visible to all' } })).body.id as string;
    await Promise.all([asModerator.until(2), asVisitor.until(1), asAuthor.until(2)]);
    expect(asModerator.events.map((e) => e.commentEvents.verb)).toEqual(['HIDE', 'ADD']);
    expect(asAuthor.events.map((e) => e.commentEvents.verb)).toEqual(['HIDE', 'ADD']);
    // The visitor hears the next comment, and never heard of the hidden one.
    expect(asVisitor.events.map((e) => [e.commentEvents.verb, e.commentEvents.commentId])).toEqual([['ADD', marker]]);
  });

  it('refuses queries over the socket, documents past the limits, unknown fields and anonymous callers', async () => {
    const client = connect(moderator);
    const query = await listen(client, '{ me { id } }', {});
    const unknown = await listen(client, 'subscription { nothingHere }', {});
    const anonymous = await listen(connect(), COMMENT_EVENTS, { pageId: page.id });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(JSON.stringify(query.errors)).toMatch(/Only subscriptions are served here: send queries to POST \/graphql/);
    expect(JSON.stringify(unknown.errors)).toMatch(/Cannot query field \\"nothingHere\\" on type \\"Subscription\\"/);
    expect(JSON.stringify(anonymous.errors)).toMatch(/UNAUTHENTICATED/);
  });
});
