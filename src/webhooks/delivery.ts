import { randomUUID } from 'node:crypto';
import { can, SCOPES } from '../authz/policy.ts';
import { restorePrincipal } from '../identity/principals.ts';
import type { AppDeps } from '../context/index.ts';
import { timeNow } from '../context/index.ts';
import { dialect } from '../db/index.ts';
import { events, publishedEvent } from '../events/outbox.ts';
import { TOPIC_OBJECT, type PublishedEvent } from '../events/types.ts';
import type { Poller } from '../jobs/poller.ts';
import { outsideRequestScope } from '../telemetry/request-scope.ts';
import { callCallback } from './http.ts';
import { deliveryBody, failureReason, isDelivered, MAX_EVENTS_PER_DELIVERY, retryDelayMs, shouldDisable, signBody } from './rules/deliveries.ts';
import { pageSubscribedApps, webhookSubscriptions, type WebhookSubscriptionRecord } from './store.ts';

/**
 * Webhook delivery: durable (the cursor of each subscription in the outbox's one order), in order per
 * subscription (one instance holds a subscription at a time, by lease), at least once (a delivery whose instance
 * died before recording it is sent again; each change carries its event_id), off the request path, and a slow
 * receiver holds one of WEBHOOK_CONCURRENCY slots, never the others.
 */

/** Events read per look at a subscription's backlog (those not its own are passed over). */
const SCAN = 500;

/** Claims a subscription with events past its cursor whose retry time has come, for this instance; null when none. */
async function claimDue(deps: AppDeps, instanceId: string): Promise<WebhookSubscriptionRecord | null> {
  const now = timeNow(deps);
  // Longer than a delivery can take (the receiver's time limit, and the database's share), so a held subscription is never taken twice.
  const leaseMs = deps.config.webhooks.timeoutMs * 2 + 5_000;
  const pick = deps
    .db(webhookSubscriptions.table)
    .select('id')
    .where('status', 'active')
    .where((q) => q.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', now))
    .where((q) => q.whereNull('lease_expires_at').orWhere('lease_expires_at', '<', now))
    .whereExists((q) =>
      q
        .select(deps.db.raw('1'))
        .from(events.table)
        .whereRaw('events.organization_id = webhook_subscriptions.organization_id')
        .whereRaw('events.seq > webhook_subscriptions.cursor_seq'),
    )
    .orderBy('updated_time')
    .limit(1);
  // PostgreSQL: instances skip each other's candidates instead of queueing behind them.
  if (dialect(deps.db) === 'postgres') pick.forUpdate().skipLocked();
  const rows = (await deps
    .db(webhookSubscriptions.table)
    .whereIn('id', pick)
    .update({ claimed_by: instanceId, lease_expires_at: new Date(now.getTime() + leaseMs) })
    .returning('*')) as Array<Record<string, unknown>>;
  return rows[0] ? webhookSubscriptions.fromRow(rows[0]) : null;
}

/** The subscription's next events: its own (object, fields, the pages that send it their feed), those its app may read. */
async function nextEvents(deps: AppDeps, subscription: WebhookSubscriptionRecord): Promise<{ deliver: PublishedEvent[]; cursor: number }> {
  const scanned = (
    await deps.db(events.table).where({ organization_id: subscription.organizationId }).where('seq', '>', subscription.cursorSeq).orderBy('seq').limit(SCAN)
  ).map((row: Record<string, unknown>) => publishedEvent(events.fromRow(row)));
  // The app as it is now, with every scope it holds (none, and nothing delivered, once it is deleted).
  const app = await restorePrincipal(deps, { kind: 'client', apiClientId: subscription.apiClientId, scopes: [...SCOPES] });
  const pages =
    subscription.object === 'page'
      ? new Set(
          (
            (await deps.db(pageSubscribedApps.table).where({ api_client_id: subscription.apiClientId }).select('page_id', 'subscribed_fields')) as Array<
              Record<string, unknown>
            >
          )
            .map(pageSubscribedApps.fromRow)
            .filter((row) => row.subscribedFields.includes('feed'))
            .map((row) => row.pageId),
        )
      : null;
  const deliver: PublishedEvent[] = [];
  let cursor = subscription.cursorSeq;
  for (const event of scanned) {
    if (deliver.length === MAX_EVENTS_PER_DELIVERY) break;
    cursor = event.seq;
    if (TOPIC_OBJECT[event.topic] !== subscription.object || !subscription.fields.includes(event.topic)) continue;
    if (pages && !pages.has(event.entryId)) continue;
    if (!app || !can(app, 'read', event.subject)) continue;
    deliver.push(event);
  }
  return { deliver, cursor };
}

/** Ends this instance's hold on a subscription, writing what the attempt changed (only while the hold is still its own). */
async function release(deps: AppDeps, subscription: WebhookSubscriptionRecord, instanceId: string, changes: Record<string, unknown>): Promise<void> {
  await deps
    .db(webhookSubscriptions.table)
    .where({ id: subscription.id, claimed_by: instanceId })
    .update({ ...changes, claimed_by: null, lease_expires_at: null, updated_time: timeNow(deps) });
}

/** One delivery to one subscription: its next events in one signed POST; the cursor moves only when the receiver took them. */
export async function deliverOnce(deps: AppDeps, subscription: WebhookSubscriptionRecord, instanceId: string): Promise<void> {
  const { deliver, cursor } = await nextEvents(deps, subscription);
  if (deliver.length === 0) return release(deps, subscription, instanceId, { cursor_seq: cursor });
  const { body } = deliveryBody(subscription.object, deliver);
  const { webhooks } = deps.config;
  let outcome: { status?: number; error?: string };
  try {
    const answer = await callCallback(
      new URL(subscription.callbackUrl),
      { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(subscription.signingSecret, body) }, body },
      { allowPrivate: webhooks.allowPrivate, timeoutMs: webhooks.timeoutMs, maxResponseBytes: webhooks.maxResponseBytes },
    );
    outcome = { status: answer.status };
  } catch (error) {
    outcome = { error: (error as Error).message };
  }
  const now = timeNow(deps);
  if (outcome.status !== undefined && isDelivered(outcome.status)) {
    return release(deps, subscription, instanceId, {
      cursor_seq: cursor,
      attempts: 0,
      failing_since: null,
      next_attempt_at: null,
      last_error: null,
      last_delivery_time: now,
    });
  }
  const reason = failureReason(outcome);
  const attempts = subscription.attempts + 1;
  const failingSince = subscription.failingSince ?? now;
  if (shouldDisable(failingSince.getTime(), now.getTime())) {
    deps.log.warn({ subscription: subscription.id, reason }, 'webhook subscription disabled: its deliveries kept failing');
    return release(deps, subscription, instanceId, {
      status: 'disabled',
      disabled_reason: `Deliveries failed for 24 hours; the last one: ${reason}`.slice(0, 300),
      attempts,
      failing_since: failingSince,
      last_error: reason.slice(0, 300),
    });
  }
  return release(deps, subscription, instanceId, {
    attempts,
    failing_since: failingSince,
    next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts, Math.random())),
    last_error: reason.slice(0, 300),
  });
}

