/**
 * SQL for SQLite in which an equality with a bound value (`col = ?`) compares with `+?` instead: the same value
 * (unary plus is a no-op on every type, and neither form has an affinity or a collation, so the comparison is
 * the same), the same index search, but a plan that does not depend on the value. This SQLite is built with
 * STAT4, and its planner notes a parameter compared by `=` with an indexed column as one the plan may depend on;
 * binding such a parameter marks the prepared statement stale, so every run prepared it again. A page of ad sets
 * of one account (`account_id = ? order by id limit 26`) ran in 25 µs with `= ?` and 11 µs with `= +?`, the
 * same rows (docs/decisions.md). The LIMIT has the same problem and is written as a number (./sqlite-client.ts).
 *
 * Only what is outside quotes changes: string literals ('…') and quoted names ("…", `…`, […]) are copied as
 * they are. `<=`, `>=`, `!=` and `==` are left alone (`==` is rare, and only `=` is what Knex writes), and so is
 * an equality whose parameter carries a COLLATE.
 */
export function withPlanIndependentEqualities(sql: string): string {
  if (!sql.includes('?')) return sql;
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const char = sql[i]!;
    const closing = char === "'" || char === '"' || char === '`' ? char : char === '[' ? ']' : undefined;
    if (closing) {
      // A quote inside is doubled (''), which this loop reads as the end and the start of another quoted part.
      const end = sql.indexOf(closing, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (char === '=' && !'<>!='.includes(sql[i - 1] ?? '') && sql[i + 1] !== '=') {
      let j = i + 1;
      while (sql[j] === ' ') j++;
      // `? collate x` would become `+(? collate x)`: the collation is left where it was, and the text as it is.
      if (sql[j] === '?' && !/^\s+collate\b/i.test(sql.slice(j + 1, j + 16))) {
        out += `${sql.slice(i, j)}+?`;
        i = j + 1;
        continue;
      }
    }
    out += char;
    i++;
  }
  return out;
}
