import type { Loaders, RequestContext } from '../context/index.ts';
import { countRows, fetchSlice, type Filters, type PagedChildren } from '../db/batch.ts';
import type { TableMapping } from '../db/rows.ts';
import type { ReadPlan } from '../db/references.ts';
import type { ChildPages } from '../db/child-pages.ts';
import type { PageRequest, Slice } from '../db/pagination.ts';
import { allowed, EMPTY_SLICE, readableChildren, readableCount } from './guards.ts';
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
  list(ctx: RequestContext, parent: P, page: PageRequest, filter?: F, plan?: ListPlan): Promise<Slice<T>>;
  count(ctx: RequestContext, parent: P, filter?: F): Promise<number>;
  /**
   * This edge's page of each of several parents of `organizationId`, to read in the statement that lists the
   * parents (`ListPlan.child`, src/db/child-pages.ts); undefined when the caller may not read its items (each
   * parent's `list` then answers an empty page, as it would anyway) or the edge's pages cannot be read that way.
   * Throws what `list` would throw for the same page and filter.
   */
  pagesWithParents?(ctx: RequestContext, organizationId: string, page: PageRequest, filter: F | undefined, plan: ReadPlan): ChildPages | undefined;
}

/** One edge of each listed item, its page and filter, and what its items read: read with the list where it can be. */
export interface ChildPlan {
  edge: Edge<never, { id: string }, never>;
  page: PageRequest;
  filter: unknown;
  /** Columns only: a page of whole rows, or with references of its own, is read by itself. */
  plan: ReadPlan;
}

/** What a list reads (ReadPlan), and the first page of one edge of each of its items to read with it. */
export interface ListPlan extends ReadPlan {
  child?: ChildPlan;
}

export interface ChildEdgeOptions<P, F> {
  /** SQL filters from the edge's filter, and from who asks (hidden comments). */
  filters?: (filter: F | undefined, ctx: RequestContext, parent: P) => Filters;
  /** The page as the filter orders it (newest first). */
  order?: (page: PageRequest, filter: F | undefined) => PageRequest;
  effectiveStatuses?: readonly string[];
  parentKey?: (parent: P) => string;
  /**
   * Its filters depend on neither the parent nor the caller, so its pages may be read in the statement that lists
   * the parents (ListPlan.child).
   */
  readWithParents?: boolean;
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
      return readableChildren(ctx, type, parent.organizationId, () => {
        // The parent record: the statement that read it may have read this page too (src/db/child-pages.ts).
        const child = plan?.child && childPagesOf(ctx, parent.organizationId, plan.child);
        return loader(ctx.loaders).page(key(parent), order(page, filter), where, plan, parent, child);
      });
    },
    pagesWithParents:
      options.readWithParents && !options.parentKey
        ? (ctx, organizationId, page, filter, plan) =>
            allowed(ctx, 'read', type, organizationId)
              ? { list: loader(ctx.loaders), request: order(page, filter), filters: filters(filter, ctx, undefined as never), plan }
              : undefined
        : undefined,
    count: (ctx, parent, filter) => {
      const where = filters(filter, ctx, parent);
      return readableCount(ctx, type, parent.organizationId, () => loader(ctx.loaders).count(key(parent), where));
    },
  };
}

/**
 * A child plan's pages to read with a list of `organizationId`'s objects (children share their parent's
 * organization), or undefined: not readable that way, or a page or filter its own list will refuse, in its place.
 */
function childPagesOf(ctx: RequestContext, organizationId: string, child: ChildPlan): ChildPages | undefined {
  try {
    return child.edge.pagesWithParents?.(ctx, organizationId, child.page, child.filter as never, child.plan);
  } catch {
    return undefined;
  }
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
