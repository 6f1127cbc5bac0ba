import type { Edge } from '../authz/edges.ts';
import type { EdgeFilter } from '../ads/edges.ts';
import type { CommentFilter } from '../comments/edges.ts';
import { decodeJsonText, paramError } from './params.ts';

/**
 * The filters /v24.0 edges read from a call's parameters (or from an edge's modifiers in `fields`), as the
 * domain's edge objects take them.
 */
export type FilterReader = (source: Record<string, unknown>) => unknown;

/**
 * effective_status of the ad object edges: a JSON list (`["ACTIVE","PAUSED"]`, as the SDKs send it), or a comma
 * list (`ACTIVE,PAUSED`, as people type it). Only edges of campaigns, ad sets and ads take it.
 */
export const effectiveStatusFilter =
  (edge: Pick<Edge<unknown, { id: string }>, 'effectiveStatuses'>): FilterReader =>
  (source): EdgeFilter | undefined => {
    const raw = source.effective_status;
    if (raw === undefined || raw === null || raw === '') return undefined;
    const value = decodeJsonText(raw, 'effective_status');
    const list = Array.isArray(value)
      ? value
      : typeof value === 'string'
        ? value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : null;
    if (!list || list.some((v) => typeof v !== 'string')) throw paramError('effective_status', 'Param effective_status must be a list of statuses');
    if (!edge.effectiveStatuses) throw paramError('effective_status', 'Param effective_status is not supported on this edge');
    return { effectiveStatus: list as string[] };
  };

/** filter (toplevel, stream) and order (chronological, reverse_chronological) of comment edges. */
export const commentFilter: FilterReader = (source): CommentFilter => {
  const read = (name: 'filter' | 'order') => {
    const value = source[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw paramError(name, `Param ${name} must be a string`);
    return value;
  };
  return { filter: read('filter'), order: read('order') };
};
