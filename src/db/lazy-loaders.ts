import type { Db } from './index.ts';
import { currentLoaderGroup, loaderByColumn, loaderById, pagedChildren } from './batch.ts';
import type { TableMapping } from './rows.ts';
import type { SharedReads } from '../context/index.ts';

/** Makers of a domain's loaders, by name: of the request's database, and what it may read beyond the request. */
type LoaderMakers = Record<string, (db: Db, shared: SharedReads | undefined) => unknown>;

/** The loaders `makers` make, by the same names. */
export type LazyLoaders<M extends LoaderMakers> = { readonly [K in keyof M]: ReturnType<M[K]> };

/**
 * A domain's per-request loaders, each made on its first use. A domain has a score of loaders and a request uses
 * a few: making all of them (a DataLoader each, a page loader's closures and maps) was a twentieth of the nested
 * read's time. The getters are the prototype's, made once: a getter made per request in an object literal is an
 * accessor pair V8 keeps in its old generation, which keeps the request alive (src/context/index.ts). Each loader
 * is made in the group of the request's loaders (./batch.ts), whenever it is first asked for.
 */
export function lazyLoaders<M extends LoaderMakers>(makers: M): (db: Db, shared?: SharedReads) => LazyLoaders<M> {
  class Loaders {
    readonly made = new Map<string, unknown>();
    readonly inGroup = currentLoaderGroup();
    constructor(
      readonly db: Db,
      readonly shared: SharedReads | undefined,
    ) {}
  }
  for (const [name, make] of Object.entries(makers)) {
    Object.defineProperty(Loaders.prototype, name, {
      get(this: Loaders) {
        let loader = this.made.get(name);
        if (loader === undefined) this.made.set(name, (loader = this.inGroup(() => make(this.db, this.shared))));
        return loader;
      },
    });
  }
  return (db, shared) => new Loaders(db, shared) as unknown as LazyLoaders<M>;
}

/** A maker of `loaderById(db, mapping, column)`. */
export const byId =
  <T>(mapping: TableMapping<T>, column?: string) =>
  (db: Db) =>
    loaderById(db, mapping, column);

/** A maker of `loaderByColumn(db, mapping, column, orderBy)`. */
export const allByColumn =
  <T>(mapping: TableMapping<T>, column: string, orderBy?: string) =>
  (db: Db) =>
    loaderByColumn(db, mapping, column, orderBy);

/** A maker of `pagedChildren(db, mapping, parentColumn)`. */
export const childrenOf =
  <T>(mapping: TableMapping<T>, parentColumn: string) =>
  (db: Db) =>
    pagedChildren(db, mapping, parentColumn);
