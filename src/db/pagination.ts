import { badInput } from '../errors/index.ts';
import type { Knex } from 'knex';
import type { TableMapping } from './rows.ts';
import { isNumericId, isUuid } from './ids.ts';

/**
 * Keyset paging shared by every list: Relay connections in GraphQL and `limit`/`after`/`before` edges in
 * the Graph-style API. Items are ordered by id; a cursor is an opaque encoding of the id it stands at.
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

export interface PageRequest {
  limit: number;
  direction: 'forward' | 'backward';
  /** Exclusive bound: items after (forward) or before (backward) this id. */
  cursorId?: string;
  /** Newest first (comments' reverse_chronological): "after" then means older. */
  descending?: boolean;
}

/** Whether the rows of this request are read in increasing id order (the direction of travel, for the order shown). */
export const readsAscending = (request: PageRequest) => (request.direction === 'forward') !== (request.descending === true);

export interface Slice<T> {
  items: T[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export const encodeCursor = (id: string) => Buffer.from(`c:${id}`, 'utf8').toString('base64url');

export function decodeCursor(cursor: string, field: string): string {
  const decoded = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!decoded.startsWith('c:') || decoded.length < 3) throw badInput(field, `${field} is not a cursor returned by this API.`);
  return decoded.slice(2);
}

export interface RelayArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

function size(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_PAGE_SIZE) {
    throw badInput(field, `${field} must be between 0 and ${MAX_PAGE_SIZE}.`);
  }
  return value;
}

/** Relay arguments to a page request: `first`/`after` pages forward, `last`/`before` backward. */
export function pageRequestFromRelay(args: RelayArgs): PageRequest {
  const forward = args.first != null || args.after != null;
  const backward = args.last != null || args.before != null;
  if (forward && backward) throw badInput('last', 'Use first/after or last/before, not both.');
  if (backward) {
    return {
      direction: 'backward',
      limit: args.last != null ? size(args.last, 'last') : DEFAULT_PAGE_SIZE,
      cursorId: args.before != null ? decodeCursor(args.before, 'before') : undefined,
    };
  }
  return {
    direction: 'forward',
    limit: args.first != null ? size(args.first, 'first') : DEFAULT_PAGE_SIZE,
    cursorId: args.after != null ? decodeCursor(args.after, 'after') : undefined,
  };
}

/** Rows were fetched with limit + 1 in the request's direction; trim, restore id order and tell what lies beyond. */
export function toSlice<T>(rows: T[], request: PageRequest): Slice<T> {
  const more = rows.length > request.limit;
  const items = rows.slice(0, request.limit);
  if (request.direction === 'backward') {
    items.reverse();
    return { items, hasNextPage: request.cursorId !== undefined, hasPreviousPage: more };
  }
  return { items, hasNextPage: more, hasPreviousPage: request.cursorId !== undefined };
}

/** An operator's listing (the CLI's `list` commands): at most `limit` rows in id order, after the id `after`. */
export interface ListingRequest {
  limit: number;
  after?: string;
}

/** Ids of a table: Graph-style numbers, or UUIDs (identity). */
export type IdKind = 'number' | 'uuid';

/** A page of `query`'s rows (of a table with an `id` column) for a listing: the records, and the id to continue after when more follow. */
export async function listingPage<T extends { id: string }>(
  query: Knex.QueryBuilder,
  mapping: TableMapping<T>,
  request: ListingRequest,
  ids: IdKind,
): Promise<{ items: T[]; next: string | null }> {
  const column = `${mapping.table}.id`;
  if (request.after !== undefined && !(ids === 'uuid' ? isUuid : isNumericId)(request.after)) {
    throw badInput('after', `"${request.after}" is not an id of this list (${ids === 'uuid' ? 'a UUID' : 'a number'}).`);
  }
  if (request.after !== undefined) query.where(column, '>', request.after);
  const rows: Array<Record<string, unknown>> = await query
    .select(`${mapping.table}.*`)
    .orderBy(column)
    .limit(request.limit + 1);
  const { items, hasNextPage } = toSlice(rows.map(mapping.fromRow), { limit: request.limit, direction: 'forward' });
  return { items, next: hasNextPage ? items[items.length - 1]!.id : null };
}
