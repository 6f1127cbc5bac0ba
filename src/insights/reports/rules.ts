import type { Day, DayRange, InsightsQuery, InsightsRow } from '../query.ts';
import type { ReportRunStatus } from './store.ts';

/** The platform's async_status of each state of a report run (`Job Skipped` is the platform's own: never here). */
export const ASYNC_STATUS: Record<ReportRunStatus, string> = {
  NOT_STARTED: 'Job Not Started',
  STARTED: 'Job Started',
  RUNNING: 'Job Running',
  COMPLETED: 'Job Completed',
  FAILED: 'Job Failed',
};

/** Once a report has its result (or its failure), it stays readable this long, then the runner deletes it. */
export const expiresAt = (ended: Date, ttlSeconds: number) => new Date(ended.getTime() + ttlSeconds * 1000);

/** Whether a report run still answers: not yet ended, or ended less than its time ago. */
export const isLive = (run: { expiresAt: Date | null }, now: Date) => run.expiresAt === null || run.expiresAt > now;

/** The percent shown while the report computes: the computation is one step, so between claimed (0) and done (100). */
export const COMPUTING_PERCENT = 50;

/**
 * The days a report covers (its date_start and date_stop): the ranges it asked for when they are explicit, else
 * the span of the rows it answered (a preset resolved by the engine in the account's time zone); null when
 * neither says (a preset over days without delivery).
 */
export function reportSpan(
  query: Pick<InsightsQuery, 'timeRange' | 'timeRanges'>,
  rows: ReadonlyArray<Pick<InsightsRow, 'dateStart' | 'dateStop'>>,
): DayRange | null {
  const ranges: DayRange[] = query.timeRanges ?? (query.timeRange ? [query.timeRange] : rows.map((row) => ({ since: row.dateStart, until: row.dateStop })));
  if (ranges.length === 0) return null;
  const since = ranges.reduce<Day>((min, range) => (range.since < min ? range.since : min), ranges[0]!.since);
  const until = ranges.reduce<Day>((max, range) => (range.until > max ? range.until : max), ranges[0]!.until);
  return { since, until };
}
