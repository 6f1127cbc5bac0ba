import type { AppDeps } from '../context/index.ts';
import { createRequestContext } from '../context/index.ts';
import { DomainError } from '../errors/index.ts';
import { graphErrorBody } from '../errors/graph.ts';
import { restorePrincipal } from '../identity/principals.ts';
import type { JobKind, Lease } from '../jobs/index.ts';
import type { Logger } from '../logging/index.ts';
import { DEEP_COPY_ASYNC_MAX } from './rules/limits.ts';
import { copyFinishedEvent } from './events.ts';
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
};
