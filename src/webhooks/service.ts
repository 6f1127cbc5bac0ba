import { randomBytes, randomUUID } from 'node:crypto';
import type { RequestContext } from '../context/index.ts';
import { timeNow } from '../context/index.ts';
import { actsAsPage, can } from '../authz/policy.ts';
import { requireSignedIn } from '../authz/guards.ts';
import { DomainError, forbidden } from '../errors/index.ts';
import { events } from '../events/outbox.ts';
import type { EventTopic } from '../events/types.ts';
import { paramError, type Params } from '../graph-api/params.ts';
import type { ApiClientRecord } from '../oauth/store.ts';
import type { PageRecord } from '../comments/store.ts';
import { callCallback, CallbackRefused, checkCallbackUrl } from './http.ts';
import { challengeAnswered, hubChallengeQuery, readSubscriptionParams, WEBHOOK_OBJECTS, type WebhookObject } from './rules/deliveries.ts';
import { pageSubscribedApps, webhookSubscriptions, type PageSubscribedAppRecord, type WebhookSubscriptionRecord } from './store.ts';

/**
 * Webhook subscriptions, as the platform manages them: an app subscribes a callback to an object type
 * (`POST /<app>/subscriptions`, verified with the hub challenge before it is saved), and a page sends its feed to
 * the apps it subscribed (`POST /<page>/subscribed_apps`). Delivery is ./delivery.ts.
 */

/** The app itself (its access token), or a person who may change its organization's API clients. */
function mayManage(ctx: RequestContext, app: ApiClientRecord): boolean {
  const viewer = ctx.viewer;
  if (viewer.kind === 'client') return viewer.apiClientId === app.id;
  return can(viewer, 'update', { type: 'api_client', organizationId: app.organizationId });
}

function requireManager(ctx: RequestContext, app: ApiClientRecord): void {
  requireSignedIn(ctx);
  if (!mayManage(ctx, app)) {
    throw forbidden(`Permissions error: an app's subscriptions are managed with its own access token, or by an admin of its organization`);
  }
}

const callbackPolicy = (ctx: RequestContext) => ({
  allowPrivate: ctx.config.webhooks.allowPrivate,
  timeoutMs: ctx.config.webhooks.timeoutMs,
  maxResponseBytes: ctx.config.webhooks.maxResponseBytes,
});

/** The platform's error for a callback that does not answer its challenge (2200). */
const verificationFailed = (why: string) =>
  new DomainError('BAD_USER_INPUT', `(#2200) Callback verification failed: ${why}`, { field: 'callback_url', graph: { code: 2200 } });

/**
 * The hub challenge: GET the callback with hub.mode=subscribe, hub.challenge and hub.verify_token; it must answer
 * 200 with the challenge. Refuses a URL whose host is (or resolves to) a private address, unless allowed.
 */
async function verifyCallback(ctx: RequestContext, callbackUrl: string, verifyToken: string): Promise<URL> {
  const policy = callbackPolicy(ctx);
  let url: URL;
  try {
    url = checkCallbackUrl(callbackUrl, policy);
  } catch (error) {
    if (error instanceof CallbackRefused) throw paramError('callback_url', `Param callback_url is refused: ${error.message}`);
    throw error;
  }
  const challenge = randomBytes(16).toString('hex');
  const probe = new URL(url);
  for (const [name, value] of hubChallengeQuery(verifyToken, challenge)) probe.searchParams.set(name, value);
  let answer;
  try {
    answer = await callCallback(probe, { method: 'GET' }, policy);
  } catch (error) {
    throw verificationFailed((error as Error).message);
  }
  if (answer.status !== 200) throw verificationFailed(`the callback answered HTTP ${answer.status}, not 200 with the challenge`);
  if (!challengeAnswered(challenge, answer.body)) throw verificationFailed('the callback did not answer with the hub.challenge it was sent');
  return url;
}

/** The place in the order of the last published event: a new subscription hears what comes after it. */
async function lastPublished(ctx: RequestContext): Promise<number> {
  const row = (await ctx.db(events.table).max('seq as seq').first()) as { seq: number | string | null } | undefined;
  return Number(row?.seq ?? 0);
}

/**
 * POST /<app>/subscriptions: subscribes (or, for an object already subscribed, changes) the app's callback. A new
 * subscription answers its signing secret, once: the key of X-Hub-Signature-256 (docs: decisions).
 */
export async function subscribeApp(ctx: RequestContext, app: ApiClientRecord, params: Params): Promise<Record<string, unknown>> {
  requireManager(ctx, app);
  const input = readSubscriptionParams(params ?? {});
  const url = await verifyCallback(ctx, input.callbackUrl, input.verifyToken);
  const now = timeNow(ctx);
  const changes = {
    fields: JSON.stringify(input.fields),
    callback_url: url.href,
    status: 'active',
    disabled_reason: null,
    attempts: 0,
    failing_since: null,
    next_attempt_at: null,
    last_error: null,
    updated_time: now,
  };
  // One subscription per app and object: a second POST changes it (and keeps its secret and its place).
  const signingSecret = randomBytes(32).toString('base64url');
  const inserted = await ctx
    .db(webhookSubscriptions.table)
    .insert({
      ...changes,
      id: randomUUID(),
      api_client_id: app.id,
      organization_id: app.organizationId,
      object: input.object,
      signing_secret: signingSecret,
      cursor_seq: await lastPublished(ctx),
      created_time: now,
    })
    .onConflict(['api_client_id', 'object'])
    .ignore()
    .returning('id');
  if (inserted.length > 0) return { success: true, signing_secret: signingSecret };
  await ctx.db(webhookSubscriptions.table).where({ api_client_id: app.id, object: input.object }).update(changes);
  return { success: true };
}

