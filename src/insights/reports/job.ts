import type { AppDeps } from '../../context/index.ts';
import { createRequestContext } from '../../context/index.ts';
import { DomainError } from '../../errors/index.ts';
import { graphErrorBody } from '../../errors/graph.ts';
import { restorePrincipal } from '../../identity/principals.ts';
import type { JobKind, Lease } from '../../jobs/index.ts';
import type { Logger } from '../../logging/index.ts';
import { allInsights } from '../service.ts';
import { COMPUTING_PERCENT, expiresAt, reportSpan } from './rules.ts';
import { deleteExpiredReportRuns, replaceReportRows, reportRuns, type ReportRunRecord } from './store.ts';

/**
 * Asynchronous insights reports as a job kind: a run computes its report as the principal who asked, as that
 * principal is now (a role or an account taken away since fails it), through the same engine as a synchronous
 * report (allInsights), and stores the rows with COMPLETED in one transaction that commits only while this
 * instance holds the claim. A finished run lives INSIGHTS_REPORT_TTL_SECONDS; then the idle runner deletes it.
 */
export const insightsReportJobs: JobKind<ReportRunRecord> = {
  name: 'insights_report',
  queue: { table: reportRuns.table, waiting: 'NOT_STARTED', claimed: 'STARTED', held: ['STARTED', 'RUNNING'], fromRow: reportRuns.fromRow },

  async run(deps: AppDeps, run: ReportRunRecord, lease: Lease, log: Logger) {
    const viewer = await restorePrincipal(deps, run.principal);
    if (!viewer) throw new DomainError('FORBIDDEN', 'The user or API client that asked for this report can no longer act', { graph: { code: 200 } });
    const ctx = createRequestContext(deps, { requestId: `report-${run.id}`, viewer, log, origin: { application: 'Insights reports' } });
    await lease.renew({ status: 'RUNNING', percent: COMPUTING_PERCENT });
    const rows = await allInsights(ctx, { kind: run.targetKind, id: run.targetId }, run.query);
    const span = reportSpan(run.query, rows);
    const now = new Date();
    await deps.db.transaction(async (trx) => {
      await replaceReportRows(trx, run.id, rows);
      await lease.finish(trx, {
        status: 'COMPLETED',
        percent: 100,
        row_count: rows.length,
        date_start: span?.since ?? null,
        date_stop: span?.until ?? null,
        completed_time: now,
        expires_at: expiresAt(now, deps.config.insightsReports.ttlSeconds),
      });
    });
  },

  failed: (error, _run, deps) => {
    const now = new Date();
    return {
      status: 'FAILED',
      error: JSON.stringify(graphErrorBody(error)),
      completed_time: now,
      expires_at: expiresAt(now, deps.config.insightsReports.ttlSeconds),
    };
  },

  sweep: (deps, now) => deleteExpiredReportRuns(deps.db, now),

  // COMPLETED or FAILED: heard by whoever may read the account's statistics.
  finishedEvent: (run, fields) =>
    fields.status === 'COMPLETED' || fields.status === 'FAILED'
      ? {
          organizationId: run.organizationId,
          topic: 'jobs',
          entryId: run.accountId,
          objectId: run.id,
          verb: 'finished',
          value: { id: run.id, object_type: 'insights_report_run', status: fields.status, time: Math.floor(Date.now() / 1000) },
          subject: { type: 'ad_account', organizationId: run.organizationId },
        }
      : null,
};
