import type { Loaders, RequestContext } from '../context/index.ts';
import { countRows, fetchSlice, type Filters, type PagedChildren } from '../db/batch.ts';
import type { TableMapping } from '../db/rows.ts';
import type { ReadPlan } from '../db/references.ts';
import type { PageRequest, Slice } from '../db/pagination.ts';
import { EMPTY_SLICE, readableChildren, readableCount } from './guards.ts';
import { can, type Action, type ResourceType } from './policy.ts';

/**
 * An edge: the list of one parent's children and its count, as one object that every surface wires from
 * (GraphQL connections and /v24.0 edges), so what is listed and what is counted cannot drift apart.
 * Children share their parent's organization, so one policy check decides the whole list.
 */
export interface Edge<P, T extends { id: string }, F = undefined> {
  /** Values the edge's effective_status filter takes; undefined for edges without one. */
  effectiveStatuses?: readonly string[];
  /**
   * A page of the list. `plan`: what the caller's surface reads of each item (its selection, by
   * src/graphql/projection.ts or src/graph-api/projection.ts): the only columns, which the items then hold with
   * their ids, and references read in the same statement (src/db/references.ts). Edges of computed entries ignore it.
   */
  list(ctx: RequestContext, parent: P, page: PageRequest, filter?: F, plan?: ReadPlan): Promise<Slice<T>>;
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
    list: (ctx, parent, page, filter, plan) => {
      const where = filters(filter, ctx, parent);
      return readableChildren(ctx, type, parent.organizationId, () => loader(ctx.loaders).page(key(parent), order(page, filter), where, plan));
    },
    count: (ctx, parent, filter) => {
      const where = filters(filter, ctx, parent);
      return readableCount(ctx, type, parent.organizationId, () => loader(ctx.loaders).count(key(parent), where));
    },
  };
}

/**
 * The organizations a caller belongs to (a user's memberships, an API client's one) in which it may `action`
 * objects of `type`. A site administrator is listed its own memberships, not every organization.
 */
export function organizationsWhere(ctx: RequestContext, action: Action, type: ResourceType): string[] {
  const viewer = ctx.viewer;
  const candidates = viewer.kind === 'user' ? [...viewer.roles.keys()] : viewer.kind === 'anonymous' ? [] : [viewer.organizationId];
  return candidates.filter((organizationId) => can(viewer, action, { type, organizationId })).sort();
}

/**
 * An edge of the caller itself (`/me/adaccounts`, `/me/accounts`): the rows of a table that belong to the
 * organizations where the caller may `action` them, in id order, whoever the parent is.
 */
export function callerEdge<T extends { id: string }>(mapping: TableMapping<T>, action: Action, type: ResourceType): Edge<unknown, T> {
  return {
    async list(ctx, _parent, page, _filter, plan) {
      const organizations = organizationsWhere(ctx, action, type);
      if (organizations.length === 0) return EMPTY_SLICE;
      return fetchSlice(ctx.db, mapping.narrowed(plan?.columns), page, { organization_id: organizations }, plan?.references);
    },
    async count(ctx) {
      const organizations = organizationsWhere(ctx, action, type);
      return organizations.length === 0 ? 0 : countRows(ctx.db, mapping.table, { organization_id: organizations });
    },
  };
}
