import { randomUUID } from 'node:crypto';
import { createServer, type Server as TcpServer, type Socket, connect as tcpConnect, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { createClient as wsClient, type Client as WsClient } from 'graphql-ws';
import { createClient as sseClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { graphClient } from '../helpers/graph.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { redisReachable } from '../helpers/redis.ts';
import { dropRedisKeys } from '../helpers/serve-process.ts';
import type { Knex } from 'knex';
import { POSTGRES_URL, TEST_DB } from '../helpers/database.ts';
import { createDatabase } from '../../src/db/index.ts';
import { emitEvents } from '../../src/events/outbox.ts';
import { createClient as createApiClient } from '../../src/oauth/service.ts';
import { resolvePrincipal } from '../../src/http/authenticate.ts';
import { SIGNED_OUT_MESSAGE } from '../../src/errors/index.ts';
import { eventHub, MAX_QUEUED_EVENTS } from '../../src/events/hub.ts';
import { MAX_NESTING } from '../../src/graphql/limits.ts';
import type { PublishedEvent } from '../../src/events/types.ts';

/**
 * Real time when things go wrong: malformed and oversized graphql-ws messages, bad credentials, documents the server
 * refuses, the caps per connection and per caller, a subscriber that never reads, Server-Sent Events refusals, and
 * Redis going away under the event bus and coming back. Every case runs against a real server on loopback, and each
 * one checks that the server keeps serving afterwards.
 */

/** A subscription's observer that keeps the comment id of each event it hears, and its errors. */
function hearing(heard: string[], errors: unknown[]) {
  return {
    next: (result: { errors?: readonly unknown[]; data?: unknown }) => {
      if (result.errors) errors.push(...result.errors);
      else heard.push((result.data as { commentEvents: { commentId: string } }).commentEvents.commentId);
    },
    error: (error: unknown) => errors.push(error),
    complete: () => undefined,
  };
}

const COMMENT_EVENTS = 'subscription($pageId: ID) { commentEvents(pageId: $pageId) { id verb commentId } }';
const GRAPHQL_WS = 'graphql-transport-ws';

/** Polls `condition` every 20 ms; fails naming `what` after `ms`. */
async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

/** `promise`, or a failure naming `what` after `ms`. */
async function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const wsUrl = (server: TestServer) => `${server.url.replace(/^http/, 'ws')}/graphql`;

type Message = { id?: string; type?: string; payload?: any };

/** A graphql-ws connection spoken by hand (the `ws` package), to send what a proper client never would. */
interface RawSocket {
  ws: WebSocket;
  messages: Message[];
  /** How the server closed it (code and reason). */
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** The first message, already received or to come, that matches. */
  waitFor(match: (message: Message) => boolean, what: string, ms?: number): Promise<Message>;
  /** Closes from this side (if still open) and waits for the close. */
  close(): Promise<void>;
}

/** Every raw socket a test opened: each test closes its own, and afterAll any left over. */
const openSockets = new Set<RawSocket>();

/** `autoPong: false` makes a client that never answers the server's pings (gone without closing). */
async function rawSocket(url: string, options: { autoPong?: boolean } = {}): Promise<RawSocket> {
  const ws = new WebSocket(url, GRAPHQL_WS, { autoPong: options.autoPong ?? true });
  const messages: Message[] = [];
  const listeners = new Set<() => void>();
  ws.on('message', (data) => {
    let parsed: Message;
    try {
      parsed = JSON.parse(String(data)) as Message;
    } catch {
      parsed = { type: 'unparsable', payload: String(data) };
    }
    messages.push(parsed);
    for (const listener of listeners) listener();
  });
  ws.on('error', () => undefined); // the close says what happened
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await within(
    new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    }),
    'the WebSocket opening',
  );
  const raw: RawSocket = {
    ws,
    messages,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    waitFor(match, what, ms = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      let listener: () => void = () => undefined;
      return within(
        new Promise<Message>((resolve) => {
          listener = () => {
            const hit = messages.find(match);
            if (hit) resolve(hit);
          };
          listeners.add(listener);
        }),
        what,
        ms,
      ).finally(() => listeners.delete(listener));
    },
    async close() {
      openSockets.delete(raw);
      if (ws.readyState === WebSocket.CLOSED) return;
      if (ws.readyState !== WebSocket.CLOSING) ws.close(1000, 'test done');
      // A server that does not answer the close handshake is cut off.
      await within(closed, 'the WebSocket closing', 5_000).catch(() => ws.terminate());
    },
  };
  openSockets.add(raw);
  return raw;
}

