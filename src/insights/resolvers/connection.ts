import type { InsightsConnectionResolvers } from '../../graphql/__generated__/resolvers-types.ts';
import type { InsightsPage } from '../query.ts';

/** What InsightsConnection resolves from: one page of the engine's report (the summary in it when selected). */
export interface InsightsConnectionModel {
  page: InsightsPage;
}

/**
 * Relay paging over a report. The engine gives the cursors of a page's first and last rows (query.ts); an edge
 * between them carries the cursor of the page's end it is nearest to... no: each edge's own cursor is the
 * engine's per-row cursor.
 */
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
