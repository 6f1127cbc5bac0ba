import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { expectGraphError, graphClient, type GraphClient } from '../helpers/graph.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { createClient } from '../../src/oauth/service.ts';
import { emitEvents } from '../../src/events/outbox.ts';
import type { PageRecord, PostRecord } from '../../src/comments/store.ts';
import type { ApiClientRecord } from '../../src/oauth/store.ts';

/**
 * Webhooks as the platform sends them: an app subscribes a callback (verified with the hub challenge), a page
 * sends it its feed, and each committed comment reaches the receiver signed, in order, once; a failing receiver
 * is retried with its reason readable and disabled after a day; callbacks to private addresses are refused.
 * The receivers are real HTTP servers on loopback, allowed by WEBHOOK_ALLOW_PRIVATE as in development.
 */
let server: TestServer;
let graph: GraphClient;
let world: ReturnType<typeof worldBuilder>;
let page: PageRecord;
let post: PostRecord;
let fan: string;
let orgId: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '1000' });
  world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  orgId = org.id;
  page = await world.page(org.id);
  post = await world.post(page);
  fan = (await world.user()).token;
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await server?.close();
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

/** An app of the page's organization with the page scopes, its token, and its feed subscription to `to`. */
async function subscribedApp(to: Receiver): Promise<{ app: ApiClientRecord; token: string; secret: string }> {
  const { client, clientSecret } = await createClient(server.deps, {
    name: 'moderation-bot',
    scope: 'pages_read_engagement pages_manage_engagement pages_read_user_content',
    organization: orgId,
  });
  const token = await fetchAccessToken(server.url, client.clientId, clientSecret);
  const subscribed = await graph.call('POST', `/v24.0/${client.id}/subscriptions`, {
    token,
    form: { object: 'page', callback_url: to.url, fields: 'feed', verify_token: 'hub-token' },
  });
  expect(subscribed.status).toBe(200);
  expect(subscribed.body).toEqual({ success: true, signing_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
  expect((await graph.call('POST', `/v24.0/${page.id}/subscribed_apps`, { token, form: { subscribed_fields: 'feed' } })).body).toEqual({ success: true });
  return { app: client, token, secret: subscribed.body.signing_secret as string };
}

const comment = async (message: string) => (await graph.call('POST', `/v24.0/${post.id}/comments`, { token: fan, form: { message } })).body.id as string;

describe('webhook subscriptions', () => {
  it('verify the callback with the hub challenge, then deliver each comment signed, in order, once', async () => {
    const to = await receiver();
    const { app, token, secret } = await subscribedApp(to);
    expect(to.challenges).toHaveLength(1);
    expect(to.challenges[0]!.get('hub.mode')).toBe('subscribe');
    expect(to.challenges[0]!.get('hub.verify_token')).toBe('hub-token');

    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await comment(`Comment ${i}`));
    await to.until(12);
    const changes = to.changes();
    expect(changes.map((change) => change.value.comment_id)).toEqual(ids);
    expect(new Set(changes.map((change) => change.value.event_id)).size).toBe(12);
    expect(changes[0]).toMatchObject({ field: 'feed', entry: page.id, value: { item: 'comment', verb: 'add', post_id: post.id, message: 'Comment 0' } });
    expect(to.deliveries.every((delivery) => delivery.body.object === 'page')).toBe(true);
    expect(to.verified(secret).every(Boolean)).toBe(true);
    expect(to.verified('another secret').some(Boolean)).toBe(false);

    const listed = await graph.get(`${app.id}/subscriptions`, token, {});
    expect(listed.body.data).toEqual([
      { id: expect.any(String), object: 'page', callback_url: to.url, active: true, fields: [{ name: 'feed', version: 'v24.0' }] },
    ]);
    expect((await graph.get(`${page.id}/subscribed_apps`, token, {})).body.data).toEqual([{ id: app.id, name: 'moderation-bot', subscribed_fields: ['feed'] }]);
  });

  it('saves nothing when the callback does not answer its challenge', async () => {
    const to = await receiver();
    to.behaviour = 'wrong-challenge';
    const { client, clientSecret } = await createClient(server.deps, { name: 'unverified', scope: 'pages_read_engagement', organization: orgId });
    const token = await fetchAccessToken(server.url, client.clientId, clientSecret);
    const refused = await graph.call('POST', `/v24.0/${client.id}/subscriptions`, {
      token,
      form: { object: 'page', callback_url: to.url, fields: 'feed', verify_token: 'hub-token' },
    });
    expectGraphError(refused, { status: 400, code: 2200, message: /Callback verification failed: the callback did not answer with the hub.challenge/ });
    expect((await graph.get(`${client.id}/subscriptions`, token, {})).body.data).toEqual([]);
    // Bad parameters name the parameter.
    const bad = await graph.call('POST', `/v24.0/${client.id}/subscriptions`, {
      token,
      form: { object: 'page', callback_url: to.url, fields: 'ad_objects', verify_token: 'x' },
    });
    expectGraphError(bad, { status: 400, code: 100, message: /Param fields contains ad_objects, which is not a field of page/ });
  });

  it('retries a failing receiver with its reason readable, sends the same event again, and disables it after a day', async () => {
    const to = await receiver();
    const { app, token } = await subscribedApp(to);
    to.behaviour = 'fail';
    const id = await comment('Delivered on the second try');
    const subscriptions = () => server.deps.db('webhook_subscriptions').where({ api_client_id: app.id });
    await waitFor(async () => (await subscriptions().first())?.attempts === 1);
    const failed = await subscriptions().first();
    expect(failed.last_error).toBe('HTTP 500');
    const delay = new Date(failed.next_attempt_at).getTime() - Date.now();
    expect(delay).toBeGreaterThan(3_000);
    expect(delay).toBeLessThanOrEqual(10_000);
    expect((await graph.get(`${app.id}/subscriptions`, token, { fields: 'active,last_error' })).body.data[0]).toMatchObject({
      active: true,
      last_error: 'HTTP 500',
    });

    // The retry time comes (moved forward here rather than waited for): the same event, now taken.
    to.behaviour = 'ok';
    await subscriptions().update({ next_attempt_at: new Date(Date.now() - 1000) });
    server.deps.webhooks!.wake();
    await to.until(1);
    expect(to.changes().map((change) => change.value.comment_id)).toEqual([id]);
    // The receiver has answered; the sender records the success just after, in its own time.
    await waitFor(async () => (await subscriptions().first())?.attempts === 0);
    expect((await subscriptions().first()).last_error).toBeNull();

    // Failing for more than a day: disabled, with why.
    to.behaviour = 'redirect';
    await subscriptions().update({ failing_since: new Date(Date.now() - 25 * 3_600_000) });
    await comment('Never delivered');
    await waitFor(async () => (await subscriptions().first())?.status === 'disabled');
    const listed = (await graph.get(`${app.id}/subscriptions`, token, { fields: 'active,disabled_reason' })).body.data[0];
    expect(listed).toMatchObject({ active: false, disabled_reason: 'Deliveries failed for 24 hours; the last one: HTTP 302 (redirects are not followed)' });
    // Subscribing again turns it back on.
    to.behaviour = 'ok';
    await graph.call('POST', `/v24.0/${app.id}/subscriptions`, {
      token,
      form: { object: 'page', callback_url: to.url, fields: 'feed', verify_token: 'hub-token' },
    });
    expect((await subscriptions().first()).status).toBe('active');
  });

  it('a slow receiver holds up nobody else', async () => {
    const slow = await receiver();
    const fast = await receiver();
    await subscribedApp(slow);
    await subscribedApp(fast);
    slow.behaviour = 'hang';
    const started = Date.now();
    const id = await comment('Everyone hears this');
    await fast.until(1, 5_000);
    expect(fast.changes().map((change) => change.value.comment_id)).toContain(id);
    // WEBHOOK_TIMEOUT_MS is 1 s here: the fast receiver did not wait for the slow one to time out.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("an ad account's app hears its campaigns' changes (ad_objects), signed, in order, and nothing of another organization's", async () => {
    const to = await receiver();
    const account = await world.adAccount(orgId);
    const [campaign] = await world.campaigns(account, 1);
    const advertiser = (await world.user({ organizationId: orgId, role: 'advertiser' })).token;
    const { client, clientSecret } = await createClient(server.deps, { name: 'ads-dashboard', scope: 'ads_read', organization: orgId });
    const token = await fetchAccessToken(server.url, client.clientId, clientSecret);
    const subscribed = await graph.call('POST', `/v24.0/${client.id}/subscriptions`, {
      token,
      form: { object: 'ad_account', callback_url: to.url, fields: 'ad_objects', verify_token: 'hub-token' },
    });
    expect(subscribed.status, subscribed.text).toBe(200);
    // Another organization's account changes too: its events are not this app's to hear.
    const elsewhere = await world.organization();
    const [otherCampaign] = await world.campaigns(await world.adAccount(elsewhere.id), 1);
    const otherAdvertiser = (await world.user({ organizationId: elsewhere.id, role: 'advertiser' })).token;

    const renamed = await graph.call('POST', `/v24.0/${campaign!.id}`, { token: advertiser, form: { name: 'Renamed for the dashboard' } });
    expect(renamed.status, renamed.text).toBe(200);
    const elsewhereRenamed = await graph.call('POST', `/v24.0/${otherCampaign!.id}`, { token: otherAdvertiser, form: { name: 'Not theirs' } });
    expect(elsewhereRenamed.status, elsewhereRenamed.text).toBe(200);
    const paused = await graph.call('POST', `/v24.0/${campaign!.id}`, { token: advertiser, form: { status: 'PAUSED' } });
    expect(paused.status, paused.text).toBe(200);

    await to.until(2);
    const changes = to.changes();
    expect(changes.map((change) => [change.field, change.entry, change.value.id, change.value.verb])).toEqual([
      ['ad_objects', account.id, campaign!.id, 'update'],
      ['ad_objects', account.id, campaign!.id, 'status'],
    ]);
    expect(changes[0]!.value).toMatchObject({ object_type: 'campaign', name: 'Renamed for the dashboard' });
    expect(to.deliveries.every((delivery) => delivery.body.object === 'ad_account')).toBe(true);
    expect(to.verified(subscribed.body.signing_secret as string).every(Boolean)).toBe(true);
  });

  it('tells nothing of a write that rolled back', async () => {
    const to = await receiver();
    await subscribedApp(to);
    const before = Number((await server.deps.db('events').count({ n: '*' }).first())!.n);
    await server.deps.db
      .transaction(async (trx) => {
        await emitEvents(server.deps, trx, [
          {
            organizationId: orgId,
            topic: 'feed',
            entryId: page.id,
            objectId: post.id,
            verb: 'add',
            value: { item: 'post' },
            subject: { type: 'post', organizationId: orgId },
          },
        ]);
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect(Number((await server.deps.db('events').count({ n: '*' }).first())!.n)).toBe(before);
    const id = await comment('After the rollback');
    await to.until(1);
    expect(to.changes().map((change) => change.value.comment_id)).toEqual([id]);
  });
});

describe('callback addresses', () => {
  it('are refused when they reach this machine, a private network or a metadata address', async () => {
    const strict = await startTestServer();
    try {
      const other = worldBuilder(strict.deps);
      const org = await other.organization();
      const { client, clientSecret } = await createClient(strict.deps, { name: 'ssrf', scope: 'pages_read_engagement', organization: org.id });
      const token = await fetchAccessToken(strict.url, client.clientId, clientSecret);
      const local = await receiver();
      for (const url of [local.url, 'http://localhost:8080/hooks', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.7/hooks', 'http://[::1]/hooks']) {
        const refused = await graphClient(strict).call('POST', `/v24.0/${client.id}/subscriptions`, {
          token,
          form: { object: 'page', callback_url: url, fields: 'feed', verify_token: 'hub-token' },
        });
        expectGraphError(refused, { status: 400, code: 100, message: /Param callback_url is refused/ });
      }
      // Nothing reached the local receiver, not even the challenge.
      expect(local.challenges).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error(`condition not met in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
