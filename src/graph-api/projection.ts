import type { FieldSelection } from './fields.ts';
import { NODES, type AnyGraphNode } from './nodes.ts';
import type { TableMapping } from '../db/rows.ts';
import type { JoinedReference } from '../db/references.ts';
import type { ChildPlan, ListPlan } from '../authz/edges.ts';
import { modifiersFilter } from './edge-filters.ts';
import { edgePage } from './paging.ts';

/**
 * What an edge's items read for what `selection` shows of them: the columns (each field's and edge's `reads`,
 * nodes.ts; undefined when one of them may read anything, and the edge then reads whole rows), the references
 * read in the same statement (a field with `joins` whose shown fields all read columns), and the first page of
 * one edge of each item to read with them (an edge whose pages may be read with their parents, shown once, its
 * items reading columns only: src/db/child-pages.ts). The /v24.0 twin of src/graphql/projection.ts.
 */
export function selectionPlan(node: AnyGraphNode, selection: readonly FieldSelection[]): ListPlan {
  // The same selection object serves every item of an edge (`ads{…}` of each ad set): planned once.
  let byNode = plans.get(selection);
  if (!byNode) plans.set(selection, (byNode = new Map()));
  let plan = byNode.get(node);
  if (!plan) byNode.set(node, (plan = planOf(node, selection)));
  return plan;
}

const plans = new WeakMap<readonly FieldSelection[], Map<AnyGraphNode, ListPlan>>();

function planOf(node: AnyGraphNode, selection: readonly FieldSelection[]): ListPlan {
  const references: JoinedReference[] = [];
  for (const item of selection) {
    const field = node.fields[item.name];
    if (!field?.ref || !field.joins) continue;
    const target = NODES[field.ref];
    const shown = selectionColumns(target, item.children ?? target.defaultSelection ?? []);
    if (shown) references.push({ column: field.joins.column, mapping: field.joins.mapping.narrowed(shown) as TableMapping<unknown> });
  }
  const columns = selectionColumns(node, selection);
  const child = childPlanOf(node, selection);
  return Object.freeze({ columns: columns && Object.freeze(columns), references: Object.freeze(references), ...(child ? { child } : {}) });
}

/** The first edge `selection` shows that can be read with its parents, as its own listing will read it. */
function childPlanOf(node: AnyGraphNode, selection: readonly FieldSelection[]): ChildPlan | undefined {
  for (const item of selection) {
    const edge = node.edges[item.name];
    if (!edge?.edge.pagesWithParents || selection.filter((other) => other.name === item.name).length > 1) continue;
    const target = NODES[edge.node];
    // What renderEdge (dispatch.ts) shows of each child, and so plans for it.
    const plan = selectionPlan(target, item.children ?? edge.defaultSelection ?? target.defaultSelection ?? []);
    if (!plan.columns || plan.references?.length) continue;
    try {
      const filter = edge.filter && modifiersFilter(edge.filter, item.modifiers);
      return Object.freeze({ edge: edge.edge as ChildPlan['edge'], page: edgePage(item.modifiers), filter, plan: { columns: plan.columns } });
    } catch {
      // Modifiers its own listing will refuse, with the error in its place: that page is read by itself.
    }
  }
  return undefined;
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