/**
 * The delivery workers of a serving instance, at most WEBHOOK_CONCURRENCY at once. A wake (the relay published,
 * or every WEBHOOK_POLL_MS) starts one worker; a worker that finds a subscription due starts another before it
 * delivers, so the workers grow with the work, and each goes on until nothing is due. A worker held by a slow
 * receiver holds only itself: the others, and the ones a later wake starts, go on without it.
 */
export function startWebhookDelivery(deps: AppDeps): Poller {
  const instanceId = randomUUID();
  const workers = new Set<Promise<void>>();
  let stopped = false;
  let failing = false;

  const work = async () => {
    for (;;) {
      if (stopped) return;
      const subscription = await claimDue(deps, instanceId);
      if (!subscription) return;
      start();
      await deliverOnce(deps, subscription, instanceId);
    }
  };
  function start(): void {
    if (stopped || workers.size >= deps.config.webhooks.concurrency) return;
    const worker: Promise<void> = outsideRequestScope(work)
      .then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          // The database is away: the deliveries wait; said once, not at every poll.
          if (!failing) deps.log.warn({ err: { message: (error as Error).message } }, 'webhook delivery could not run: deliveries wait');
          failing = true;
        },
      )
      .finally(() => workers.delete(worker));
    workers.add(worker);
  }
  const timer = setInterval(start, deps.config.webhooks.pollMs);
  timer.unref();
  queueMicrotask(start);
  return {
    wake: start,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(workers);
    },
    get stopped() {
      return stopped;
    },
  };
}
