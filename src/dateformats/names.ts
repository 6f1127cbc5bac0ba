/**
 * Elasticsearch's rules for index and alias names (`MetadataCreateIndexService.validateIndexOrAliasName`, with
 * `validateIndexName`'s lower case for indices), checked before a name the caller gave goes into a request path: a
 * name the cluster would refuse is refused here, in its words, and `.` or `..` never reaches a URL, where it would
 * be a dot segment that takes the path somewhere else (`GET /_alias/..` is `GET /`).
 *
 * - `new-index`: an index the migration creates (`--new-index`): every rule.
 * - `alias`: an alias it creates or moves (`--alias`): every rule but lower case (aliases may have upper case).
 * - `existing`: an index or an alias it reads (`--index`): every rule that held when the index was made, so neither
 *   lower case (it may be an alias) nor `:` (6.x allowed it, and a 7.x cluster keeps such indices).
 */
export type NameUse = 'new-index' | 'alias' | 'existing';

const MAX_NAME_BYTES = 255;
/** Strings.INVALID_FILENAME_CHARS, as Elasticsearch lists them in its message. */
const INVALID_CHARACTERS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

/** What is wrong with `name` for `use`, in Elasticsearch's words, or undefined when it may be used. */
export function nameProblem(name: string, use: NameUse): string | undefined {
  if (name === '') return 'must not be empty';
  if (INVALID_CHARACTERS.some((character) => name.includes(character))) {
    return `must not contain the following characters [${INVALID_CHARACTERS.map((c) => `'${c}'`).join(', ')}]`;
  }
  if (name.includes('#')) return "must not contain '#'";
  if (use !== 'existing' && name.includes(':')) return "must not contain ':'";
  if (/^[_\-+]/.test(name)) return "must not start with '_', '-', or '+'";
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > MAX_NAME_BYTES) return `is too long (${bytes} > ${MAX_NAME_BYTES} bytes)`;
  if (name === '.' || name === '..') return "must not be '.' or '..'";
  if (use === 'new-index' && name.toLowerCase() !== name) return 'must be lowercase';
  return undefined;
}

/** The names of a migration's options, each with what it may be. */
const MIGRATION_NAMES = [
  { option: 'index', use: 'existing' },
  { option: 'alias', use: 'alias' },
  { option: 'newIndex', use: 'new-index' },
] as const satisfies ReadonlyArray<{ option: string; use: NameUse }>;

const KIND: Record<NameUse, string> = { 'new-index': 'index', alias: 'alias', existing: 'index or alias' };

/** The first name of a migration's options that Elasticsearch would refuse: the option and why. */
export function migrationNameProblem(options: { index: string; alias?: string; newIndex?: string }): { option: string; problem: string } | undefined {
  for (const { option, use } of MIGRATION_NAMES) {
    const name = options[option];
    if (name === undefined) continue;
    const problem = nameProblem(name, use);
    if (problem) return { option, problem: `invalid ${KIND[use]} name [${name}], ${problem}` };
  }
  return undefined;
}
