import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { TestDatabase } from './database.ts';

/**
 * The `adgraph` command line as an operator runs it: a child process over a test database (a SQLite file,
 * or a PostgreSQL schema reached through PGOPTIONS, which node-postgres reads like libpq does).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Node's arguments that start the CLI as operators start it, from the package root: the bin, which runs the build
 * in dist/ (test/global-setup.ts builds it again before the tests when a source is newer, and the bin refuses a
 * stale one). Through tsx each start took half a second more, a third of the command-line tests' time.
 */
export const CLI_ARGS = ['bin/adgraph.js'];

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function cliEnv(database: Pick<TestDatabase, 'url' | 'schema'>, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, BCRYPT_COST: '4', LOG_LEVEL: 'warn', ...extra };
  delete env.PGOPTIONS;
  delete env.NODE_OPTIONS;
  if (database.schema) env.PGOPTIONS = `-c search_path=${database.schema}`;
  return env;
}

/** Runs the CLI; `input` is written to its standard input (which is closed either way, as under a pipe). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { input?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [...CLI_ARGS, ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && (error.killed || error.signal)) return reject(new Error(`adgraph ${args.join(' ')} was killed (${error.signal}): ${stderr}`));
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(options.input);
  });
}

/**
 * Runs the CLI with --json and returns its parsed output; fails the test on a non-zero exit. The `database` member
 * a command that used the database adds must name the database of `env`; it is checked here and left out of
 * `value`, so tests compare what the command is about (test/cli.test.ts checks the member itself).
 */
export async function cliJson<T = any>(args: string[], env: NodeJS.ProcessEnv): Promise<{ value: T; run: CliRun }> {
  const run = await runCli([...args, '--json'], env);
  expect(run.code, `adgraph ${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);
  const value = JSON.parse(run.stdout) as T;
  if (value !== null && typeof value === 'object' && 'database' in value) {
    const { database, ...rest } = value as Record<string, unknown>;
    expect(database).toEqual(databaseMember({ url: env.DATABASE_URL! }));
    return { value: rest as T, run };
  }
  return { value, run };
}

/** The non-blank lines of an output. */
export const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** The `database` member of a command's JSON output over `database`: its dialect and URL (the tests' have no password). */
export const databaseMember = (database: Pick<TestDatabase, 'url'>) => ({
  dialect: database.url.startsWith('sqlite:') ? 'sqlite' : 'postgres',
  url: database.url,
});

/** The line a command that uses the database prints on stderr first, saying which one. */
export const DATABASE_LINE = /^adgraph: database (sqlite|postgres) \S+$/;

/** What a command said on stderr besides which database it used. */
export const stderrBesidesDatabase = (stderr: string) => lines(stderr).filter((line) => !DATABASE_LINE.test(line));

/**
 * A failure the way the spec wants it: non-zero, one line on stderr that names the problem (after the line naming
 * the database, for a command that had opened it), nothing on stdout.
 */
export function expectOneLineFailure(result: CliRun, mentions: RegExp): void {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).not.toBe(0);
  const failure = stderrBesidesDatabase(result.stderr);
  expect(failure, result.stderr).toHaveLength(1);
  expect(failure[0]).toMatch(mentions);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout).toBe('');
}
