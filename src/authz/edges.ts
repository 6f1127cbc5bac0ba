import type { Loaders, RequestContext } from '../context/index.ts';
import type { Filters, PagedChildren } from '../db/batch.ts';
import type { PageRequest, Slice } from '../db/pagination.ts';
import { readableChildren, readableCount } from './guards.ts';
import type { ResourceType } from './policy.ts';

/**
 * An edge: the list of one parent's children and its count, as one object that every surface wires from
 * (GraphQL connections and /v24.0 edges), so what is listed and what is counted cannot drift apart.
 * Children share their parent's organization, so one policy check decides the whole list.
 */
export interface Edge<P, T extends { id: string }, F = undefined> {
  /** Values the edge's effective_status filter takes; undefined for edges without one. */
  effectiveStatuses?: readonly string[];
  list(ctx: RequestContext, parent: P, page: PageRequest, filter?: F): Promise<Slice<T>>;
  count(ctx: RequestContext, parent: P, filter?: F): Promise<number>;
}

export interface ChildEdgeOptions<P, F> {
  /** SQL filters from the edge's filter, and from who asks (hidden comments). */
  filters?: (filter: F | undefined, ctx: RequestContext, parent: P) => Filters;
  /** The page as the filter orders it (newest first). */
  order?: (page: PageRequest, filter: F | undefined) => PageRequest;
  effectiveStatuses?: readonly string[];
  parentKey?: (parent: P) => string;
}

export function childEdge<P extends { id: string; organizationId: string }, T extends { id: string }, F = undefined>(
  type: ResourceType,
  loader: (loaders: Loaders) => PagedChildren<T>,
  options: ChildEdgeOptions<P, F> = {},
): Edge<P, T, F> {
  const key = options.parentKey ?? ((parent: P) => parent.id);
  const filters = options.filters ?? (() => ({}));
  const order = options.order ?? ((page: PageRequest) => page);
  return {
    effectiveStatuses: options.effectiveStatuses,
    list: (ctx, parent, page, filter) => {
      const where = filters(filter, ctx, parent);
      return readableChildren(ctx, type, parent.organizationId, () => loader(ctx.loaders).page(key(parent), order(page, filter), where));
    },
    count: (ctx, parent, filter) => {
      const where = filters(filter, ctx, parent);
      return readableCount(ctx, type, parent.organizationId, () => loader(ctx.loaders).count(key(parent), where));
    },
  };
}
