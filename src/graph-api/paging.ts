import { decodeCursor, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type PageRequest } from '../db/pagination.ts';
import { paramError } from './params.ts';

/** The page of a /v24.0 edge: `limit` (0 to 100, 25 when absent) and `after` or `before`, a cursor of the edge. */
export function pageRequest(params: { limit?: string; after?: string; before?: string }): PageRequest {
  let limit = DEFAULT_PAGE_SIZE;
  if (params.limit !== undefined) {
    if (!/^\d+$/.test(params.limit) || Number(params.limit) > MAX_PAGE_SIZE) {
      throw paramError('limit', `Param limit must be an integer between 0 and ${MAX_PAGE_SIZE}`);
    }
    limit = Number(params.limit);
  }
  if (params.after !== undefined && params.before !== undefined) throw paramError('before', 'Use after or before, not both');
  if (params.before !== undefined) return { direction: 'backward', limit, cursorId: decodeCursor(params.before, 'before') };
  return { direction: 'forward', limit, cursorId: params.after !== undefined ? decodeCursor(params.after, 'after') : undefined };
}

/** The page of an edge shown as a field (`ads.limit(5).after(…)`), from its modifiers. */
export const edgePage = (modifiers: Record<string, string>): PageRequest =>
  pageRequest({ limit: modifiers.limit, after: modifiers.after, before: modifiers.before });
