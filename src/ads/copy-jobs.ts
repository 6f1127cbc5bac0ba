import type { Knex } from 'knex';
import type { AppDeps } from '../context/index.ts';
import { createRequestContext } from '../context/index.ts';
import { dialect } from '../db/index.ts';
import { DomainError } from '../errors/index.ts';
import { graphErrorBody } from '../errors/graph.ts';
import { restorePrincipal } from '../identity/principals.ts';
import type { JobKind, Lease } from '../jobs/index.ts';
import type { Logger } from '../logging/index.ts';
import { DEEP_COPY_ASYNC_MAX } from './rules/limits.ts';
import { copyFinishedEvent, setCompletedEvent } from './events.ts';
import { asyncRequestSetProgress, type AsyncRequestSetProgress } from './rules/async-requests.ts';
import { asyncRequests, asyncRequestSets, type AsyncRequestRecord } from './store.ts';
import { copyAdSetIn, copyResultJson, readCopyParams, sourceForCopy } from './writes/ad-set-copies.ts';

/**
 * Asynchronous ad set copies (POST /act_<ID>/async_batch_requests) as a job kind: each stored request copies one
 * ad set as the principal who asked, authorized again as that principal is now (a role taken away since stops
 * it). The copy and the request's SUCCESS are written in one transaction, which commits only while this instance
 * still holds the claim; a failure rolls the copy back and keeps the Graph error for the caller to read.
 */
export const adSetCopyJobs: JobKind<AsyncRequestRecord> = {
  name: 'adset_copy',
  queue: { table: asyncRequests.table, waiting: 'INITIAL', claimed: 'IN_PROGRESS', held: ['IN_PROGRESS'], fromRow: asyncRequests.fromRow },

  async run(deps: AppDeps, request: AsyncRequestRecord, lease: Lease, log: Logger) {
    const setRow = await deps.db(asyncRequestSets.table).where({ id: request.setId }).first();
    const set = setRow ? asyncRequestSets.fromRow(setRow) : null;
    const viewer = set ? await restorePrincipal(deps, set.principal) : null;
    if (!viewer) throw new DomainError('FORBIDDEN', 'The user or API client that made this request can no longer act', { graph: { code: 200 } });
    const ctx = createRequestContext(deps, {
      requestId: `async-${request.id}`,
      viewer,
      log,
      origin: { application: 'Asynchronous requests', job: { id: request.id, label: `Asynchronous request ${request.id}` } },
    });
    const input = readCopyParams((request.input as { params?: Record<string, unknown> }).params ?? {});
    const source = await sourceForCopy(ctx, request.adsetId ?? '');
    await deps.db.transaction(async (trx) => {
      const result = await copyAdSetIn(ctx, trx, source, input, DEEP_COPY_ASYNC_MAX);
      await lease.finish(trx, { status: 'SUCCESS', result: JSON.stringify(copyResultJson(result)) });
    });
  },

  failed: (error) => ({ status: 'ERROR', error: JSON.stringify(graphErrorBody(error)) }),
  finishedEvent: copyFinishedEvent,
  completedEvents: async (q, request) => {
    const progress = await progressOnceEnded(q, request.setId);
    return progress ? [setCompletedEvent(request, progress, new Date())] : [];
  },
};

/**
 * The set's progress once no request of it is left to run, else null. On PostgreSQL the set's row is locked first:
 * two of its requests ending at once on two instances would each count the other as running (neither sees the
 * other's uncommitted end), and the set would never be told complete; with the lock, the second to end counts
 * after the first committed. SQLite writes one transaction at a time.
 */
async function progressOnceEnded(q: Knex, setId: string): Promise<AsyncRequestSetProgress | null> {
  if (dialect(q) === 'postgres') await q(asyncRequestSets.table).where({ id: setId }).forUpdate().first('id');
  const rows = (await q(asyncRequests.table).where({ set_id: setId }).groupBy('status').select('status').count({ n: '*' })) as Array<{
    status: string;
    n: number | string;
  }>;
  const progress = asyncRequestSetProgress(new Map(rows.map((row) => [row.status, Number(row.n)])));
  return progress.isCompleted ? progress : null;
}
