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
  /** Dates bind as each database stores them (knex: milliseconds for SQLite). */
  bindings: Array<string | number | boolean | Date>;
}

type Built = true | false | RawCondition;

const or = (parts: RawCondition[]): RawCondition =>
  parts.length === 1 ? parts[0]! : { sql: parts.map((p) => `(${p.sql})`).join(' or '), bindings: parts.flatMap((p) => p.bindings) };

/**
 * "The dimension is one of `values`". A string dimension names the shorter list, and on a tie the excluded
 * values (`not in`): PostgreSQL has no statistics for a subquery's value and guesses that `in (...)` keeps
 * almost no rows and `not in (...)` almost all. Filters mostly keep most rows (the default keeps all but DELETED
 * and ARCHIVED), and guessing "few" makes it sort a parent's whole list instead of reading its page in index
 * order (25 ms instead of 0.3 ms for a page of a 10,000 ad set account). Both forms are NULL for NULL.
 */
function test(dimension: Dimension, values: Array<string | boolean>): RawCondition {
  if (typeof values[0] === 'boolean') {
    // A boolean dimension's sql is a condition; both values together would be "always", handled by the caller.
    return { sql: values[0] ? dimension.sql : `not ${dimension.sql}`, bindings: [] };
  }
  const excluded = dimension.values.filter((value) => !values.includes(value)) as string[];
  const [operator, listed] = excluded.length <= values.length ? ['not in', excluded] : ['in', values as string[]];
  if (listed.length === 1) return { sql: `${dimension.sql} ${operator === 'in' ? '=' : '<>'} ?`, bindings: listed };
  return { sql: `${dimension.sql} ${operator} (${listed.map(() => '?').join(', ')})`, bindings: listed };
}

function build(
  dimensions: readonly Dimension[],
  index: number,
  assigned: Record<string, string | boolean>,
  predicate: (inputs: Record<string, string | boolean>) => boolean,
): Built {
  if (index === dimensions.length) return predicate(assigned);
  const dimension = dimensions[index]!;
  // Values under which the rest of the condition is the same share one test; "always" comes first.
  const groups = new Map<string, { values: Array<string | boolean>; sub: true | RawCondition }>([['always', { values: [], sub: true }]]);
  for (const value of dimension.values) {
    const sub = build(dimensions, index + 1, { ...assigned, [dimension.name]: value }, predicate);
    if (sub === false) continue;
    const key = sub === true ? 'always' : JSON.stringify([sub.sql, sub.bindings]);
    const group = groups.get(key);
    if (group) group.values.push(value);
    else groups.set(key, { values: [value], sub });
  }
  const kept = [...groups.values()].filter((group) => group.values.length > 0);
  if (kept.length === 0) return false;
  // One rest for every value: this dimension does not matter here.
  if (kept.length === 1 && kept[0]!.values.length === dimension.values.length) return kept[0]!.sub;
  return or(
    kept.map(({ values, sub }) => {
      const head = test(dimension, values);
      return sub === true ? head : { sql: `${head.sql} and (${sub.sql})`, bindings: [...head.bindings, ...sub.bindings] };
    }),
  );
}

/** A condition true exactly for the rows whose inputs satisfy `predicate` (`1 = 1` or `1 = 0` when constant). */
export function conditionFor(dimensions: readonly Dimension[], predicate: (inputs: Record<string, string | boolean>) => boolean): RawCondition {
  const built = build(dimensions, 0, {}, predicate);
  if (built === true) return { sql: '1 = 1', bindings: [] };
  if (built === false) return { sql: '1 = 0', bindings: [] };
  return built;
}
