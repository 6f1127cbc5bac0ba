import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { timeNow, type AppDeps } from '../context/index.ts';
import { dialect } from '../db/index.ts';
import { DomainError } from '../errors/index.ts';
import { emitEvents } from '../events/outbox.ts';
import type { NewEvent } from '../events/types.ts';
import type { Logger } from '../logging/index.ts';
import { jobDuration, jobOutcomes } from '../telemetry/metrics.ts';
import { startPoller } from './poller.ts';
import { traceJobRun } from '../telemetry/spans.ts';
import { tracingActive } from '../telemetry/tracing.ts';

/**
 * Durable background jobs. A domain registers a job kind: the table its jobs live in (one row each, with the
 * lease columns `status`, `attempts`, `claimed_by`, `lease_expires_at`, `updated_time`), how to run one, and what
 * a failure writes. The runner claims the oldest waiting job of each kind in turn and runs it; nothing here knows
 * a surface (the kinds store what their callers read later).
 *
 * - Durable: jobs are rows, picked up again after a restart.
 * - Exactly one instance runs a job: a claim is a lease held by one instance; a job whose instance died is
 *   claimed again once its lease has expired. A kind writes its result through `lease.finish`, which commits only
 *   while this instance still holds the claim (in the same transaction as the result, when it has one).
 * - A failure the caller should see (a DomainError) ends the job with the kind's `failed` fields; anything else
 *   puts it back in the queue, until `maxAttempts`, then it fails as the platform's unknown error.
 */
export interface QueuedJob {
  id: string;
  attempts: number;
}

export interface JobQueue<J extends QueuedJob> {
  table: string;
  /** The status of a job nobody has claimed yet. */
  waiting: string;
  /** The status a claim sets. */
  claimed: string;
  /** Every status a job may have while it is claimed (a lease holds): `claimed` and any the kind moves it to. */
  held: readonly string[];
  fromRow(row: Record<string, unknown>): J;
}

export interface Lease {
  readonly instanceId: string;
  /** Ends the job with these fields, only while the claim is still this instance's; throws ClaimLost otherwise. */
  finish(q: Knex, fields: Record<string, unknown>): Promise<void>;
  /** Extends the lease (a long job's heartbeat), writing these fields too; throws ClaimLost when the claim is gone. */
  renew(fields?: Record<string, unknown>): Promise<void>;
}

export interface JobKind<J extends QueuedJob> {
  /** For logs: `adset_copy`, `insights_report`. */
  name: string;
  queue: JobQueue<J>;
  /** Runs a claimed job and ends it through `lease.finish`; throws a DomainError for a failure its caller should see. */
  run(deps: AppDeps, job: J, lease: Lease, log: Logger): Promise<void>;
  /** The fields that end a job in failure (the error as its caller reads it). */
  failed(error: DomainError, job: J, deps: AppDeps): Record<string, unknown>;
  /** Deletes what has outlived its time (a report's result); answers how many jobs it deleted. */
  sweep?(deps: AppDeps, now: Date): Promise<number>;
  /**
   * The event a job's end tells subscribers (src/events), written with the fields that end it, in one transaction;
   * null for an end nobody hears about (back in the queue, canceled).
   */
  finishedEvent?(job: J, fields: Record<string, unknown>): NewEvent | null;
  /**
   * The events a job's end completes beyond its own (the last request of an asynchronous request set ends the
   * set), read in the ending transaction once the job's row has its end.
   */
  completedEvents?(q: Knex, job: J, fields: Record<string, unknown>): Promise<NewEvent[]>;
  /**
   * Queues the jobs that have come due on a schedule (an automated rule's period), before the runner claims work;
   * answers how many it queued. Several instances may call it at once: it must queue each job once.
   */
  schedule?(deps: AppDeps, now: Date): Promise<number>;
}

// Kinds are listed together by whoever starts a runner; their job types differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobKind = JobKind<any>;

export interface JobRunner {
  /** Look for work now (a job was just stored). */
  wake(): void;
  /** Stops taking work and waits for the job in hand. */
  stop(): Promise<void>;
}

/** Housekeeping the runner does when it is idle, beside the kinds' own sweeps: deleting what outlived its time. */
export interface Sweeper {
  /** For logs: `activities`. */
  name: string;
  /** Deletes what has expired at `now`; answers how many rows went. */
  sweep(deps: AppDeps, now: Date): Promise<number>;
}