/** A raw connection that the server acknowledged, with `params` as its connection params. */
async function acknowledged(server: TestServer, params: Record<string, unknown>, options: { autoPong?: boolean } = {}): Promise<RawSocket> {
  const raw = await rawSocket(wsUrl(server), options);
  raw.send({ type: 'connection_init', payload: params });
  await raw.waitFor((message) => message.type === 'connection_ack', 'connection_ack');
  return raw;
}

const subscribe = (raw: RawSocket, id: string, query: string, variables: Record<string, unknown> = {}) =>
  raw.send({ id, type: 'subscribe', payload: { query, variables } });

/** The errors a subscription ended with: an `error` message, or a `next` carrying errors (a resolver refused). */
async function errorsOf(raw: RawSocket, id: string): Promise<Array<{ message: string; extensions?: Record<string, any> }>> {
  const message = await raw.waitFor(
    (m) => m.id === id && (m.type === 'error' || (m.type === 'next' && Array.isArray(m.payload?.errors))),
    `the errors of subscription ${id}`,
  );
  return message.type === 'error' ? message.payload : message.payload.errors;
}

/** The comment ids a raw subscription heard, in order. */
const heardOn = (raw: RawSocket, id: string) =>
  raw.messages.filter((m) => m.id === id && m.type === 'next' && m.payload?.data).map((m) => m.payload.data.commentEvents.commentId as string);

/** A small world on a server: a page with a post, a moderator of its organization and a fan who comments. */
async function worldOn(server: TestServer) {
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  const page = await world.page(org.id);
  const post = await world.post(page);
  const moderator = (await world.user({ organizationId: org.id, role: 'moderator' })).token;
  const fan = (await world.user()).token;
  const graph = graphClient(server);
  const comment = async (message: string) => {
    const response = await graph.call('POST', `/v24.0/${post.id}/comments`, { token: fan, form: { message } });
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };
  return { world, org, page, post, moderator, fan, comment };
}

type World = Awaited<ReturnType<typeof worldOn>>;

/**
 * That the server still serves subscriptions: a graphql-ws client (the library, as a browser would use it) connects,
 * subscribes to the page's comments, and hears one written through /v24.0.
 */
