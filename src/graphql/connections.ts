import type { Slice, PageRequest, RelayArgs } from '../db/pagination.ts';
import { encodeCursor, pageRequestFromRelay } from '../db/pagination.ts';

/**
 * What every *Connection type resolves from: one slice of a list, and a way to count the whole list. `nodes` is
 * the slice's items as a property, which GraphQL reads without a resolver: a resolver call per connection (its
 * resolve info, path and callbacks in graphql-jit's compiled code) cost a nested read one per ad set.
 */
export interface ConnectionModel {
  slice: Slice<{ id: string }>;
  nodes: Array<{ id: string }>;
  count: () => Promise<number>;
}

export interface EdgeModel {
  cursor: string;
  node: { id: string };
}

/** Builds a connection from Relay arguments: the slice loader gets the parsed page request. */
export async function connection<T extends { id: string }>(
  args: RelayArgs,
  load: (page: PageRequest) => Promise<Slice<T>>,
  count: () => Promise<number>,
): Promise<ConnectionModel> {
  const slice = await load(pageRequestFromRelay(args));
  return { slice, nodes: slice.items, count };
}

const edgesOf = (model: ConnectionModel): EdgeModel[] => model.slice.items.map((node) => ({ cursor: encodeCursor(node.id), node }));

/** The same fields for every connection type (and `nodes`, the model's own property). */
export const connectionFields = {
  edges: (model: ConnectionModel) => edgesOf(model) as never[],
  totalCount: (model: ConnectionModel) => model.count(),
  pageInfo: (model: ConnectionModel) => {
    const edges = edgesOf(model);
    return {
      hasNextPage: model.slice.hasNextPage,
      hasPreviousPage: model.slice.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    };
  },
};