/**
 * A sweeper that deletes at most hourly per instance: what it deletes expires by the day, and the runner is idle
 * far more often than that.
 */
export function hourlySweeper(name: string, sweep: (deps: AppDeps, now: Date) => Promise<number>): Sweeper {
  let lastSwept = -Infinity;
  return {
    name,
    async sweep(deps, now) {
      if (now.getTime() - lastSwept < 60 * 60 * 1000) return 0;
      lastSwept = now.getTime();
      return sweep(deps, now);
    },
  };
}

export interface RunnerOptions {
  pollMs: number;
  leaseSeconds: number;
  sweepers?: readonly Sweeper[];
  /** Attempts before a job that keeps failing unexpectedly is given up. */
  maxAttempts?: number;
}

const MAX_ATTEMPTS = 3;

/** The claim was lost (its lease expired and another instance took the job): this instance must not finish it. */
export class ClaimLost extends Error {
  override name = 'ClaimLost';
}

/** Claims the oldest job of a kind that is waiting, or whose lease expired; null when there is none. */
export async function claimNext<J extends QueuedJob>(
  db: Knex,
  kind: JobKind<J>,
  instanceId: string,
  leaseSeconds: number,
  now = new Date(),
): Promise<J | null> {
  const { queue } = kind;
  const expires = new Date(now.getTime() + leaseSeconds * 1000);
  const pick = db(queue.table)
    .select('id')
    .where((q) => q.where('status', queue.waiting).orWhere((q2) => q2.whereIn('status', queue.held).andWhere('lease_expires_at', '<', now)))
    .orderBy('id')
    .limit(1);
  // PostgreSQL: instances skip each other's locked candidates instead of queueing behind them.
  if (dialect(db) === 'postgres') pick.forUpdate().skipLocked();
  const rows = await db(queue.table)
    .whereIn('id', pick)
    .update({ status: queue.claimed, claimed_by: instanceId, lease_expires_at: expires, attempts: db.raw('attempts + 1'), updated_time: now })
    .returning('*');
  const row = (rows as Array<Record<string, unknown>>)[0];
  return row ? queue.fromRow(row) : null;
}

function leaseOf(deps: AppDeps, kind: AnyJobKind, job: QueuedJob, instanceId: string, leaseSeconds: number): Lease {
  const db = deps.db;
  const held = (q: Knex) => q(kind.queue.table).where({ id: job.id, claimed_by: instanceId }).whereIn('status', kind.queue.held);
  const end = async (q: Knex, fields: Record<string, unknown>, event: NewEvent | null) => {
    const updated = await held(q).update({ ...fields, claimed_by: null, lease_expires_at: null, updated_time: new Date() });
    if (Number(updated) !== 1) throw new ClaimLost();
    const completed = (await kind.completedEvents?.(q, job, fields)) ?? [];
    await emitEvents(deps, q, event ? [event, ...completed] : completed);
  };
  return {
    instanceId,
    async finish(q, fields) {
      const event = kind.finishedEvent?.(job, fields) ?? null;
      // The end and its events commit together: in the kind's transaction, or in one of their own.
      const tells = event !== null || kind.completedEvents !== undefined;
      await (tells && !q.isTransaction ? q.transaction((trx) => end(trx, fields, event)) : end(q, fields, event));
    },
    async renew(fields = {}) {
      const now = new Date();
      const updated = await held(db).update({ ...fields, lease_expires_at: new Date(now.getTime() + leaseSeconds * 1000), updated_time: now });
      if (Number(updated) !== 1) throw new ClaimLost();
    },
  };
}

export interface RunClaimedOptions {
  maxAttempts?: number;
  /** For lease renewals; the claim's own length by default. */
  leaseSeconds?: number;
}

/**
 * Runs one claimed job to its end. Never rejects: when the database fails along the way, the job stays claimed
 * until its lease expires, and then runs again (here or on another instance).
 */
