import type { InsightsReportResolvers, Resolvers } from '../../graphql/__generated__/resolvers-types.ts';
import { findObject } from '../../authz/objects.ts';
import { encodeCursor, pageRequestFromRelay } from '../../db/pagination.ts';
import { notFound } from '../../errors/index.ts';
import type { InsightsTarget } from '../query.ts';
import { INSIGHTS_FIELDS } from '../rules/params.ts';
import { insightsCallOfInput, namingInputFields } from '../resolvers/report.ts';
import { createReportRun, findReportRun, reportRows } from './service.ts';

/** The object kinds a report is made on, by the kind findObject answers. */
const TARGET_KINDS = { ad_account: 'account', campaign: 'campaign', ad_set: 'adset', ad: 'ad' } as const;

/**
 * Asynchronous insights reports in GraphQL: the same service as POST /v24.0/<object>/insights and
 * GET /v24.0/<report_run_id>. The rows are read later by any selection, so a report made here computes every field.
 */
const insightsReportResolvers: InsightsReportResolvers = {
  percentCompletion: (run) => run.percent,
  expiresTime: (run) => run.expiresAt,
  rows: async (run, args, ctx) => {
    const slice = await reportRows(ctx, run, pageRequestFromRelay(args));
    const cursors = slice.items.map((item) => encodeCursor(item.id));
    return {
      page: {
        rows: slice.items.map((item) => item.row),
        cursors,
        before: cursors[0],
        after: cursors.at(-1),
        hasNext: slice.hasNextPage,
        hasPrevious: slice.hasPreviousPage,
      },
    };
  },
};

export const insightsReportsResolvers: Resolvers = {
  InsightsReport: insightsReportResolvers,
  Query: {
    insightsReport: (_, { id }, ctx) => findReportRun(ctx, id),
  },
  Mutation: {
    createInsightsReport: async (_, { objectId, input }, ctx) => {
      const found = await findObject(ctx, objectId, Object.keys(TARGET_KINDS) as Array<keyof typeof TARGET_KINDS>);
      if (!found) throw notFound('Object', objectId);
      const target: InsightsTarget = { kind: TARGET_KINDS[found.kind as keyof typeof TARGET_KINDS], id: (found.record as { id: string }).id };
      return namingInputFields(input, () => createReportRun(ctx, target, insightsCallOfInput(input, INSIGHTS_FIELDS).query));
    },
  },
};
