import type { Knex } from 'knex';
import { emitEvents } from '../events/outbox.ts';
import { adObjectEvent } from './events.ts';
import { timeNow, type RequestContext } from '../context/index.ts';
import type { RawCondition } from '../db/conditions.ts';
import { defineTable } from '../db/rows.ts';
import { hourlySweeper, type Sweeper } from '../jobs/index.ts';
import { displayName, type UserRecord } from '../identity/store.ts';
import type { ActivityCategory, ActivityEvent, ActivityObjectType } from './rules/activity-events.ts';

/**
 * The change history of ad objects (issue 21; the platform's AdActivity, `/activities`): who changed what, when,
 * through which surface, with the old and new values. Every row is written inside the write's own transaction
 * (writes/common.ts writeLocked and createInAccount, and the writes that touch several rows), so no write lands
 * without its record and no record without its write. What a write records is rules/activity-events.ts's.
 * History is read-only, read as the object it belongs to is (edges.ts), and kept ACTIVITY_RETENTION_MONTHS.
 */

export interface ActivityRecord {
  id: string;
  organizationId: string;
  accountId: string;
  campaignId: string | null;
  adsetId: string | null;
  objectId: string;
  objectType: ActivityObjectType;
  objectName: string;
  eventType: string;
  category: ActivityCategory;
  translatedEventType: string;
  eventTime: Date;
  actorKind: ActorKind;
  actorId: string | null;
  actorName: string;
  applicationName: string;
  extraData: Record<string, unknown>;
}

