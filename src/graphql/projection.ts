import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo, GraphQLSchema, SelectionSetNode } from 'graphql';
import { camel, type TableMapping } from '../db/rows.ts';

/**
 * Reading only the columns a query selects. A connection's resolver hands its edge the columns its items' selected
 * fields read (`connectionColumns`), and the edge's statement selects those instead of the whole row: an ad set
 * has 71 columns, a nested read shows three.
 *
 * Which column a field reads: a field resolved by the record's property of its own name (graphql's default) reads
 * the column of that name; a field with a resolver of its own reads the columns its type's `TypeReads` lists for it
 * beyond the ids (rows.ts reads the id, the organization and every reference always); any other field, or a schema
 * whose resolvers were not noted here, reads the whole row. A wrong guess can only read more, never less.
 */
export interface TypeReads {
  /** The GraphQL object type the items are. */
  type: string;
  mapping: TableMapping<never>;
  /** Fields with resolvers of their own that read only these columns (besides the ids). */
  resolved: Readonly<Record<string, readonly string[]>>;
}

/** Per schema, the fields of each type that have resolvers of their own (noted when the schema is built). */
const resolvedFieldsBySchema = new WeakMap<GraphQLSchema, ReadonlyMap<string, ReadonlySet<string>>>();

/** Notes which fields of `schema` have resolvers of their own: `resolvers` are the maps the schema was made from. */
export function noteResolvedFields(schema: GraphQLSchema, resolvers: ReadonlyArray<Record<string, unknown>>): void {
  const byType = new Map<string, Set<string>>();
  for (const map of resolvers) {
    for (const [type, fields] of Object.entries(map)) {
      if (typeof fields !== 'object' || fields === null) continue;
      const names = byType.get(type) ?? new Set<string>();
      for (const name of Object.keys(fields)) names.add(name);
      byType.set(type, names);
    }
  }
  resolvedFieldsBySchema.set(schema, byType);
}

/** A table's columns by the record property each becomes (`daily_budget` by `dailyBudget`). */
const columnsByKey = new WeakMap<TableMapping<never>, ReadonlyMap<string, string>>();
function columnOfKey(mapping: TableMapping<never>, key: string): string | undefined {
  let byKey = columnsByKey.get(mapping);
  if (!byKey) {
    byKey = new Map(Object.keys(mapping.columns).map((column) => [camel(column), column]));
    columnsByKey.set(mapping, byKey);
  }
  return byKey.get(key);
}

type Fragments = Readonly<Record<string, FragmentDefinitionNode>>;

/** The names of the fields a selection set selects, through its fragments (whatever their directives: more, never less). */
function fieldsOf(selectionSet: SelectionSetNode | undefined, fragments: Fragments, visit: (field: FieldNode) => void, seen = new Set<string>()): void {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === 'Field') visit(selection);
    else if (selection.kind === 'InlineFragment') fieldsOf(selection.selectionSet, fragments, visit, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      fieldsOf(fragments[selection.name.value]?.selectionSet, fragments, visit, seen);
    }
  }
}

/** The field names the items of a connection selection read: under `nodes`, and under `edges { node }`. */
function itemFieldNames(connection: readonly FieldNode[], fragments: Fragments): Set<string> {
  const names = new Set<string>();
  const item = (field: FieldNode) => names.add(field.name.value);
  for (const node of connection) {
    fieldsOf(node.selectionSet, fragments, (field) => {
      if (field.name.value === 'nodes') fieldsOf(field.selectionSet, fragments, item);
      else if (field.name.value === 'edges')
        fieldsOf(field.selectionSet, fragments, (inner) => inner.name.value === 'node' && fieldsOf(inner.selectionSet, fragments, item));
    });
  }
  return names;
}

/** The columns `names` read of `reads`'s type, or undefined when one of them needs the whole row. Pure. */
export function columnsOfFields(names: Iterable<string>, reads: TypeReads, resolvedFields: ReadonlySet<string>): string[] | undefined {
  const columns: string[] = [];
  for (const name of names) {
    if (name === '__typename') continue;
    const declared = reads.resolved[name];
    if (declared) columns.push(...declared);
    else if (resolvedFields.has(name)) return undefined;
    else {
      const column = columnOfKey(reads.mapping, name);
      if (column === undefined) return undefined;
      columns.push(column);
    }
  }
  return columns;
}

/** Answers per connection field node (a parsed document is reused while Apollo's document cache keeps it). */
const answers = new WeakMap<FieldNode, WeakMap<TypeReads, { columns: string[] | undefined }>>();

/**
 * The columns the items of the connection being resolved read (`info` is the connection field's), or undefined
 * for whole rows.
 */
export function connectionColumns(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments' | 'schema'>, reads: TypeReads): string[] | undefined {
  const key = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : undefined;
  const known = key && answers.get(key)?.get(reads);
  if (known) return known.columns;
  const noted = resolvedFieldsBySchema.get(info.schema);
  const columns = noted ? columnsOfFields(itemFieldNames(info.fieldNodes, info.fragments), reads, noted.get(reads.type) ?? new Set()) : undefined;
  if (key) {
    const byReads = answers.get(key) ?? new WeakMap<TypeReads, { columns: string[] | undefined }>();
    byReads.set(reads, { columns });
    answers.set(key, byReads);
  }
  return columns;
}
