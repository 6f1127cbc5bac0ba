import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { createClient as wsClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisReachable } from '../helpers/redis.ts';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../helpers/database.ts';
import { dropRedisKeys, startServeProcess, stopInstances, type ServeProcess } from '../helpers/serve-process.ts';
import { graphClient } from '../helpers/graph.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { worldBuilder } from '../helpers/world.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../../src/context/index.ts';
import { createLogger } from '../../src/logging/index.ts';
import { createClient } from '../../src/oauth/service.ts';
import { emitEvents } from '../../src/events/outbox.ts';
import type { PageRecord, PostRecord } from '../../src/comments/store.ts';

/**
 * Real time across instances: two `adgraph serve` processes on one database (TEST_DB's) and one Redis. A comment
 * written through /v24.0 on one reaches a graphql-ws subscriber on the other and a signed webhook receiver, in
 * order, exactly once each; events committed by a process killed before its relay published them are published
 * by the other. Redis is required: unreachable, the test fails under CI=true and is skipped with a warning elsewhere.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ON_CI = process.env.CI === 'true';
const redisUp = await redisReachable(REDIS_URL);
if (!redisUp && !ON_CI) console.warn(`Redis is not reachable at ${REDIS_URL}: skipping the real-time scale-out test (set CI=true to make this a failure).`);

describe.skipIf(!redisUp && !ON_CI)(`events across two instances (${TEST_DB})`, () => {
  const prefix = `test-events-${randomUUID()}`;
  let database: TestDatabase;
  let a: ServeProcess;
  let b: ServeProcess;
  let deps: AppDeps;
  let page: PageRecord;
  let post: PostRecord;
  let fan: string;
  let moderator: string;
  let appToken: string;
  let secret: string;
  let receiver: Receiver;
  let subscriber: Client;
  const heard: string[] = [];
  const WEBHOOK_TIMEOUT_MS = 10_000;
  // What a delivering instance holds a subscription for (src/webhooks/delivery.ts): one killed while holding it
  // leaves the other instance waiting until it expires.
  const WEBHOOK_LEASE_MS = 2 * WEBHOOK_TIMEOUT_MS + 5_000;

  beforeAll(async () => {
    if (!redisUp) throw new Error(`Redis is not reachable at ${REDIS_URL}, and CI=true requires the scale-out test to run.`);
    database = await createTestDatabase();
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '100',
      // Deliveries are at least once: one that outlasts the timeout is sent again (5-10 s later) and arrives twice.
      // A second was reached on a loaded CI machine; the default ten leaves "once each" to what it tests, the two
      // instances never both delivering.
      WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      EVENT_RELAY_POLL_MS: '100',
    };
    [a, b] = await Promise.all([startServeProcess(database, env), startServeProcess(database, env)]);
    deps = createAppDeps(loadConfig({ DATABASE_URL: database.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent' }), { db: database.db, log: createLogger('silent') });
    const world = worldBuilder(deps);
    const org = await world.organization();
    page = await world.page(org.id);
    post = await world.post(page);
    fan = (await world.user()).token;
    moderator = (await world.user({ organizationId: org.id, role: 'moderator' })).token;
    const { client, clientSecret } = await createClient(deps, { name: 'bot', scope: 'pages_read_engagement pages_manage_engagement', organization: org.id });
    appToken = await fetchAccessToken(a.url, client.clientId, clientSecret);
    receiver = await startReceiver();
    const subscribed = await graphClient(a).call('POST', `/v24.0/${client.id}/subscriptions`, {
      token: appToken,
      form: { object: 'page', callback_url: receiver.url, fields: 'feed', verify_token: 'hub-token' },
    });
    expect(subscribed.status, subscribed.text).toBe(200);
    secret = subscribed.body.signing_secret as string;
    expect((await graphClient(a).call('POST', `/v24.0/${page.id}/subscribed_apps`, { token: appToken, form: { subscribed_fields: 'feed' } })).status).toBe(200);

    // The subscriber listens on B.
    subscriber = wsClient({
      url: b.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${moderator}` },
      retryAttempts: 0,
    });
    subscriber.subscribe(
      { query: 'subscription($p: ID) { commentEvents(pageId: $p) { id verb commentId } }', variables: { p: page.id } },
      {
        next: (result) => void heard.push((result.data as { commentEvents: { commentId: string } }).commentEvents.commentId),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    await sleep(300);
  });

  afterAll(async () => {
    await subscriber?.dispose();
    await receiver?.close();
    await stopInstances([a, b]);
    if (deps) {
      deps.mailer.close();
      await deps.rateLimits.close();
      await deps.passwords.close();
      await deps.eventBus.close();
    }
    await database?.dispose();
    if (redisUp) await dropRedisKeys(REDIS_URL, prefix);
  });

  const until = async (condition: () => boolean, what: string, ms = 20_000) => {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > ms) throw new Error(`${what} did not happen in ${ms} ms\nA: ${a.output().slice(-2000)}\nB: ${b.output().slice(-2000)}`);
      await sleep(25);
    }
  };

  it('a comment written on one instance reaches a subscriber on the other and the webhook receiver, in order, once each', async () => {
    const written: string[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await graphClient(a).call('POST', `/v24.0/${post.id}/comments`, { token: fan, form: { message: `Comment ${i}` } });
      expect(response.status, response.text).toBe(200);
      written.push(response.body.id as string);
    }
    await until(() => heard.length >= 10 && receiver.changes().length >= 10, 'ten events on both');
    await sleep(300); // anything more would be a duplicate
    expect(heard).toEqual(written);
    expect(receiver.changes().map((change) => change.value.comment_id)).toEqual(written);
    expect(receiver.verified(secret).every(Boolean)).toBe(true);
  });

  it('events committed by an instance killed before its relay published them are published by the other, none lost', async () => {
    const start = heard.length;
    const startChanges = receiver.changes().length;
    // A write committed, then its process died before publishing: the rows wait in the outbox (written here as that
    // write's transaction would, with no relay in this process to publish them).
    const [orphan] = await deps.db.transaction(async (trx) => {
      const id = `${post.id}_${Date.now()}`;
      await emitEvents(deps, trx, [
        {
          organizationId: page.organizationId,
          topic: 'feed',
          entryId: page.id,
          objectId: id,
          verb: 'add',
          value: { item: 'comment', verb: 'add', comment_id: id, post_id: post.id, parent_id: post.id, created_time: Math.floor(Date.now() / 1000) },
          subject: { type: 'post', organizationId: page.organizationId },
        },
      ]);
      return [id];
    });
    // And a real one: A writes, and is killed the moment it answered.
    const response = await graphClient(a).call('POST', `/v24.0/${post.id}/comments`, { token: fan, form: { message: 'Last words' } });
    expect(response.status).toBe(200);
    await a.kill('SIGKILL');
    // A may have died holding the webhook subscription's lease: B delivers once it expires.
    await until(() => heard.length >= start + 2 && receiver.changes().length >= startChanges + 2, 'both events after the kill', WEBHOOK_LEASE_MS + 15_000);
    await sleep(300);
    expect(heard.slice(start).sort()).toEqual([orphan, response.body.id].sort());
    expect(
      receiver
        .changes()
        .slice(startChanges)
        .map((change) => change.value.comment_id)
        .sort(),
    ).toEqual([orphan, response.body.id].sort());
  }, 60_000);
});