async function stillServes(server: TestServer, world: World): Promise<void> {
  const hub = eventHub(server.deps);
  const before = hub.size;
  const client: WsClient = wsClient({
    url: wsUrl(server),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${world.moderator}` },
    retryAttempts: 0,
  });
  const heard: string[] = [];
  const errors: unknown[] = [];
  try {
    client.subscribe({ query: COMMENT_EVENTS, variables: { pageId: world.page.id } }, hearing(heard, errors));
    await until(() => hub.size === before + 1, 'a new subscription listening');
    const id = await world.comment('Still here?');
    await until(() => heard.length > 0 || errors.length > 0, 'the comment heard');
    expect(errors).toEqual([]);
    expect(heard).toEqual([id]);
  } finally {
    await client.dispose();
  }
  await until(() => hub.size === before, 'the subscription ended');
}

afterAll(async () => {
  await Promise.all([...openSockets].map((raw) => raw.close()));
});

describe(`subscription faults on one server (${TEST_DB})`, () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer();
    world = await worldOn(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('closes a connection whose connection_init is malformed (4400), and keeps serving', async () => {
    const notAnObject = await rawSocket(wsUrl(server));
    notAnObject.send('{"type":"connection_init","payload":"not an object"}');
    expect(await within(notAnObject.closed, 'the close of a connection_init with a string payload')).toEqual({
      code: 4400,
      reason: 'Invalid message received',
    });
    expect(notAnObject.messages).toEqual([]);

    const notJson = await rawSocket(wsUrl(server));
    notJson.send('this is not JSON {');
    expect(await within(notJson.closed, 'the close of a frame that is not JSON')).toEqual({ code: 4400, reason: 'Invalid message received' });
    expect(notJson.messages).toEqual([]);

    // Not JSON after an acknowledged connection_init: the same.
    const later = await acknowledged(server, { authorization: `Bearer ${world.moderator}` });
    later.send('{"id":"1","type":"subscribe","payload":');
    expect((await within(later.closed, 'the close of a broken frame after the ack')).code).toBe(4400);

    await stillServes(server, world);
  });

  it('closes a connection that sends a message over 64 KiB (1009), and keeps serving', async () => {
    const hub = eventHub(server.deps);
    const before = hub.size;
    const raw = await acknowledged(server, { authorization: `Bearer ${world.moderator}` });
    const padding = ' '.repeat(100 * 1024);
    subscribe(raw, 'big', `subscription {${padding} commentEvents(pageId: "${world.page.id}") { id } }`);
    const { code } = await within(raw.closed, 'the close of a 100 KiB message');
    expect(code).toBe(1009); // Message Too Big (RFC 6455): ws refuses the frame before it is read whole
    expect(raw.messages.map((m) => m.type)).toEqual(['connection_ack']);
    expect(hub.size).toBe(before);
    await stillServes(server, world);
  });

  it('refuses an unknown field (naming it), a page that does not exist and a page of another organization (NOT_FOUND)', async () => {
    const hub = eventHub(server.deps);
    const before = hub.size;
    const raw = await acknowledged(server, { authorization: `Bearer ${world.moderator}` });
    try {
      subscribe(raw, 'unknown', 'subscription { nothingHere }');
      const unknown = await errorsOf(raw, 'unknown');
      expect(unknown).toHaveLength(1);
      expect(unknown[0]!.message).toBe('Cannot query field "nothingHere" on type "Subscription".');
      expect(unknown[0]!.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

      subscribe(raw, 'missing', COMMENT_EVENTS, { pageId: '999999999999' });
      const missing = await errorsOf(raw, 'missing');
      expect(missing).toMatchObject([{ message: 'Page 999999999999 does not exist or you cannot see it.', extensions: { code: 'NOT_FOUND' } }]);
      await raw.waitFor((m) => m.id === 'missing' && m.type === 'complete', 'the refused subscription completing');
    } finally {
      await raw.close();
    }

    // An API client of another organization does not see the page; one of the page's organization does (the control).
    const scope = 'pages_read_engagement pages_manage_engagement';
    const otherOrg = await world.world.organization();
    const outsider = await createApiClient(server.deps, { name: 'outsider-bot', scope, organization: otherOrg.id });
    const insider = await createApiClient(server.deps, { name: 'insider-bot', scope, organization: world.org.id });
    const outsiderToken = await fetchAccessToken(server.url, outsider.client.clientId, outsider.clientSecret);
    const insiderToken = await fetchAccessToken(server.url, insider.client.clientId, insider.clientSecret);

    const asOutsider = await acknowledged(server, { authorization: `Bearer ${outsiderToken}` });
    const asInsider = await acknowledged(server, { authorization: `Bearer ${insiderToken}` });
    try {
      subscribe(asOutsider, 'theirs', COMMENT_EVENTS, { pageId: world.page.id });
      expect(await errorsOf(asOutsider, 'theirs')).toMatchObject([
        { message: `Page ${world.page.id} does not exist or you cannot see it.`, extensions: { code: 'NOT_FOUND' } },
      ]);

      subscribe(asInsider, 'ours', COMMENT_EVENTS, { pageId: world.page.id });
      await until(() => hub.size === before + 1, 'the insider listening');
      const id = await world.comment('For the page organization only');
      await asInsider.waitFor((m) => m.id === 'ours' && m.type === 'next', 'the insider hearing the comment');
      expect(heardOn(asInsider, 'ours')).toEqual([id]);
      // The outsider's refused subscription heard nothing after its refusal.
      expect(asOutsider.messages.filter((m) => m.id === 'theirs').map((m) => m.type)).toEqual(['next', 'complete']);
    } finally {
      await Promise.all([asOutsider.close(), asInsider.close()]);
    }
    await until(() => hub.size === before, 'the subscriptions ended');
  });

  it('refuses documents past the query limits with their own code (QUERY_TOO_DEEP), over WebSocket and SSE', async () => {
    const hub = eventHub(server.deps);
    const before = hub.size;
    const deep = `subscription ${'{'.repeat(MAX_NESTING + 1)}${'}'.repeat(MAX_NESTING + 1)}`;
    const expected = {
      message: `Query is nested ${MAX_NESTING + 1} levels deep (brackets, braces and parentheses); the limit is ${MAX_NESTING}.`,
      extensions: { code: 'QUERY_TOO_DEEP', limit: MAX_NESTING, found: MAX_NESTING + 1 },
    };
    const raw = await acknowledged(server, { authorization: `Bearer ${world.moderator}` });
    try {
      subscribe(raw, 'deep', deep);
      expect(await errorsOf(raw, 'deep')).toEqual([expected]);
      // The connection stays open for a good subscription.
      subscribe(raw, 'fine', COMMENT_EVENTS, { pageId: world.page.id });
      await until(() => hub.size === before + 1, 'the good subscription listening');
    } finally {
      await raw.close();
    }
    await until(() => hub.size === before, 'the subscription ended');

    const overSse = await fetch(`${server.url}/graphql/stream`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'service-session-token': world.moderator },
      body: JSON.stringify({ query: deep }),
    });
    expect(overSse.status).toBe(400);
    expect(await overSse.json()).toEqual({ errors: [expected] });
  });

  it('closes a connection whose credential is bad with 4401 and a reason, before acknowledging it', async () => {
    // An access token (a JWT) that does not verify: the reason says it is the access token.
    const badJwt = await rawSocket(wsUrl(server));
    badJwt.send({ type: 'connection_init', payload: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.bm90LWEtc2lnbmF0dXJl' } });
    const jwtClose = await within(badJwt.closed, 'the close of a bad access token');
    expect(jwtClose).toEqual({ code: 4401, reason: 'Invalid access token: it could not be verified.' });
    expect(badJwt.messages).toEqual([]);

    // A session token that names no session, in either connection param: /graphql's 401 message.
    for (const params of [{ authorization: 'Bearer no-such-session-token' }, { 'service-session-token': 'no-such-session-token' }]) {
      const badSession = await rawSocket(wsUrl(server));
      badSession.send({ type: 'connection_init', payload: params });
      expect(await within(badSession.closed, 'the close of an unknown session token')).toEqual({ code: 4401, reason: SIGNED_OUT_MESSAGE });
      expect(badSession.messages).toEqual([]);
    }

    // graphql-ws's own client reports the same close to its caller.
    const client = wsClient({
      url: wsUrl(server),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: 'Bearer no-such-session-token' },
      retryAttempts: 0,
    });
    try {
      const failure = await within(
        new Promise<unknown>((resolve) =>
          client.subscribe(
            { query: COMMENT_EVENTS, variables: { pageId: world.page.id } },
            { next: () => undefined, error: resolve, complete: () => resolve(null) },
          ),
        ),
        'the library client failing',
      );
      expect(failure).toMatchObject({ code: 4401, reason: SIGNED_OUT_MESSAGE });
    } finally {
      await client.dispose();
    }
    await stillServes(server, world);
  });

  it('drops a subscriber that leaves more than MAX_QUEUED_EVENTS unread (RATE_LIMITED), and keeps serving', async () => {
    const hub = eventHub(server.deps);
    const before = hub.size;
    const viewer = await resolvePrincipal(server.deps, world.moderator);
    expect(viewer?.kind).toBe('user');
    const subscription = hub.listen({ keys: [`feed:${world.page.id}`], wants: () => true, viewer: async () => viewer! });
    expect(hub.size).toBe(before + 1);
    try {
      let seq = 1_000_000;
      const event = (): PublishedEvent => {
        const commentId = `${world.post.id}_${randomUUID()}`;
        return {
          id: randomUUID(),
          seq: seq++,
          organizationId: world.org.id,
          topic: 'feed',
          entryId: world.page.id,
          objectId: commentId,
          verb: 'add',
          value: { item: 'comment', verb: 'add', comment_id: commentId, post_id: world.post.id, parent_id: world.post.id, created_time: 1_700_000_000 },
          subject: { type: 'post', organizationId: world.org.id },
          createdTime: new Date(),
        };
      };
      // Exactly MAX_QUEUED_EVENTS waiting is still fine: the first one comes out first.
      const first = Array.from({ length: MAX_QUEUED_EVENTS }, event);
      await server.deps.eventBus.publish(first);
      expect(hub.size).toBe(before + 1);
      const read = await within(subscription.next(), 'the first event');
      expect(read).toEqual({ done: false, value: first[0] });
      // Back to MAX_QUEUED_EVENTS waiting, then one more: dropped.
      await server.deps.eventBus.publish([event()]);
      expect(hub.size).toBe(before + 1);
      await server.deps.eventBus.publish([event()]);
      expect(hub.size).toBe(before);
      const dropped = await within(subscription.next(), 'the dropped subscription').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(dropped).toMatchObject({
        code: 'RATE_LIMITED',
        message: `Subscription dropped: ${MAX_QUEUED_EVENTS} events were waiting unread. Read events as they come, or subscribe to fewer.`,
      });
      // Ended for good: nothing more, and nothing more is queued for it.
      expect(await subscription.next()).toEqual({ done: true, value: undefined });
      await server.deps.eventBus.publish([event()]);
      expect(await subscription.next()).toEqual({ done: true, value: undefined });
    } finally {
      await subscription.return?.();
    }
    expect(hub.size).toBe(before);

    const answer = await server.graphql('{ __typename }');
    expect(answer).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    await stillServes(server, world);
  });

  it('serves commentEvents over Server-Sent Events, refuses a query there (400) and a bad token (401)', async () => {
    const hub = eventHub(server.deps);
    const before = hub.size;
    const streamUrl = `${server.url}/graphql/stream`;

    // graphql-sse's own client, distinct connections mode, authenticated by the usual header.
    const client = sseClient({ url: streamUrl, headers: { 'Service-Session-Token': world.moderator }, retryAttempts: 0 });
    const heard: string[] = [];
    const errors: unknown[] = [];
    let stop: () => void = () => undefined;
    try {
      stop = client.subscribe({ query: COMMENT_EVENTS, variables: { pageId: world.page.id } }, hearing(heard, errors));
      await until(() => hub.size === before + 1, 'the event stream listening');
      const first = await world.comment('Over SSE');
      const second = await world.comment('Over SSE, again');
      await until(() => heard.length >= 2 || errors.length > 0, 'two comments heard over SSE');
      expect(errors).toEqual([]);
      expect(heard).toEqual([first, second]);
    } finally {
      stop();
      client.dispose();
    }
    // The stream's end ends the subscription on the server.
    await until(() => hub.size === before, 'the SSE subscription ended');

    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(streamUrl, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });

    const query = await post({ 'Service-Session-Token': world.moderator }, { query: '{ __typename }' });
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({
      errors: [{ message: 'Only subscriptions are served here: send queries to POST /graphql.', extensions: { code: 'BAD_REQUEST' } }],
    });

    for (const headers of [{ 'Service-Session-Token': 'no-such-session-token' }, { authorization: 'Bearer no-such-session-token' }] as Array<
      Record<string, string>
    >) {
      const refused = await post(headers, { query: COMMENT_EVENTS, variables: { pageId: world.page.id } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).not.toMatch(/event-stream/);
      await refused.body?.cancel();
    }
    expect(hub.size).toBe(before);
    await stillServes(server, world);
  });
});

describe(`subscription caps (${TEST_DB})`, () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer({ SUBSCRIPTIONS_PER_CONNECTION: '2', SUBSCRIPTIONS_PER_PRINCIPAL: '3' });
    world = await worldOn(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a 3rd subscription on a connection and a 4th for one caller (RATE_LIMITED), and frees a slot when one completes', async () => {
    const hub = eventHub(server.deps);
    const params = { authorization: `Bearer ${world.moderator}` };
    const variables = { pageId: world.page.id };
    const a = await acknowledged(server, params);
    const b = await acknowledged(server, params);
    let c: RawSocket | undefined;
    try {
      subscribe(a, 'a1', COMMENT_EVENTS, variables);
      subscribe(a, 'a2', COMMENT_EVENTS, variables);
      await until(() => hub.size === 2, 'two subscriptions on A');
      subscribe(a, 'a3', COMMENT_EVENTS, variables);
      expect(await errorsOf(a, 'a3')).toEqual([
        { message: 'At most 2 subscriptions per connection: complete one first.', extensions: { code: 'RATE_LIMITED' } },
      ]);

      subscribe(b, 'b1', COMMENT_EVENTS, variables);
      await until(() => hub.size === 3, 'a third subscription, on B');
      subscribe(b, 'b2', COMMENT_EVENTS, variables);
      expect(await errorsOf(b, 'b2')).toEqual([{ message: 'At most 3 subscriptions at once for one caller.', extensions: { code: 'RATE_LIMITED' } }]);
      expect(hub.size).toBe(3);

      // A completes a1: B may now take its place.
      a.send({ id: 'a1', type: 'complete' });
      await until(() => hub.size === 2, 'a1 ended');
      subscribe(b, 'b3', COMMENT_EVENTS, variables);
      await until(() => hub.size === 3 || b.messages.some((m) => m.id === 'b3'), 'b3 taken or refused');
      expect(b.messages.filter((m) => m.id === 'b3')).toEqual([]);
      expect(hub.size).toBe(3);

      // The live ones hear the next comment; the completed and the refused ones do not.
      const id = await world.comment('Who hears this?');
      await Promise.all(
        [
          [a, 'a2'],
          [b, 'b1'],
          [b, 'b3'],
        ].map(([raw, sub]) => (raw as RawSocket).waitFor((m) => m.id === sub && m.type === 'next', `${sub as string} hearing the comment`)),
      );
      await sleep(200);
      expect([heardOn(a, 'a1'), heardOn(a, 'a2'), heardOn(a, 'a3'), heardOn(b, 'b1'), heardOn(b, 'b2'), heardOn(b, 'b3')]).toEqual([
        [],
        [id],
        [],
        [id],
        [],
        [id],
      ]);

      // Closing A gives its slot (a2) back to the caller: a new connection takes it, and no more.
      await a.close();
      await until(() => hub.size === 2, 'A closed');
      c = await acknowledged(server, params);
      subscribe(c, 'c1', COMMENT_EVENTS, variables);
      await until(() => hub.size === 3 || c!.messages.some((m) => m.id === 'c1'), 'c1 taken or refused');
      expect(c.messages.filter((m) => m.id === 'c1')).toEqual([]);
      subscribe(c, 'c2', COMMENT_EVENTS, variables);
      expect(await errorsOf(c, 'c2')).toEqual([{ message: 'At most 3 subscriptions at once for one caller.', extensions: { code: 'RATE_LIMITED' } }]);

      // The cap is the caller's on the instance, whichever transport: over SSE too, with 429.
      const overSse = await fetch(`${server.url}/graphql/stream`, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'service-session-token': world.moderator },
        body: JSON.stringify({ query: COMMENT_EVENTS, variables }),
      });
      const body = overSse.headers.get('content-type')?.includes('json') ? await overSse.json() : (await overSse.body?.cancel(), undefined);
      expect({ status: overSse.status, body }).toEqual({
        status: 429,
        body: { errors: [{ message: 'At most 3 subscriptions at once for one caller.', extensions: { code: 'RATE_LIMITED' } }] },
      });
      expect(hub.size).toBe(3);
    } finally {
      await Promise.all([a.close(), b.close(), c?.close()]);
    }
    await until(() => hub.size === 0, 'every subscription ended');
  });

  it('holds SSE streams to the per-caller cap too (429), and an ended stream frees its slot', async () => {
    const hub = eventHub(server.deps);
    expect(hub.size).toBe(0);
    const streams: AbortController[] = [];
    const open = async () => {
      const controller = new AbortController();
      streams.push(controller);
      const response = await fetch(`${server.url}/graphql/stream`, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'service-session-token': world.moderator },
        body: JSON.stringify({ query: COMMENT_EVENTS, variables: { pageId: world.page.id } }),
        signal: controller.signal,
      });
      return { response, controller };
    };
    try {
      for (let i = 1; i <= 3; i++) {
        const { response } = await open();
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        await until(() => hub.size === i, `stream ${i} listening`);
      }
      const fourth = await open();
      expect(fourth.response.status).toBe(429);
      expect(await fourth.response.json()).toEqual({
        errors: [{ message: 'At most 3 subscriptions at once for one caller.', extensions: { code: 'RATE_LIMITED' } }],
      });

      // The client goes away from one stream: its slot is free again.
      streams[0]!.abort();
      await until(() => hub.size === 2, 'the aborted stream ended');
      const again = await open();
      expect(again.response.status).toBe(200);
      await until(() => hub.size === 3, 'the new stream listening');
    } finally {
      for (const controller of streams) controller.abort();
    }
    await until(() => hub.size === 0, 'every stream ended');
  });
});

describe(`keep-alive (${TEST_DB})`, () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer({ SUBSCRIPTION_KEEP_ALIVE_MS: '200' });
    world = await worldOn(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ends a connection that stops answering pings, freeing its subscriptions, and keeps one that answers', async () => {
    const hub = eventHub(server.deps);
    const answering = await acknowledged(server, { authorization: `Bearer ${world.moderator}` });
    subscribe(answering, 'kept', COMMENT_EVENTS, { pageId: world.page.id });
    const silent = await acknowledged(server, { authorization: `Bearer ${world.moderator}` }, { autoPong: false });
    let pinged = 0;
    silent.ws.on('ping', () => pinged++);
    subscribe(silent, 'gone', COMMENT_EVENTS, { pageId: world.page.id });
    await until(() => hub.size === 2, 'both subscriptions listening');

    // Pinged every 200 ms and given 200 ms to answer: the silent one is cut (no close frame), its subscription freed.
    const { code } = await within(silent.closed, 'the silent connection ended', 5_000);
    expect(code).toBe(1006);
    expect(pinged).toBeGreaterThan(0);
    await until(() => hub.size === 1, "the silent connection's subscription freed");

    // The one that answers is still there, pings and all, and still hears comments.
    expect(answering.ws.readyState).toBe(WebSocket.OPEN);
    const id = await world.comment('Still listening?');
    await answering.waitFor((message) => message.id === 'kept' && message.type === 'next', 'the comment heard');
    expect(heardOn(answering, 'kept')).toEqual([id]);
    await answering.close();
  });
});

// Redis: reached through a TCP proxy this test owns, so "Redis going away" never touches the real server.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ON_CI = process.env.CI === 'true';
const redisUp = await redisReachable(REDIS_URL);
if (!redisUp && !ON_CI) console.warn(`Redis is not reachable at ${REDIS_URL}: skipping the Redis outage test (set CI=true to make this a failure).`);

/**
 * A TCP proxy on loopback to `target` that can be taken away (listener closed, every connection cut) and brought back
 * on its port; it counts the XREAD commands it carried (a reader of the event stream waiting for entries).
 */
function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let listener: TcpServer | undefined;
  let port = 0;
  let xreads = 0;
  return {
    get port() {
      return port;
    },
    get xreads() {
      return xreads;
    },
    async start(): Promise<void> {
      const server = createServer((client) => {
        const upstream = tcpConnect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => undefined);
          socket.on('close', () => sockets.delete(socket));
        }
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        // RESP sends the command name as a bulk string: "$5\r\nxread\r\n" (a command in one packet, on loopback).
        client.on('data', (chunk: Buffer) => {
          xreads += chunk.toString('latin1').match(/\$5\r\nxread\r\n/gi)?.length ?? 0;
        });
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      port = (server.address() as AddressInfo).port;
      listener = server;
    },
    async stop(): Promise<void> {
      const server = listener;
      listener = undefined;
      const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
    },
  };
}

describe.skipIf(!redisUp && !ON_CI)(`Redis going away and coming back (${TEST_DB})`, () => {
  const prefix = `test-faults-${randomUUID()}`;
  const target = new URL(REDIS_URL);
  const proxy = tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  let server: TestServer | undefined;
  let world: World;

  beforeAll(async () => {
    if (!redisUp) throw new Error(`Redis is not reachable at ${REDIS_URL}, and CI=true requires the Redis outage test to run.`);
    await proxy.start();
    server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, EVENT_RELAY_POLL_MS: '50' }, { rateLimitPrefix: prefix });
    world = await worldOn(server);
  });
  afterAll(async () => {
    await server?.close();
    await proxy.stop();
    if (redisUp) await dropRedisKeys(REDIS_URL, prefix);
  });

  it('keeps the events of writes made while Redis is away in the outbox, and delivers them in order, once each, when it is back', async () => {
    const running = server!;
    const hub = eventHub(running.deps);
    const heard: string[] = [];
    const errors: unknown[] = [];
    const subscriber = wsClient({
      url: wsUrl(running),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${world.moderator}` },
      retryAttempts: 0,
    });
    const unpublished = async () =>
      (
        (await running.deps.db('events').where({ entry_id: world.page.id }).whereNull('seq').orderBy('id').select('object_id')) as Array<{ object_id: string }>
      ).map((row) => row.object_id);
    /** Redis goes away, `count` comments are written meanwhile (and wait in the outbox), Redis comes back. */
    const outage = async (count: number, name: string): Promise<string[]> => {
      await proxy.stop();
      const written: string[] = [];
      for (let i = 1; i <= count; i++) written.push(await world.comment(`${name} ${i}`)); // the writes succeed
      // The relay keeps trying (every 50 ms) and keeps failing: the events wait in the outbox, unpublished.
      await sleep(500);
      expect(await unpublished()).toEqual(written);
      await proxy.start(); // on the same port
      return written;
    };
    try {
      subscriber.subscribe({ query: COMMENT_EVENTS, variables: { pageId: world.page.id } }, hearing(heard, errors));
      await until(() => hub.size === 1, 'the subscriber listening');
      // The instance reads the stream (its reader waits in XREAD) before Redis goes away, having heard nothing yet.
      await until(() => proxy.xreads > 0, 'the event stream read');

      const first = await outage(3, 'First outage');
      expect(heard).toEqual([]);
      await until(() => heard.length >= 3 || errors.length > 0, 'the first outage comments heard after Redis came back', 30_000);
      await sleep(500); // anything more would be a duplicate
      expect(errors).toEqual([]);
      expect(heard).toEqual(first);
      expect(await unpublished()).toEqual([]);

      // Again, now that the instance has read entries from the stream.
      const second = await outage(3, 'Second outage');
      expect(heard).toEqual(first);
      await until(() => heard.length >= 6 || errors.length > 0, 'the second outage comments heard after Redis came back', 30_000);
      await sleep(500);
      expect(errors).toEqual([]);
      expect(heard).toEqual([...first, ...second]);
      expect(await unpublished()).toEqual([]);

      // And the stream carries new events as before.
      const after = await world.comment('After the outages');
      await until(() => heard.length >= 7, 'the comment after the outages heard', 15_000);
      expect(heard).toEqual([...first, ...second, after]);
    } finally {
      await subscriber.dispose();
    }
  }, 120_000);
});