/** Who acts: a person, an API client, or a job acting for one of them (an asynchronous copy). */
export const ACTOR_KINDS = ['user', 'api_client', 'job', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

// Parent and object columns are 'id' (BIGINT): the paged edges cast parent ids by it.
export const activities = defineTable<ActivityRecord>('activities', {
  id: 'id',
  organization_id: 'string',
  account_id: 'id',
  campaign_id: 'id',
  adset_id: 'id',
  object_id: 'id',
  object_type: 'string',
  object_name: 'string',
  event_type: 'string',
  category: 'string',
  translated_event_type: 'string',
  event_time: 'date',
  actor_kind: 'string',
  actor_id: 'string',
  actor_name: 'string',
  application_name: 'string',
  extra_data: 'json',
});

/** How long history is kept: as far back as reports read (date_preset=maximum). */
export const ACTIVITY_RETENTION_MONTHS = 37;

/** The first instant still kept. */
export function retainedSince(now: Date): Date {
  const since = new Date(now);
  since.setUTCMonth(since.getUTCMonth() - ACTIVITY_RETENTION_MONTHS);
  return since;
}

/** The object a change is about, placed under its account, campaign and ad set. */
export interface ActivitySubject {
  type: ActivityObjectType;
  id: string;
  name: string;
  organizationId: string;
  accountId: string;
  campaignId: string | null;
  adsetId: string | null;
}

export const adSetSubject = (adSet: { id: string; name: string; organizationId: string; accountId: string; campaignId: string }): ActivitySubject => ({
  type: 'AD_SET',
  id: adSet.id,
  name: adSet.name,
  organizationId: adSet.organizationId,
  accountId: adSet.accountId,
  campaignId: adSet.campaignId,
  adsetId: adSet.id,
});
export const campaignSubject = (campaign: { id: string; name: string; organizationId: string; accountId: string }): ActivitySubject => ({
  type: 'CAMPAIGN',
  id: campaign.id,
  name: campaign.name,
  organizationId: campaign.organizationId,
  accountId: campaign.accountId,
  campaignId: campaign.id,
  adsetId: null,
});
export const adSubject = (ad: {
  id: string;
  name: string;
  organizationId: string;
  accountId: string;
  campaignId: string;
  adsetId: string;
}): ActivitySubject => ({
  type: 'AD',
  id: ad.id,
  name: ad.name,
  organizationId: ad.organizationId,
  accountId: ad.accountId,
  campaignId: ad.campaignId,
  adsetId: ad.adsetId,
});

interface Actor {
  kind: ActorKind;
  id: string | null;
  name: string;
}

/** The actor of each request, looked up once (its name as it was when it acted: history keeps it). */
const actors = new WeakMap<RequestContext, Promise<Actor>>();

async function lookUpActor(ctx: RequestContext, q: Knex): Promise<Actor> {
  const viewer = ctx.viewer;
  let actor: Actor;
  // A page token's person is who acted (a page token cannot change ad objects, but history names people).
  if (viewer.kind === 'user' || viewer.kind === 'page') {
    const user = (await q('users').where({ id: viewer.userId }).first('name', 'username')) as Pick<UserRecord, 'name' | 'username'> | undefined;
    actor = { kind: 'user', id: viewer.userId, name: user ? displayName(user) : viewer.userId };
  } else if (viewer.kind === 'client') {
    const client = (await q('api_clients').where({ id: viewer.apiClientId }).first('client_name')) as { client_name?: string } | undefined;
    actor = { kind: 'api_client', id: viewer.apiClientId, name: client?.client_name || viewer.clientId };
  } else {
    actor = { kind: 'system', id: null, name: 'adgraph' };
  }
  // A job acts for the person who stored it, and is the actor itself (its history names both).
  const job = ctx.origin?.job;
  return job ? { kind: 'job', id: job.id, name: `${job.label} (for ${actor.name})` } : actor;
}

function actorOf(ctx: RequestContext, q: Knex): Promise<Actor> {
  let actor = actors.get(ctx);
  if (!actor) {
    actor = lookUpActor(ctx, q);
    actors.set(ctx, actor);
  }
  return actor;
}

/** Records what a write did to one object (nothing when it changed nothing), in the write's transaction. */
export async function recordActivities(ctx: RequestContext, trx: Knex.Transaction, subject: ActivitySubject, events: readonly ActivityEvent[]): Promise<void> {
  await recordMany(ctx, trx, events.length === 0 ? [] : [{ subject, events }]);
}

/** Records the changes of several objects at once (a cascade, a deep copy): one statement per chunk. */
export async function recordMany(
  ctx: RequestContext,
  trx: Knex.Transaction,
  changes: ReadonlyArray<{ subject: ActivitySubject; events: readonly ActivityEvent[] }>,
): Promise<void> {
  if (changes.every((change) => change.events.length === 0)) return;
  const actor = await actorOf(ctx, trx);
  const now = timeNow(ctx);
  // History reads newest first (by id): one write's events, which share its instant, are inserted last to first
  // so that they read in the rule's order (name, status, budget, ...).
  const rows = changes.flatMap(({ subject, events }) =>
    [...events].reverse().map((event) =>
      activities.toRow({
        organizationId: subject.organizationId,
        accountId: subject.accountId,
        campaignId: subject.campaignId,
        adsetId: subject.adsetId,
        objectId: subject.id,
        objectType: subject.type,
        objectName: subject.name,
        eventType: event.eventType,
        category: event.category,
        translatedEventType: event.translatedEventType,
        eventTime: now,
        actorKind: actor.kind,
        actorId: actor.id,
        actorName: actor.name,
        applicationName: ctx.origin?.application ?? 'adgraph',
        extraData: event.extraData,
      }),
    ),
  );
  // 16 columns a row: 500 rows (a deep copy of the most ads an ad set holds is 52) is 8,000 bindings, well below
  // either database's limit (SQLite 32,766, PostgreSQL 65,535).
  for (let start = 0; start < rows.length; start += 500) await trx(activities.table).insert(rows.slice(start, start + 500));
  // What the history records is what subscribers hear about (src/events): one event per object changed.
  const told = changes.filter((change) => change.events.length > 0).map(({ subject, events }) => adObjectEvent(subject, events, now));
  await emitEvents(ctx, trx, told);
}

/** The history kept: nothing older than the retention (a row the sweep has not reached yet is not shown either). */
export const keptCondition = (now: Date): RawCondition => ({ sql: 'activities.event_time >= ?', bindings: [retainedSince(now)] });

/** Deletes history older than the retention; answers how many rows went. */
export async function sweepActivities(db: Knex, now: Date): Promise<number> {
  return db(activities.table).where('event_time', '<', retainedSince(now)).delete();
}

/** The background runner's sweep of history past its retention, at most hourly per instance. */
export const activityRetention = (): Sweeper => hourlySweeper('activities', (deps, now) => sweepActivities(deps.db, now));
