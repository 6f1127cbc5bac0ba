import { getArgumentValues, type FieldNode, type GraphQLField, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { connectionItemFields, fieldsByName, type Fragments } from './selection.ts';
import { camel, type TableMapping } from '../db/rows.ts';
import type { JoinedReference, ReadPlan } from '../db/references.ts';
import type { Edge, ListPlan } from '../authz/edges.ts';
import { pageRequestFromRelay, type RelayArgs } from '../db/pagination.ts';

/**
 * Reading only the columns a query selects. A connection's resolver hands its edge the columns its items' selected
 * fields read (`connectionPlan`), and the edge's statement selects those instead of the whole row: an ad set
 * has 71 columns, a nested read shows three. A reference field whose shown fields are all columns (an ad set's
 * `campaign { name }`) is read in the same statement (src/db/references.ts).
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
  /**
   * Fields whose resolvers take the object joined by `column` when the list read it (references.ts's
   * `joinedReference`), and load it otherwise; `reads` is the referenced type's.
   */
  references?: Readonly<Record<string, { column: string; reads: TypeReads }>>;
  /**
   * Connection fields whose first page may be read with the list (their edge's `pagesWithParents`,
   * src/authz/edges.ts): the edge, its items' reads, and its filter from the field's arguments (the others are
   * the page's, read as its resolver reads them).
   */
  children?: Readonly<Record<string, ChildReads>>;
}

export interface ChildReads {
  edge: Edge<never, { id: string }, never>;
  reads: TypeReads;
  filter: (args: Record<string, unknown>) => unknown;
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

/**
 * A connection's plan as far as the document decides it. A child connection read with the items (`children`) is
 * planned here too, but its arguments may be variables: its page and filter are read at each request.
 */
interface DocumentPlan {
  plan: ReadPlan;
  child?: { field: FieldNode; definition: GraphQLField<unknown, unknown>; spec: ChildReads; plan: ReadPlan };
}

/** Answers per connection field node (a parsed document is reused while Apollo's document cache keeps it). */
const answers = new WeakMap<FieldNode, WeakMap<TypeReads, DocumentPlan>>();

const WHOLE_ROWS: DocumentPlan = Object.freeze({ plan: Object.freeze({}) });

/**
 * What the items of the connection being resolved read (`info` is the connection field's): their columns
 * (undefined: whole rows), the references to read with them, and the first page of one of their own connections
 * to read with them (`children`: when the items show one such connection, once, reading columns only).
 */
export function connectionPlan(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments' | 'schema' | 'variableValues'>, reads: TypeReads): ListPlan {
  const key = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : undefined;
  let known = key && answers.get(key)?.get(reads);
  if (!known) {
    const noted = resolvedFieldsBySchema.get(info.schema);
    known = noted
      ? documentPlanOf(info.schema, connectionItemFields(info.fieldNodes, info.fragments), reads, (type) => noted.get(type) ?? new Set(), info.fragments)
      : WHOLE_ROWS;
    if (key) {
      const byReads = answers.get(key) ?? new WeakMap<TypeReads, DocumentPlan>();
      byReads.set(reads, known);
      answers.set(key, byReads);
    }
  }
  if (!known.child) return known.plan;
  const { field, definition, spec, plan } = known.child;
  try {
    const args = getArgumentValues(definition, field, info.variableValues) as RelayArgs & Record<string, unknown>;
    const page = pageRequestFromRelay({ first: args.first, after: args.after, last: args.last, before: args.before });
    return { ...known.plan, child: { edge: spec.edge, page, filter: spec.filter(args), plan } };
  } catch {
    // Arguments its own resolver will refuse, with the error in its place: that page is read by itself.
    return known.plan;
  }
}

function documentPlanOf(
  schema: GraphQLSchema,
  fields: Map<string, FieldNode[]>,
  reads: TypeReads,
  resolvedFieldsOf: (type: string) => ReadonlySet<string>,
  fragments: Fragments,
): DocumentPlan {
  const plan = planOf(fields, reads, resolvedFieldsOf, fragments);
  for (const [name, spec] of Object.entries(reads.children ?? {})) {
    // Shown once (one alias, one set of arguments), reading columns only.
    const nodes = fields.get(name);
    if (nodes?.length !== 1) continue;
    const childPlan = planOf(connectionItemFields(nodes, fragments), spec.reads, resolvedFieldsOf, fragments);
    if (!childPlan.columns || childPlan.references?.length) continue;
    const definition = (schema.getType(reads.type) as GraphQLObjectType | undefined)?.getFields()[name];
    if (!definition) continue;
    return { plan, child: { field: nodes[0]!, definition, spec, plan: childPlan } };
  }
  return { plan };
}

function planOf(fields: Map<string, FieldNode[]>, reads: TypeReads, resolvedFieldsOf: (type: string) => ReadonlySet<string>, fragments: Fragments): ReadPlan {
  const columns = columnsOfFields(fields.keys(), reads, resolvedFieldsOf(reads.type));
  const references: JoinedReference[] = [];
  for (const [name, reference] of Object.entries(reads.references ?? {})) {
    const nodes = fields.get(name);
    if (!nodes) continue;
    const shown = columnsOfFields(fieldsByName(nodes, fragments).keys(), reference.reads, resolvedFieldsOf(reference.reads.type));
    if (shown) references.push({ column: reference.column, mapping: reference.reads.mapping.narrowed(shown) as TableMapping<unknown> });
  }
  return Object.freeze({ columns: columns && Object.freeze(columns), references: Object.freeze(references) });
}
