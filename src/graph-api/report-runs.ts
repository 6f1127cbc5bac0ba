import type { RequestContext } from '../context/index.ts';
import type { PageRequest } from '../db/pagination.ts';
import { encodeCursor } from '../db/pagination.ts';
import type { InsightsTarget } from '../insights/query.ts';
import { ASYNC_STATUS } from '../insights/reports/rules.ts';
import { createReportRun, reportRows } from '../insights/reports/service.ts';
import type { ReportRunRecord } from '../insights/reports/store.ts';
import { insightsRowJson, readInsightsParams } from './insights.ts';
import type { GraphNode } from './nodes.ts';
import type { Params } from './params.ts';
import { parseFields } from './fields.ts';

/**
 * Asynchronous reports on /v24.0 (AdReportRun): `POST /<object>/insights` takes the parameters of
 * `GET /<object>/insights` (insights.ts reads them) and answers `{report_run_id}` at once; `GET /<report_run_id>`
 * reads the run; `GET /<report_run_id>/insights` pages its result, printed as the synchronous report prints.
 */
export async function postReportRun(ctx: RequestContext, target: InsightsTarget, params: Params): Promise<{ report_run_id: string }> {
  const { query } = readInsightsParams(params);
  const run = await createReportRun(ctx, target, query);
  return { report_run_id: run.id };
}

const unixTime = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : undefined);
const errorField = <K extends keyof NonNullable<ReportRunRecord['error']>>(key: K) => ({
  kind: 'plain' as const,
  get: (run: ReportRunRecord) => run.error?.[key],
});

/** The run as the platform's AdReportRun (time_ref and time_completed are Unix times, as the platform prints them). */
export const REPORT_RUN: GraphNode<ReportRunRecord> = {
  name: 'AdReportRun',
  id: (run) => run.id,
  accountId: (run) => run.accountId,
  defaultSelection: parseFields('id,account_id,time_ref,time_completed,async_status,async_percent_completion,date_start,date_stop'),
  fields: {
    id: { kind: 'plain', get: (run) => run.id },
    account_id: { kind: 'plain', get: (run) => run.accountId },
    async_status: { kind: 'plain', get: (run) => ASYNC_STATUS[run.status] },
    async_percent_completion: { kind: 'plain', get: (run) => run.percent },
    is_running: { kind: 'plain', get: (run) => run.status === 'STARTED' || run.status === 'RUNNING' },
    date_start: { kind: 'plain', get: (run) => run.dateStart },
    date_stop: { kind: 'plain', get: (run) => run.dateStop },
    time_ref: { kind: 'plain', get: (run) => unixTime(run.createdTime) },
    time_completed: { kind: 'plain', get: (run) => unixTime(run.completedTime) ?? 0 },
    error_code: errorField('code'),
    error_message: errorField('message'),
    error_subcode: errorField('error_subcode'),
    error_user_title: errorField('error_user_title'),
    error_user_msg: errorField('error_user_msg'),
  },
  edges: {},
};

export interface ReportRowsBody {
  data: Array<Record<string, unknown>>;
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string };
}

/**
 * `GET /<report_run_id>/insights`: a page of the run's rows with the fields the report asked for (none until it
 * has completed), with cursors and the links `link` builds.
 */
export async function readReportRunInsights(
  ctx: RequestContext,
  run: ReportRunRecord,
  page: PageRequest,
  link: (direction: 'after' | 'before', cursor: string) => string,
): Promise<ReportRowsBody> {
  const slice = await reportRows(ctx, run, page);
  const body: ReportRowsBody = { data: slice.items.map((item) => insightsRowJson(item.row, run.query.fields)) };
  const first = slice.items[0];
  const last = slice.items.at(-1);
  if (first && last) {
    body.paging = { cursors: { before: encodeCursor(first.id), after: encodeCursor(last.id) } };
    if (slice.hasNextPage) body.paging.next = link('after', body.paging.cursors.after);
    if (slice.hasPreviousPage) body.paging.previous = link('before', body.paging.cursors.before);
  }
  return body;
}
