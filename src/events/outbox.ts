import type { Knex } from 'knex';
import type { AppDeps } from '../context/index.ts';
import { timeNow } from '../context/index.ts';
import { defineTable } from '../db/rows.ts';
import { hourlySweeper, type Sweeper } from '../jobs/index.ts';
import type { NewEvent, PublishedEvent } from './types.ts';

/** An outbox row: an event, unpublished (`seq` null) until the relay gives it its place in the order. */
export interface EventRow extends NewEvent {
  id: string;
  createdTime: Date;
  seq: number | null;
  publishedTime: Date | null;
}

export const events = defineTable<EventRow>('events', {
  id: 'id',
  organization_id: 'string',
  topic: 'string',
  entry_id: 'string',
  object_id: 'string',
  verb: 'string',
  value: 'json',
  subject: 'json',
  created_time: 'date',
  seq: 'bigint',
  published_time: 'date',
});

/**
 * Writes events in the transaction of the change they tell about (a single statement's change may pass the database): committed together, or not at all (an event is
 * never sent for a change that rolled back, and never lost for one that committed). Once the transaction commits,
 * this instance's relay is woken to publish them; another instance's finds them on its next look.
 */
export async function emitEvents(deps: Pick<AppDeps, 'relay' | 'clock'>, trx: Knex, emitted: readonly NewEvent[]): Promise<void> {
  if (emitted.length === 0) return;
  const now = timeNow(deps);
  const rows = emitted.map((event) => ({
    organization_id: event.organizationId,
    topic: event.topic,
    entry_id: event.entryId,
    object_id: event.objectId,
    verb: event.verb,
    value: JSON.stringify(event.value),
    subject: JSON.stringify(event.subject),
    created_time: now,
  }));
  // 8 columns a row: 500 rows stay far below either database's limit of bindings.
  for (let start = 0; start < rows.length; start += 500) await trx(events.table).insert(rows.slice(start, start + 500));
  const relay = deps.relay;
  if (!relay) return;
  if (trx.isTransaction) {
    (trx as Knex.Transaction).executionPromise.then(
      () => relay.wake(),
      () => undefined, // rolled back: nothing to publish
    );
  } else {
    relay.wake();
  }
}

/** The latest event stored about an object (published or about to be), or null when there is none (or it was swept). */
export async function latestEvent(db: Knex, about: Pick<NewEvent, 'topic' | 'objectId' | 'verb'>): Promise<PublishedEvent | null> {
  const row = await db(events.table).where({ topic: about.topic, object_id: about.objectId, verb: about.verb }).orderBy('id', 'desc').first();
  return row ? publishedEvent(events.fromRow(row)) : null;
}

/** A published row as subscribers and webhooks read it. */
export function publishedEvent(row: EventRow): PublishedEvent {
  return {
    id: row.id,
    seq: Number(row.seq),
    organizationId: row.organizationId,
    topic: row.topic,
    entryId: row.entryId,
    objectId: row.objectId,
    verb: row.verb,
    value: row.value,
    subject: row.subject,
    createdTime: row.createdTime,
  };
}

/** The runner's sweep of published events older than EVENT_RETENTION_DAYS (webhook deliveries read them until then), at most hourly. */
export const eventRetention = (): Sweeper =>
  hourlySweeper('events', (deps, now) => {
    const before = new Date(now.getTime() - deps.config.events.retentionDays * 86_400_000);
    return deps.db(events.table).whereNotNull('seq').where('published_time', '<', before).delete();
  });
