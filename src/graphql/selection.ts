import type { FieldNode, FragmentDefinitionNode, SelectionSetNode } from 'graphql';

/**
 * Walking what a query selects under a field, fragments followed: for resolvers that read ahead (the columns a
 * list reads, projection.ts; the report fields an insights connection asks for, src/insights/resolvers/report.ts).
 */
export type Fragments = Readonly<Record<string, FragmentDefinitionNode>>;

/** Visits the fields a selection set selects, through its fragments (whatever their directives: more, never less). */
export function fieldsOf(selectionSet: SelectionSetNode | undefined, fragments: Fragments, visit: (field: FieldNode) => void, seen = new Set<string>()): void {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === 'Field') visit(selection);
    else if (selection.kind === 'InlineFragment') fieldsOf(selection.selectionSet, fragments, visit, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      fieldsOf(fragments[selection.name.value]?.selectionSet, fragments, visit, seen);
    }
  }
}

/** The fields of a selection by name (a name selected under several aliases: each of its nodes). */
export function fieldsByName(nodes: readonly FieldNode[], fragments: Fragments): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  for (const node of nodes) fieldsOf(node.selectionSet, fragments, (field) => addField(fields, field));
  return fields;
}

function addField(fields: Map<string, FieldNode[]>, field: FieldNode): void {
  const same = fields.get(field.name.value);
  if (same) same.push(field);
  else fields.set(field.name.value, [field]);
}

/** The fields the items of a connection selection read: under `nodes`, and under `edges { node }`. */
export function connectionItemFields(connection: readonly FieldNode[], fragments: Fragments): Map<string, FieldNode[]> {
  const names = new Map<string, FieldNode[]>();
  const item = (field: FieldNode) => addField(names, field);
  for (const node of connection) {
    fieldsOf(node.selectionSet, fragments, (field) => {
      if (field.name.value === 'nodes') fieldsOf(field.selectionSet, fragments, item);
      else if (field.name.value === 'edges')
        fieldsOf(field.selectionSet, fragments, (inner) => inner.name.value === 'node' && fieldsOf(inner.selectionSet, fragments, item));
    });
  }
  return names;
}
