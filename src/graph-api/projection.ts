import type { FieldSelection } from './fields.ts';
import { NODES, type AnyGraphNode } from './nodes.ts';
import type { TableMapping } from '../db/rows.ts';
import type { JoinedReference } from '../db/references.ts';
import type { ChildPlan, ListPlan } from '../authz/edges.ts';
import type { PageRequest } from '../db/pagination.ts';

/**
 * What an edge's items read for what `selection` shows of them: the columns (each field's and edge's `reads`,
 * nodes.ts; undefined when one of them may read anything, and the edge then reads whole rows), and the references
 * read in the same statement (a field with `joins` whose shown fields all read columns), and, given `pageOf` (an
 * edge's page from its modifiers), the first page of one edge of each item (an edge read with its parents, shown
 * once, reading columns only). The /v24.0 twin of src/graphql/projection.ts. Pure.
 */
export function selectionPlan(node: AnyGraphNode, selection: readonly FieldSelection[], pageOf?: (modifiers: Record<string, string>) => PageRequest): ListPlan {
  const references: JoinedReference[] = [];
  let child: ChildPlan | undefined;
  for (const item of selection) {
    const field = node.fields[item.name];
    if (!field?.ref || !field.joins) continue;
    const target = NODES[field.ref];
    const shown = selectionColumns(target, item.children ?? target.defaultSelection ?? []);
    if (shown) references.push({ column: field.joins.column, mapping: field.joins.mapping.narrowed(shown) as TableMapping<unknown> });
  }
  for (const item of pageOf ? selection : []) {
    const edge = node.edges[item.name];
    if (!edge?.edge.pagesWithParents || selection.filter((other) => other.name === item.name).length > 1) continue;
    const target = NODES[edge.node];
    const plan = selectionPlan(target, item.children ?? edge.defaultSelection ?? target.defaultSelection ?? []);
    if (plan.references?.length) continue;
    try {
      child = { edge: edge.edge as ChildPlan['edge'], page: pageOf!(item.modifiers), filter: edge.filter?.(item.modifiers), plan: { columns: plan.columns } };
      break;
    } catch {
      // Modifiers its own listing will refuse, with the error in its place: that page is read by itself.
    }
  }
  return { columns: selectionColumns(node, selection), references, ...(child ? { child } : {}) };
}

/** The columns `selection` reads of `node`'s records, or undefined when one of its fields may read anything. */
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
