import type { Knex } from 'knex';
import { toSlice, type PageRequest, type Slice } from '../../db/pagination.ts';
import { OWNED_COLUMNS as OWNED, type Owned } from '../../db/objects.ts';
import { defineTable } from '../../db/rows.ts';
import type { StoredPrincipal } from '../../identity/principals.ts';
import type { Day, InsightsQuery, InsightsRow, InsightsTargetKind } from '../query.ts';

/**
 * A report run's life: NOT_STARTED (stored), STARTED (claimed by a runner), RUNNING (computing), then COMPLETED
 * or FAILED. The platform's async_status names them (rules/report-status.ts).
 */
export const REPORT_RUN_STATUSES = ['NOT_STARTED', 'STARTED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type ReportRunStatus = (typeof REPORT_RUN_STATUSES)[number];

export interface ReportRunRecord extends Owned {
  accountId: string;
  ownerId: string;
  principal: StoredPrincipal;
  targetKind: InsightsTargetKind;
  targetId: string;
  query: InsightsQuery;
  status: ReportRunStatus;
  percent: number;
  rowCount: number | null;
  dateStart: Day | null;
  dateStop: Day | null;
  /** The Graph error body of a failed report. */
  error: { message: string; type: string; code: number; error_subcode?: number; error_user_title?: string; error_user_msg?: string } | null;
  attempts: number;
  claimedBy: string | null;
  leaseExpiresAt: Date | null;
  completedTime: Date | null;
  expiresAt: Date | null;
}

export const reportRuns = defineTable<ReportRunRecord>('insight_report_runs', {
  ...OWNED,
  account_id: 'id',
  owner_id: 'string',
  principal: 'json',
  target_kind: 'string',
  target_id: 'id',
  query: 'json',
  status: 'string',
  percent: 'int',
  row_count: 'int',
  date_start: 'string',
  date_stop: 'string',
  error: 'json',
  attempts: 'int',
  claimed_by: 'string',
  lease_expires_at: 'date',
  completed_time: 'date',
  expires_at: 'date',
});

export const REPORT_ROWS_TABLE = 'insight_report_rows';

/** Rows per insert: far under SQLite's bound parameters, few statements for a long report. */
const INSERT_CHUNK = 500;

/** Stores a report's result in order (replacing what an earlier, interrupted attempt left). */
export async function replaceReportRows(trx: Knex, reportRunId: string, rows: readonly InsightsRow[]): Promise<void> {
  await trx(REPORT_ROWS_TABLE).where({ report_run_id: reportRunId }).delete();
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await trx(REPORT_ROWS_TABLE).insert(
      rows.slice(start, start + INSERT_CHUNK).map((row, i) => ({ report_run_id: reportRunId, position: start + i, row: JSON.stringify(row) })),
    );
  }
}

export interface StoredReportRow {
  /** The row's place in the report, from 0: what a cursor stands at. */
  id: string;
  row: InsightsRow;
}

/** One page of a report's result, by position (keyset paging, as every list pages by id). */
export async function reportRowsPage(db: Knex, reportRunId: string, page: PageRequest): Promise<Slice<StoredReportRow>> {
  const ascending = page.direction === 'forward';
  const query = db(REPORT_ROWS_TABLE)
    .where({ report_run_id: reportRunId })
    .orderBy('position', ascending ? 'asc' : 'desc')
    .limit(page.limit + 1)
    .select('position', 'row');
  if (page.cursorId !== undefined) query.andWhere('position', ascending ? '>' : '<', Number(page.cursorId));
  const rows: Array<{ position: number | string; row: unknown }> = await query;
  return toSlice(
    rows.map((r) => ({ id: String(r.position), row: (typeof r.row === 'string' ? JSON.parse(r.row) : r.row) as InsightsRow })),
    page,
  );
}

/**
 * Deletes report runs whose time is up, with their rows: one statement (the idle runner calls it at every poll),
 * deleting their graph_objects rows, which cascade to both.
 */
export async function deleteExpiredReportRuns(db: Knex, now: Date, batch = 500): Promise<number> {
  const expired = db(reportRuns.table).select('id').where('expires_at', '<=', now).orderBy('expires_at').limit(batch);
  return Number(await db('graph_objects').whereIn('id', expired).delete());
}
