import type { FieldSelection } from './fields.ts';
import { NODES, type AnyGraphNode } from './nodes.ts';
import type { TableMapping } from '../db/rows.ts';
import type { JoinedReference, ReadPlan } from '../db/references.ts';

/**
 * What an edge's items read for what `selection` shows of them: the columns (each field's and edge's `reads`,
 * nodes.ts; undefined when one of them may read anything, and the edge then reads whole rows), and the references
 * read in the same statement (a field with `joins` whose shown fields all read columns). The /v24.0 twin of
 * src/graphql/projection.ts. Pure.
 */
export function selectionPlan(node: AnyGraphNode, selection: readonly FieldSelection[]): ReadPlan {
  // The same selection object serves every item of an edge (`ads{…}` of each ad set): planned once.
  let byNode = plans.get(selection);
  if (!byNode) plans.set(selection, (byNode = new Map()));
  let plan = byNode.get(node);
  if (!plan) byNode.set(node, (plan = planOf(node, selection)));
  return plan;
}

const plans = new WeakMap<readonly FieldSelection[], Map<AnyGraphNode, ReadPlan>>();

function planOf(node: AnyGraphNode, selection: readonly FieldSelection[]): ReadPlan {
  const references: JoinedReference[] = [];
  for (const item of selection) {
    const field = node.fields[item.name];
    if (!field?.ref || !field.joins) continue;
    const target = NODES[field.ref];
    const shown = selectionColumns(target, item.children ?? target.defaultSelection ?? []);
    if (shown) references.push({ column: field.joins.column, mapping: field.joins.mapping.narrowed(shown) as TableMapping<unknown> });
  }
  const columns = selectionColumns(node, selection);
  return Object.freeze({ columns: columns && Object.freeze(columns), references: Object.freeze(references) });
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
