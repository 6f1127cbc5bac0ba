import type { FieldSelection } from './fields.ts';
import type { AnyGraphNode } from './nodes.ts';

/**
 * The columns an edge's items read for what `selection` shows of them (each field's and edge's `reads`, nodes.ts),
 * or undefined when one of them may read anything: the edge then reads whole rows. The /v24.0 twin of
 * src/graphql/projection.ts. Pure.
 */
export function selectionColumns(node: AnyGraphNode, selection: readonly FieldSelection[]): string[] | undefined {
  if (!node.idReads) return undefined;
  const columns = [...node.idReads];
  for (const item of selection) {
    const reads = (node.edges[item.name] ?? node.fields[item.name])?.reads;
    if (!reads) return undefined;
    columns.push(...reads);
  }
  return columns;
}