describe.skipIf(!redisUp && !ON_CI)(`an instance that starts listening while Redis is away (${TEST_DB})`, () => {
  const prefix = `test-faults-late-${randomUUID()}`;
  const target = new URL(REDIS_URL);
  const proxy = tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });

  afterAll(async () => {
    await proxy.stop();
    if (redisUp) await dropRedisKeys(REDIS_URL, prefix);
  });

  it('hears, once Redis is back, what was written while it was away', async () => {
    if (!redisUp) throw new Error(`Redis is not reachable at ${REDIS_URL}, and CI=true requires the Redis outage test to run.`);
    await proxy.start();
    const port = proxy.port;
    await proxy.stop();
    // Started, and its first subscriber listening, while Redis is away: its reader has never read the stream.
    const server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${port}`, EVENT_RELAY_POLL_MS: '50' }, { rateLimitPrefix: prefix });
    const heard: string[] = [];
    const errors: unknown[] = [];
    let subscriber: WsClient | undefined;
    try {
      const world = await worldOn(server);
      const hub = eventHub(server.deps);
      subscriber = wsClient({
        url: wsUrl(server),
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${world.moderator}` },
        retryAttempts: 0,
      });
      subscriber.subscribe({ query: COMMENT_EVENTS, variables: { pageId: world.page.id } }, hearing(heard, errors));
      await until(() => hub.size === 1, 'the subscriber listening');
      const written = [await world.comment('While Redis is away 1'), await world.comment('While Redis is away 2')];
      // Back: the relay publishes the outbox's backlog (it retries every 50 ms), and the reader must not start after it.
      await proxy.start();
      await until(() => heard.length >= 2 || errors.length > 0, 'the comments written while Redis was away heard', 30_000);
      const after = await world.comment('After Redis came back');
      await until(() => heard.length >= 3, 'the comment after Redis came back heard', 15_000);
      expect(errors).toEqual([]);
      expect(heard).toEqual([...written, after]);
    } finally {
      await subscriber?.dispose();
      await server.close();
    }
  }, 90_000);
});

