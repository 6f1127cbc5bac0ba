/**
 * SQL conditions derived from a pure rule over finite inputs. A rule such as "effective status" is a function
 * of a few columns (or subqueries) each with a small domain; the condition "the rule's value is one of these"
 * is built by enumerating the domains, so the SQL and the function cannot disagree. The result is compact:
 * values for which the rest no longer matters become one `in (...)`.
 */
export interface Dimension {
  name: string;
  /** A SQL expression of the enclosing query (a column, or a correlated subquery), or for booleans a condition. */
  sql: string;
  values: readonly (string | boolean)[];
}

export interface RawCondition {
  sql: string;
  bindings: Array<string | number | boolean>;
}

type Built = true | false | RawCondition;

const or = (parts: RawCondition[]): RawCondition =>
  parts.length === 1 ? parts[0]! : { sql: parts.map((p) => `(${p.sql})`).join(' or '), bindings: parts.flatMap((p) => p.bindings) };

function test(dimension: Dimension, values: Array<string | boolean>): RawCondition {
  if (typeof values[0] === 'boolean') {
    // A boolean dimension's sql is a condition; both values together would be "always", handled by the caller.
    return { sql: values[0] ? dimension.sql : `not ${dimension.sql}`, bindings: [] };
  }
  if (values.length === 1) return { sql: `${dimension.sql} = ?`, bindings: [values[0] as string] };
  return { sql: `${dimension.sql} in (${values.map(() => '?').join(', ')})`, bindings: values as string[] };
}

function build(dimensions: readonly Dimension[], index: number, assigned: Record<string, string | boolean>, predicate: (inputs: Record<string, string | boolean>) => boolean): Built {
  if (index === dimensions.length) return predicate(assigned);
  const dimension = dimensions[index]!;
  const subs = dimension.values.map((value) => ({ value, sub: build(dimensions, index + 1, { ...assigned, [dimension.name]: value }, predicate) }));
  if (subs.every((s) => s.sub === true)) return true;
  if (subs.every((s) => s.sub === false)) return false;
  const parts: RawCondition[] = [];
  const always = subs.filter((s) => s.sub === true).map((s) => s.value);
  if (always.length > 0) parts.push(test(dimension, always));
  for (const { value, sub } of subs) {
    if (typeof sub !== 'object') continue;
    const head = test(dimension, [value]);
    parts.push({ sql: `${head.sql} and (${sub.sql})`, bindings: [...head.bindings, ...sub.bindings] });
  }
  return or(parts);
}

/** A condition true exactly for the rows whose inputs satisfy `predicate` (`1 = 1` or `1 = 0` when constant). */
export function conditionFor(dimensions: readonly Dimension[], predicate: (inputs: Record<string, string | boolean>) => boolean): RawCondition {
  const built = build(dimensions, 0, {}, predicate);
  if (built === true) return { sql: '1 = 1', bindings: [] };
  if (built === false) return { sql: '1 = 0', bindings: [] };
  return built;
}
