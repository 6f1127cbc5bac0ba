import type { RequestContext } from '../../context/index.ts';
import { findReadable, requireSignedIn } from '../../authz/guards.ts';
import { insertObjects } from '../../db/objects.ts';
import type { PageRequest, Slice } from '../../db/pagination.ts';
import { notFound } from '../../errors/index.ts';
import { ownerOf, storedPrincipal } from '../../identity/principals.ts';
import * as ads from '../../ads/service.ts';
import { checkQuery } from '../rules/params.ts';
import { checkRange } from '../rules/windows.ts';
import type { InsightsQuery, InsightsTarget } from '../query.ts';
import { isLive } from './rules.ts';
import { reportRowsPage, reportRuns, type ReportRunRecord, type StoredReportRow } from './store.ts';

/**
 * Asynchronous insights reports (AdReportRun), one service for both surfaces: `POST /<object>/insights` and
 * `createInsightsReport` store a run; the job runner computes it (job.ts); `GET /<report_run_id>`,
 * `GET /<report_run_id>/insights` and `insightsReport(id)` read it. A report run is authorized as its ad
 * account's statistics: the requester's organization sees it, while it lives (INSIGHTS_REPORT_TTL_SECONDS after
 * it ended); to anyone else, and after that, it answers as missing.
 */

const TARGET_FINDERS = {
  account: ads.findAdAccount,
  campaign: ads.findCampaign,
  adset: ads.findAdSet,
  ad: ads.findAd,
} as const;

const TARGET_NAMES = { account: 'Ad account', campaign: 'Campaign', adset: 'Ad set', ad: 'Ad' } as const;

/** The report's object as the caller may read it, with its ad account; NOT_FOUND otherwise. */
export async function reportTarget(ctx: RequestContext, target: InsightsTarget): Promise<{ organizationId: string; accountId: string }> {
  const record = await TARGET_FINDERS[target.kind](ctx, target.id);
  if (!record) throw notFound(TARGET_NAMES[target.kind], target.id);
  return { organizationId: record.organizationId, accountId: 'accountId' in record ? record.accountId : record.id };
}

/**
 * Stores a report run of `query` on `target` and wakes the runner. Everything that can be checked now is (the
 * object, the right to read it, the parameters: error 100 naming the parameter at once); the runner checks
 * again as the principal is when it runs.
 */
export async function createReportRun(ctx: RequestContext, target: InsightsTarget, query: InsightsQuery): Promise<ReportRunRecord> {
  requireSignedIn(ctx);
  const object = await reportTarget(ctx, target);
  checkQuery(query, target.kind);
  // The days are checked now too; what depends on the account's data (clipping to its first day) when it runs.
  if (query.timeRange) checkRange(query.timeRange, 'time_range');
  for (const range of query.timeRanges ?? []) checkRange(range, 'time_ranges');
  const principal = storedPrincipal(ctx.viewer);
  const [run] = await ctx.db.transaction((trx) =>
    insertObjects<ReportRunRecord>(trx, 'insights_report_run', reportRuns, [
      {
        organizationId: object.organizationId,
        accountId: object.accountId,
        ownerId: ownerOf(principal),
        principal,
        targetKind: target.kind,
        targetId: target.id,
        query,
        status: 'NOT_STARTED',
        percent: 0,
        rowCount: null,
        dateStart: null,
        dateStop: null,
        error: null,
        attempts: 0,
        claimedBy: null,
        leaseExpiresAt: null,
        completedTime: null,
        expiresAt: null,
      },
    ]),
  );
  ctx.jobs?.wake();
  return run!;
}

/** A report run the caller may read, while it lives; null otherwise. */
export async function findReportRun(ctx: RequestContext, id: string): Promise<ReportRunRecord | null> {
  const run = await findReadable(ctx, 'ad_account', id, async (key) => {
    const row = await ctx.db(reportRuns.table).where({ id: key }).first();
    return row ? reportRuns.fromRow(row) : null;
  });
  return run && isLive(run, new Date()) ? run : null;
}

/** A page of a report's result; empty until it has completed. */
export async function reportRows(ctx: RequestContext, run: ReportRunRecord, page: PageRequest): Promise<Slice<StoredReportRow>> {
  if (run.status !== 'COMPLETED') return { items: [], hasNextPage: false, hasPreviousPage: false };
  return reportRowsPage(ctx.db, run.id, page);
}
