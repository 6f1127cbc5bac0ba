import { InvalidArgumentError, Option, type Command } from 'commander';
import { ConfigError, loadConfig } from '../config/index.ts';
import { DomainError } from '../errors/index.ts';
import type { AppDeps } from '../context/index.ts';
import type { DatabaseLocation } from '../db/index.ts';

/**
 * What every command of the `adgraph` command line shares: the application's dependencies over the configured
 * database (announced on stderr), the output (text, or JSON with --json), and the one-line failure.
 *
 * Each command imports what it needs when it runs (`await import`), so that --help, `dates convert` and the admin
 * commands start without the server stack (Apollo, Express, the schema), and only commands that use the database
 * load it.
 */

/** A bad option or argument that only the command line can see (the services name their own). */
export class UsageError extends Error {}

/** The database layer, once a command has loaded it: only then can a failure be a database connection error. */
let databaseLayer: typeof import('../db/index.ts') | undefined;
/** The database the command opened, for its JSON output. */
let openedDatabase: DatabaseLocation | undefined;

/**
 * The application's dependencies. `announce`: say on stderr which database the command uses, before it touches
 * it, so that an operator sees at once when it is not the one the server reads (never with a password).
 */
export async function deps(options: { logToStderr?: boolean; announce?: boolean } = {}): Promise<AppDeps> {
  const [{ createAppDeps }, { createLogger }, dbLayer] = await Promise.all([
    import('../context/index.ts'),
    import('../logging/index.ts'),
    import('../db/index.ts'),
  ]);
  databaseLayer = dbLayer;
  const config = loadConfig();
  openedDatabase = dbLayer.databaseLocation(config.databaseUrl);
  if (options.announce) process.stderr.write(`adgraph: database ${openedDatabase.dialect} ${openedDatabase.location}\n`);
  // Commands other than `serve` keep stdout for their output; their logs (warnings only) go to stderr.
  const log = options.logToStderr ? createLogger('warn', process.stderr) : createLogger(config.logLevel);
  return createAppDeps(config, { log });
}

export async function closeDeps(d: AppDeps): Promise<void> {
  const { closeAppDeps } = await import('../context/index.ts');
  await closeAppDeps(d);
}

/** Runs `work` on the migrated database the command names, and releases everything afterwards. */
export async function withDeps<T>(work: (d: AppDeps) => Promise<T>): Promise<T> {
  const d = await deps({ logToStderr: true, announce: true });
  try {
    const { migrateToLatest } = await import('../db/migrate.ts');
    await migrateToLatest(d.db);
    return await work(d);
  } finally {
    await closeDeps(d);
  }
}

/**
 * A command's answer on stdout: `text`, or with --json `value`, to which the output of a command that used the
 * database adds `database` ({dialect, url}, the URL without a password).
 */
export function print(json: boolean, value: object, text: string): void {
  const out = openedDatabase && !Array.isArray(value) ? { ...value, database: { dialect: openedDatabase.dialect, url: openedDatabase.url } } : value;
  process.stdout.write(json ? `${JSON.stringify(out, null, 2)}\n` : `${text}\n`);
}

/** One line, no stack: what went wrong and, for a field, which one. */
export function reason(error: unknown): string {
  if (error instanceof DomainError) return error.field ? `${error.field}: ${error.message}` : error.message;
  if (error instanceof ConfigError || error instanceof UsageError) return error.message;
  if (databaseLayer?.isConnectionError(error)) return `cannot reach the database (${(error as Error).message.split('\n')[0]})`;
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/** Most rows a `list` command prints at once. */
export const MAX_LIST_LIMIT = 1000;

/** Adds `--limit` and `--after` to a `list` command: a page of rows in id order, and where the next one starts. */
export function withListOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--limit <n>', `at most this many (1 to ${MAX_LIST_LIMIT})`).default(100).argParser((value) => {
        if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIST_LIMIT) {
          throw new InvalidArgumentError(`a whole number from 1 to ${MAX_LIST_LIMIT}.`);
        }
        return Number(value);
      }),
    )
    .addOption(new Option('--after <id>', 'start after this id (the "next" of the previous page)'));
}

/** A listing's text: aligned columns under a header, and how to go on when more rows follow. */
export function table(rows: Array<Record<string, string>>, next: string | null, empty: string): string {
  if (rows.length === 0) return empty;
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const body = [line(columns.map((c) => c.toUpperCase())), ...rows.map((row) => line(columns.map((c) => row[c]!)))];
  if (next !== null) body.push(`(more: --after ${next})`);
  return body.join('\n');
}

/** A record's text: one `label: value` line each. */
export function details(fields: Array<[label: string, value: string]>): string {
  const width = Math.max(...fields.map(([label]) => label.length)) + 1;
  return fields.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`).join('\n');
}

export const iso = (date: Date | null) => (date ? date.toISOString() : null);