export async function runClaimed<J extends QueuedJob>(
  deps: AppDeps,
  kind: JobKind<J>,
  job: J,
  instanceId: string,
  options: RunClaimedOptions = {},
): Promise<void> {
  const timer = jobDuration.startTimer({ kind: kind.name });
  const run = () => runToEnd(deps, kind, job, instanceId, options);
  const outcome = await (tracingActive() ? traceJobRun(kind.name, job, run) : run());
  timer();
  jobOutcomes.inc({ kind: kind.name, outcome });
}

/** How a run ended, for /metrics and its span: done, failed (the caller reads why), retried, given_up, claim_lost, interrupted. */
type Outcome = 'done' | 'failed' | 'retried' | 'given_up' | 'claim_lost' | 'interrupted';

async function runToEnd<J extends QueuedJob>(deps: AppDeps, kind: JobKind<J>, job: J, instanceId: string, options: RunClaimedOptions): Promise<Outcome> {
  const log = deps.log.child({ job: kind.name, jobId: job.id });
  const lease = leaseOf(deps, kind, job, instanceId, options.leaseSeconds ?? deps.config.asyncJobs.leaseSeconds);
  let outcome: Outcome;
  const end = async (error: DomainError) => {
    await lease.finish(deps.db, kind.failed(error, job, deps));
    log.info({ code: error.graph?.code, subcode: error.graph?.subcode }, 'job failed');
  };
  try {
    try {
      await kind.run(deps, job, lease, log);
      outcome = 'done';
      log.info('job done');
    } catch (error) {
      if (error instanceof ClaimLost) throw error;
      if (error instanceof DomainError && error.code !== 'SERVICE_UNAVAILABLE') {
        await end(error);
        return 'failed';
      }
      log.error({ err: error }, 'job hit an unexpected error');
      if (job.attempts >= (options.maxAttempts ?? MAX_ATTEMPTS)) {
        await end(new DomainError('BAD_USER_INPUT', 'An unknown error occurred', { graph: { code: 1, isTransient: true } }));
        outcome = 'given_up';
      } else {
        // Back in the queue for another attempt.
        await lease.finish(deps.db, { status: kind.queue.waiting });
        outcome = 'retried';
      }
    }
  } catch (error) {
    if (error instanceof ClaimLost) {
      outcome = 'claim_lost';
      log.warn('job claim lost (lease expired): another instance runs it');
    } else {
      outcome = 'interrupted';
      log.warn({ err: { message: (error as Error).message } }, 'job could not run: it runs again when its lease expires');
    }
  }
  return outcome!;
}

/**
 * The background loop: takes the kinds in turn, claiming and running one job at a time; polls every pollMs and
 * wakes early on wake(). Each time it finds nothing to do, the kinds sweep what has expired.
 */
export function startJobRunner(deps: AppDeps, kinds: readonly AnyJobKind[], options: RunnerOptions): JobRunner {
  const instanceId = randomUUID();
  const sweep = async () => {
    for (const kind of kinds) {
      if (poller.stopped || !kind.sweep) continue;
      const deleted = await kind.sweep(deps, new Date());
      if (deleted > 0) deps.log.info({ job: kind.name, deleted }, 'expired jobs deleted');
    }
    for (const sweeper of options.sweepers ?? []) {
      if (poller.stopped) return;
      const deleted = await sweeper.sweep(deps, new Date());
      if (deleted > 0) deps.log.info({ sweeper: sweeper.name, deleted }, 'expired rows deleted');
    }
  };
  const poller = startPoller(async () => {
    try {
      for (const kind of kinds) {
        if (poller.stopped) return true;
        const queued = kind.schedule ? await kind.schedule(deps, timeNow(deps)) : 0;
        if (queued > 0) deps.log.info({ job: kind.name, queued }, 'scheduled jobs queued');
      }
      for (;;) {
        let ran = false;
        for (const kind of kinds) {
          if (poller.stopped) return true;
          const job = await claimNext(deps.db, kind, instanceId, options.leaseSeconds);
          if (!job) continue;
          ran = true;
          await runClaimed(deps, kind, job, instanceId, options);
        }
        if (!ran) break;
      }
      await sweep();
      return true;
    } catch (error) {
      // The database may be down for a while; the next poll tries again.
      deps.log.warn({ err: { message: (error as Error).message } }, 'job runner could not claim work');
      return false;
    }
  }, options.pollMs);
  return { wake: poller.wake, stop: poller.stop };
}