/** GET /<app>/subscriptions. */
export async function subscriptionsOf(ctx: RequestContext, app: ApiClientRecord): Promise<WebhookSubscriptionRecord[]> {
  requireManager(ctx, app);
  const rows = await ctx.db(webhookSubscriptions.table).where({ api_client_id: app.id }).orderBy('object');
  return rows.map(webhookSubscriptions.fromRow);
}

/** DELETE /<app>/subscriptions: one object's subscription (`object`), or all of them. */
export async function unsubscribeApp(ctx: RequestContext, app: ApiClientRecord, params: Params): Promise<Record<string, unknown>> {
  requireManager(ctx, app);
  const object = params?.object;
  if (object !== undefined && !(WEBHOOK_OBJECTS as readonly unknown[]).includes(object)) {
    throw paramError('object', `Param object must be one of {${WEBHOOK_OBJECTS.join(', ')}}`);
  }
  const query = ctx.db(webhookSubscriptions.table).where({ api_client_id: app.id });
  if (object !== undefined) query.andWhere({ object: object as WebhookObject });
  await query.delete();
  return { success: true };
}

// --- A page's apps ----------------------------------------------------------------------------------------------

const PAGE_FIELDS: readonly EventTopic[] = ['feed'];

/** The app a page token subscribes: an API client's own token, acting as the page. */
function subscribingApp(ctx: RequestContext, page: PageRecord): string {
  requireSignedIn(ctx);
  const viewer = ctx.viewer;
  if (viewer.kind !== 'client') throw forbidden("Permissions error: a page subscribes an app with that app's page token (its client-credentials token)");
  if (!actsAsPage(viewer, page.organizationId))
    throw forbidden(`Permissions error: subscribing an app to page ${page.id} needs the pages_manage_engagement permission`);
  return viewer.apiClientId;
}

/** POST /<page>/subscribed_apps with `subscribed_fields` (feed): the page sends those changes to the calling app. */
export async function subscribePage(ctx: RequestContext, page: PageRecord, params: Params): Promise<Record<string, unknown>> {
  const apiClientId = subscribingApp(ctx, page);
  const raw = params?.subscribed_fields;
  const fields = typeof raw === 'string' ? raw.split(',').map((field) => field.trim()) : Array.isArray(raw) ? raw : undefined;
  if (!fields || fields.length === 0) throw paramError('subscribed_fields', 'The parameter subscribed_fields is required');
  for (const field of fields) {
    if (!PAGE_FIELDS.includes(field as EventTopic))
      throw paramError('subscribed_fields', `Param subscribed_fields[${String(field).slice(0, 40)}] must be one of {${PAGE_FIELDS.join(', ')}}`);
  }
  const record: PageSubscribedAppRecord = { pageId: page.id, apiClientId, subscribedFields: [...new Set(fields as EventTopic[])], createdTime: timeNow(ctx) };
  await ctx.db(pageSubscribedApps.table).insert(pageSubscribedApps.toRow(record)).onConflict(['page_id', 'api_client_id']).merge(['subscribed_fields']);
  return { success: true };
}

/** DELETE /<page>/subscribed_apps: the page stops sending to the calling app. */
export async function unsubscribePage(ctx: RequestContext, page: PageRecord): Promise<Record<string, unknown>> {
  const apiClientId = subscribingApp(ctx, page);
  await ctx.db(pageSubscribedApps.table).where({ page_id: page.id, api_client_id: apiClientId }).delete();
  return { success: true };
}

/** GET /<page>/subscribed_apps: for whoever acts as the page (its moderators, its organization's page tokens). */
export async function appsOfPage(ctx: RequestContext, page: PageRecord): Promise<Array<PageSubscribedAppRecord & { name: string }>> {
  requireSignedIn(ctx);
  if (!actsAsPage(ctx.viewer, page.organizationId)) throw forbidden(`Permissions error: the apps of page ${page.id} are its admins' and moderators' to read`);
  const rows = (await ctx
    .db(pageSubscribedApps.table)
    .join('api_clients', 'api_clients.id', 'page_subscribed_apps.api_client_id')
    .where('page_subscribed_apps.page_id', page.id)
    .orderBy('page_subscribed_apps.api_client_id')
    .select('page_subscribed_apps.*', 'api_clients.client_name as name')) as Array<Record<string, unknown>>;
  return rows.map((row) => ({ ...pageSubscribedApps.fromRow(row), name: String(row.name) }));
}
