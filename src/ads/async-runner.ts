import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createRequestContext, type AppDeps } from '../context/index.ts';
import { dialect } from '../db/index.ts';
import { DomainError } from '../errors/index.ts';
import { classify } from '../http/errors/classify.ts';
import { graphError } from '../http/errors/graph.ts';
import { restorePrincipal } from '../http/authenticate.ts';
import { DEEP_COPY_ASYNC_MAX } from './rules/limits.ts';
import { asyncRequests, asyncRequestSets, type AsyncRequestRecord } from './store.ts';
import { copyAdSetIn, copyResultJson, readCopyParams, sourceForCopy } from './writes/ad-set-copies.ts';

/**
 * Runs stored asynchronous requests (ad set copies) in the background: durable (they live in the database and
 * are picked up again after a restart) and claimed by exactly one instance at a time when several share a
 * database. A claim is a lease: a request whose instance died is claimed again once its lease has expired.
 *
 * Exactly once: the copy and the request's SUCCESS are written in one transaction, which commits only while
 * this instance still holds the claim; a failure rolls the copy back and records the error.
 */
export interface JobRunner {
  /** Look for work now (a request was just stored). */
  wake(): void;
  /** Stops taking work and waits for the request in hand. */
  stop(): Promise<void>;
}

export interface RunnerOptions {
  pollMs: number;
  leaseSeconds: number;
  /** Attempts before a request that keeps failing unexpectedly is given up as ERROR. */
  maxAttempts?: number;
}

const MAX_ATTEMPTS = 3;

/** Claims the oldest request that is waiting, or whose lease expired; null when there is none. */
export async function claimNext(db: Knex, instanceId: string, leaseSeconds: number, now = new Date()): Promise<AsyncRequestRecord | null> {
  const expires = new Date(now.getTime() + leaseSeconds * 1000);
  const pick = db(asyncRequests.table)
    .select('id')
    .where((q) => q.where('status', 'INITIAL').orWhere((q2) => q2.where('status', 'IN_PROGRESS').andWhere('lease_expires_at', '<', now)))
    .orderBy('id')
    .limit(1);
  // PostgreSQL: instances skip each other's locked candidates instead of queueing behind them.
  if (dialect(db) === 'postgres') pick.forUpdate().skipLocked();
  const rows = await db(asyncRequests.table)
    .whereIn('id', pick)
    .update({ status: 'IN_PROGRESS', claimed_by: instanceId, lease_expires_at: expires, attempts: db.raw('attempts + 1'), updated_time: now })
    .returning('*');
  const row = (rows as Array<Record<string, unknown>>)[0];
  return row ? asyncRequests.fromRow(row) : null;
}

/** Finishes a claimed request, only while the claim is still this instance's. */
async function finish(q: Knex, request: AsyncRequestRecord, instanceId: string, fields: Record<string, unknown>): Promise<boolean> {
  const updated = await q(asyncRequests.table)
    .where({ id: request.id, claimed_by: instanceId, status: 'IN_PROGRESS' })
    .update({ ...fields, claimed_by: null, lease_expires_at: null, updated_time: new Date() });
  return Number(updated) === 1;
}

class ClaimLost extends Error {}

/**
 * Runs one claimed request to SUCCESS or ERROR. Never rejects: when the database fails along the way, the
 * request stays claimed until its lease expires, and then runs again (here or on another instance).
 */
export async function runRequest(deps: AppDeps, request: AsyncRequestRecord, instanceId: string, maxAttempts = MAX_ATTEMPTS): Promise<void> {
  try {
    await attempt(deps, request, instanceId, maxAttempts);
  } catch (error) {
    deps.log.warn(
      { asyncRequest: request.id, err: { message: (error as Error).message } },
      'async request could not run: it runs again when its lease expires',
    );
  }
}

async function attempt(deps: AppDeps, request: AsyncRequestRecord, instanceId: string, maxAttempts: number): Promise<void> {
  const log = deps.log.child({ asyncRequest: request.id, set: request.setId });
  const setRow = await deps.db(asyncRequestSets.table).where({ id: request.setId }).first();
  const set = setRow ? asyncRequestSets.fromRow(setRow) : null;
  const viewer = set ? await restorePrincipal(deps, set.principal) : null;
  const fail = async (error: DomainError) => {
    const envelope = graphError(error, request.id).body.error;
    const { fbtrace_id: _trace, ...body } = envelope;
    await finish(deps.db, request, instanceId, { status: 'ERROR', error: JSON.stringify(body) });
    log.info({ code: envelope.code, subcode: envelope.error_subcode }, 'async request failed');
  };
  if (!viewer) {
    await fail(new DomainError('FORBIDDEN', 'The user or API client that made this request can no longer act', { graph: { code: 200 } }));
    return;
  }
  const ctx = createRequestContext(deps, { requestId: `async-${request.id}`, viewer, log });
  try {
    const input = readCopyParams((request.input as { params?: Record<string, unknown> }).params ?? {});
    // Authorized again as the principal is now: a role taken away since the request was stored stops it.
    const source = await sourceForCopy(ctx, request.adsetId ?? '');
    await deps.db.transaction(async (trx) => {
      const result = await copyAdSetIn(ctx, trx, source, input, DEEP_COPY_ASYNC_MAX);
      if (!(await finish(trx, request, instanceId, { status: 'SUCCESS', result: JSON.stringify(copyResultJson(result)) }))) throw new ClaimLost();
    });
    log.info('async request succeeded');
  } catch (error) {
    if (error instanceof ClaimLost) {
      log.warn('async request claim lost (lease expired): another instance runs it');
      return;
    }
    const known = classify(error);
    if (known && known.code !== 'SERVICE_UNAVAILABLE') return fail(known);
    log.error({ err: error }, 'async request hit an unexpected error');
    if (request.attempts >= maxAttempts) {
      await fail(new DomainError('BAD_USER_INPUT', 'An unknown error occurred', { graph: { code: 1, isTransient: true } }));
    } else {
      // Back in the queue for another attempt.
      await finish(deps.db, request, instanceId, { status: 'INITIAL' });
    }
  }
}

/** The background loop: claims and runs requests one at a time, polls every pollMs, and wakes early on wake(). */
export function startJobRunner(deps: AppDeps, options: RunnerOptions): JobRunner {
  const instanceId = randomUUID();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const loop = async () => {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        let request: AsyncRequestRecord | null;
        try {
          request = await claimNext(deps.db, instanceId, options.leaseSeconds);
        } catch (error) {
          // The database may be down for a while; the next poll tries again.
          deps.log.warn({ err: { message: (error as Error).message } }, 'async runner could not claim work');
          return;
        }
        if (!request) break;
        await runRequest(deps, request, instanceId, options.maxAttempts);
      }
    } while (again && !stopped);
  };
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = loop().finally(() => {
      running = undefined;
      schedule();
    });
  };
  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(kick, options.pollMs);
    timer.unref();
  };
  kick();
  return {
    wake: kick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
