import type { Slice, PageRequest, RelayArgs } from '../db/pagination.ts';
import { encodeCursor, pageRequestFromRelay } from '../db/pagination.ts';

/** What every *Connection type resolves from: one slice of a list, and a way to count the whole list. */
export interface ConnectionModel {
  slice: Slice<{ id: string }>;
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
  return { slice: await load(pageRequestFromRelay(args)), count };
}

const edgesOf = (model: ConnectionModel): EdgeModel[] => model.slice.items.map((node) => ({ cursor: encodeCursor(node.id), node }));

/** The same four fields for every connection type. */
export const connectionFields = {
  edges: (model: ConnectionModel) => edgesOf(model) as never[],
  // One mapper serves every connection type; the node type is checked where the slice is loaded.
  nodes: (model: ConnectionModel) => model.slice.items as never[],
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