// SQLite has one connection, which the relay shares by design (its statements run one at a time anyway): only
// PostgreSQL has a pool that requests can exhaust.
describe.runIf(TEST_DB === 'postgres')('the relay beside a busy request pool (postgres)', () => {
  it('publishes a committed event while requests hold every connection of the shared pool', async () => {
    const server = await startTestServer();
    const writer = createDatabase(POSTGRES_URL, { schema: server.database.schema });
    const held: Knex.Transaction[] = [];
    try {
      const world = await worldOn(server);
      const heard: PublishedEvent[] = [];
      const unsubscribe = server.deps.eventBus.subscribe((event) => heard.push(event));
      // Every connection of the requests' pool taken, as by requests waiting on slow statements.
      const poolSize = (server.deps.db.client.config as Knex.Config).pool!.max!;
      for (let i = 0; i < poolSize; i++) held.push(await server.deps.db.transaction());
      // A write that committed on another connection (another instance, or a request that just got one).
      await emitEvents(server.deps, writer, [
        {
          organizationId: world.org.id,
          topic: 'feed',
          entryId: world.page.id,
          objectId: 'held-pool',
          verb: 'add',
          value: {},
          subject: { type: 'post', organizationId: world.org.id },
        },
      ]);
      // Through the shared pool the relay would wait for a connection (10 s, then fail); on its own it does not.
      await until(() => heard.some((event) => event.objectId === 'held-pool'), 'the event published while the pool is taken', 3_000);
      unsubscribe();
    } finally {
      for (const trx of held) await trx.rollback();
      await writer.destroy();
      await server.close();
    }
  });
});
