/**
 * How a documented answer is compared with the real one. The documentation shows real answers, so values that
 * change from run to run (ids, tokens, times) are compared by their kind, and everything else exactly:
 * - objects have exactly the documented keys;
 * - arrays have the documented length, unless the documented array ends with "…" (then at least the elements shown);
 * - a documented "…" matches any value, and a string ending in "…" any string that starts with what comes before;
 * - inside strings, UUIDs, times, dates, 15-digit object ids, cursors and tokens match any of their kind;
 * - in a `volatile` answer (statistics, which follow the calendar) numbers, and digits in strings, match any.
 */
const KINDS: Array<[RegExp, string]> = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>'],
  [/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)/g, '<time>'],
  [/\d{4}-\d\d-\d\d/g, '<date>'],
  [/\b\d{15}\b/g, '<id>'],
  // Cursors and tokens: base64url runs of 32 or more characters, or of 16 or more with a digit in them.
  [/[\w-]{32,}/g, '<opaque>'],
  [/(?=[\w-]*\d)[\w-]{16,}/g, '<opaque>'],
];

export function normalizeText(text: string, volatile: boolean): string {
  let result = text;
  for (const [pattern, kind] of KINDS) result = result.replace(pattern, kind);
  return volatile ? result.replace(/\d+(\.\d+)?/g, '<n>') : result;
}

/** The differences between a documented answer and the real one, as `path: why` lines (none: they agree). */
export function compareAnswer(documented: unknown, actual: unknown, volatile: boolean, at = '$'): string[] {
  if (documented === '…') return [];
  if (typeof documented === 'string') {
    if (typeof actual !== 'string') return [`${at}: documented a string, got ${JSON.stringify(actual)}`];
    if (documented.endsWith('…')) {
      const prefix = documented.slice(0, -1);
      return actual.startsWith(prefix) || normalizeText(actual, volatile).startsWith(normalizeText(prefix, volatile))
        ? []
        : [`${at}: ${JSON.stringify(actual)} does not start like ${JSON.stringify(prefix)}`];
    }
    return normalizeText(documented, volatile) === normalizeText(actual, volatile)
      ? []
      : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
  }
  if (typeof documented === 'number') {
    if (typeof actual !== 'number') return [`${at}: documented a number, got ${JSON.stringify(actual)}`];
    return volatile || documented === actual ? [] : [`${at}: documented ${documented}, got ${actual}`];
  }
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual)) return [`${at}: documented a list, got ${JSON.stringify(actual)}`];
    const open = documented.at(-1) === '…';
    const shown = open ? documented.slice(0, -1) : documented;
    if (open ? actual.length < shown.length : actual.length !== shown.length) {
      return [`${at}: documented ${shown.length}${open ? ' or more' : ''} elements, got ${actual.length}`];
    }
    return shown.flatMap((element, index) => compareAnswer(element, actual[index], volatile, `${at}[${index}]`));
  }
  if (documented !== null && typeof documented === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: documented an object, got ${JSON.stringify(actual)}`];
    const expectedKeys = Object.keys(documented);
    const actualKeys = Object.keys(actual);
    const problems = [
      ...expectedKeys.filter((key) => !(key in actual)).map((key) => `${at}.${key}: documented, missing from the answer`),
      ...actualKeys.filter((key) => !(key in documented)).map((key) => `${at}.${key}: in the answer, not documented`),
    ];
    return [
      ...problems,
      ...expectedKeys
        .filter((key) => key in actual)
        .flatMap((key) => compareAnswer((documented as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], volatile, `${at}.${key}`)),
    ];
  }
  return Object.is(documented, actual) ? [] : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`];
}

/**
 * Rows in no set order (a listing ordered by random ids): the first line (the header) kept first, the others
 * sorted by what they say once ids and times are set aside, for compareText.
 */
export function sortedRows(text: string): string {
  const [header = '', ...rows] = text.trimEnd().split('\n');
  return [header, ...rows.map((row) => normalizeText(row, false)).sort()].join('\n');
}

/** Text answers (a command's lines): each documented line against the real one, a "…" line matching any lines. */
export function compareText(documented: string, actual: string, volatile: boolean): string[] {
  const expected = documented.trimEnd().split('\n');
  const got = actual.trimEnd().split('\n');
  if (expected.includes('…')) {
    const [head, tail] = [expected.slice(0, expected.indexOf('…')), expected.slice(expected.indexOf('…') + 1)];
    return [
      ...compareText(head.join('\n'), got.slice(0, head.length).join('\n'), volatile),
      ...(tail.length ? compareText(tail.join('\n'), got.slice(-tail.length).join('\n'), volatile) : []),
    ];
  }
  if (expected.length !== got.length) return [`documented ${expected.length} lines, got ${got.length}:\n${actual}`];
  return expected.flatMap((line, index) =>
    normalizeText(line, volatile) === normalizeText(got[index]!, volatile)
      ? []
      : [`line ${index + 1}: documented ${JSON.stringify(line)}, got ${JSON.stringify(got[index])}`],
  );
}
