import type { Knex } from 'knex';
import type { AppDeps } from '../context/index.ts';
import { dialect, ownPool } from '../db/index.ts';
import { startPoller } from '../jobs/poller.ts';
import { events, publishedEvent, type EventRow } from './outbox.ts';

/** Rows published per transaction: one statement to read them, one to number them, one send. */
const BATCH = 500;
/** How often, and how soon, a relay that found the lock taken looks again (about 100 ms in all). */
const LOCKED_RETRIES = 20;
const LOCKED_RETRY_MS = 5;

export interface EventRelay {
  /** Publish now (a transaction that emitted has committed). */
  wake(): void;
  /** Stops looking, after publishing what is committed by now (a stopping server's last requests). */
  stop(): Promise<void>;
}

/**
 * Publishes committed outbox rows in one order: reads the unpublished rows by id, gives them the next places in
 * the order (`seq`), sends them on the bus, and commits, all in one transaction. One relay at a time publishes
 * (PostgreSQL: a transaction-scoped advisory lock; the others find it taken and look again later), so the order is
 * the same for everyone.
 *
 * - Sent before commit: a relay killed after sending and before committing leaves the rows unpublished, so they
 *   are sent again (same ids, which subscribers and receivers deduplicate); a relay killed before sending loses
 *   nothing either. A bus that is down fails the send, and the rows wait for the next try.
 * - Answers how many rows it published, or null when another relay holds the lock.
 */
export async function relayOnce(deps: Pick<AppDeps, 'db' | 'eventBus'>): Promise<number | null> {
  // Most looks find nothing: one read of the unpublished rows' index, no transaction, no lock.
  if (!(await anyUnpublished(deps))) return 0;
  return deps.db.transaction(async (trx) => {
    if (dialect(trx) === 'postgres') {
      // Per schema, so databases (and test schemas) that share a server do not wait for each other.
      const { rows } = (await trx.raw("select pg_try_advisory_xact_lock(hashtext(current_schema() || '.events_relay')) as locked")) as {
        rows: Array<{ locked: boolean }>;
      };
      if (!rows[0]?.locked) return null;
    }
    const numbered = await numberNext(trx, new Date());
    if (numbered.length === 0) return 0;
    await deps.eventBus.publish(numbered.map(publishedEvent));
    return numbered.length;
  });
}

/** Whether some committed event waits to be published (the partial index of unpublished rows answers). */
async function anyUnpublished(deps: Pick<AppDeps, 'db'>): Promise<boolean> {
  return (await deps.db(events.table).whereNull('seq').first('id')) !== undefined;
}

/**
 * Gives the next unpublished rows (by id, at most BATCH) the next places in the order, in one statement that
 * answers them: the relay's round trips are what a subscriber waits for.
 */
async function numberNext(trx: Knex.Transaction, now: Date): Promise<EventRow[]> {
  const answer = (await trx.raw(
    `with next as (select id, row_number() over (order by id) as n from events where seq is null order by id limit ?),
       base as (select coalesce(max(seq), 0) as last from events)
     update events set seq = base.last + next.n, published_time = ?
     from next, base
     where events.id = next.id
     returning *`,
    [BATCH, now],
  )) as Array<Record<string, unknown>> | { rows: Array<Record<string, unknown>> };
  const rows = Array.isArray(answer) ? answer : answer.rows;
  return rows.map(events.fromRow).sort((x, y) => Number(x.seq) - Number(y.seq));
}

/**
 * The relay loop of a serving instance: publishes on wake (after a commit here) and every pollMs (commits on other
 * instances, whose relay may have been the one holding the lock), until nothing is left unpublished.
 */
export function startRelay(deps: AppDeps, options: { pollMs: number }): EventRelay {
  // Its own connection: under load the shared pool has a queue of requests, and every event would wait in it twice.
  const relaying = { db: ownPool(deps.db, 1), eventBus: deps.eventBus };
  let failing = false;
  const poller = startPoller(async () => {
    try {
      let published: number | null;
      let busy = 0;
      do {
        published = await relayOnce(relaying);
        // What was just published may be a webhook's: its deliveries start now, not at their next poll.
        if (published) deps.webhooks?.wake();
        // Another instance's relay holds the lock: it may have looked before this instance's commit. Look again
        // in a moment rather than at the next poll (what it publishes meanwhile is not published twice).
        if (published === null && busy++ < LOCKED_RETRIES) await new Promise((resolve) => setTimeout(resolve, LOCKED_RETRY_MS));
      } while (!poller.stopped && (published === BATCH || (published === null && busy <= LOCKED_RETRIES)));
      if (failing) deps.log.info('event relay publishing again');
      failing = false;
      return true;
    } catch (error) {
      // The database or the bus is away: the rows wait in the outbox; said once, not at every poll.
      if (!failing) deps.log.warn({ err: { message: (error as Error).message } }, 'event relay could not publish: events wait in the outbox');
      failing = true;
      return false;
    }
  }, options.pollMs);
  return {
    wake: poller.wake,
    async stop() {
      await poller.stop();
      try {
        while ((await relayOnce(relaying)) === BATCH);
      } catch {
        // Left in the outbox for the next instance.
      } finally {
        if (relaying.db !== deps.db) await relaying.db.destroy();
      }
    },
  };
}
