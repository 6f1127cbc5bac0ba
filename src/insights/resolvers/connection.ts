import type { InsightsConnectionResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import type { InsightsPage } from '../query.ts';

/** What InsightsConnection resolves from: one page of the engine's report (the summary in it when selected). */
export interface InsightsConnectionModel {
  page: InsightsPage;
}

/** Relay paging over a report: each edge carries its row's cursor (the engine's, query.ts), so paging can start at any row. */
export const insightsConnectionResolvers: InsightsConnectionResolvers = {
  nodes: ({ page }) => page.rows,
  edges: ({ page }) => page.rows.map((node, i) => ({ node, cursor: page.cursors[i]! })),
  pageInfo: ({ page }) => ({
    hasNextPage: page.hasNext,
    hasPreviousPage: page.hasPrevious,
    startCursor: page.before ?? null,
    endCursor: page.after ?? null,
  }),
  summary: ({ page }) => page.summary ?? null,
};
