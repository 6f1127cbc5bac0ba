import type { RequestContext } from '../context/index.ts';
import type { Edge } from '../authz/edges.ts';
import type { RelayArgs } from '../db/pagination.ts';
import type { ReadPlan } from '../db/references.ts';
import { connection, type ConnectionModel } from './connections.ts';

/**
 * A Relay connection over a domain edge: the same list and count /v24.0 serves (src/authz/edges.ts). `plan`:
 * what the items' selected fields read (projection.ts), when the caller knows.
 */
export function edgeConnection<P, T extends { id: string }, F>(
  edge: Edge<P, T, F>,
  ctx: RequestContext,
  parent: P,
  args: RelayArgs,
  filter?: F,
  plan?: ReadPlan,
): Promise<ConnectionModel> {
  return connection(
    args,
    (page) => edge.list(ctx, parent, page, filter, plan),
    () => edge.count(ctx, parent, filter),
  );
}

/** GraphQL's list arguments as an edge filter: effectiveStatus, and status (configured) where the type has it. */
export function statusFilter(args: { effectiveStatus?: readonly string[] | null; status?: readonly string[] | null }) {
  return {
    effectiveStatus: args.effectiveStatus ?? undefined,
    status: (args.status ?? undefined) as Array<'ACTIVE' | 'PAUSED' | 'DELETED' | 'ARCHIVED'> | undefined,
  };
}
