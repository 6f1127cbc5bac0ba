import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { checkDatabaseUrl, loadConfig } from '../config/index.ts';
import { addAccountCommands } from './accounts.ts';
import { addAdSetCommands } from './adsets.ts';
import { addClientCommands } from './clients.ts';
import { addDateCommands } from './dates.ts';
import { addDbCommands } from './db.ts';
import { addGroupCommands } from './groups.ts';
import { addKeyCommands } from './keys.ts';
import { addOrgCommands } from './orgs.ts';
import { addPageCommands } from './pages.ts';
import { addAppCommands } from './apps.ts';
import { addReviewCommands } from './review.ts';
import { addUserCommands } from './users.ts';
import { closeDeps, deps, reason, withDeps } from './runtime.ts';
import { addStatsCommands } from '../insights/cli.ts';
import type { RunningServer } from '../server/index.ts';
import type { DemoSummary } from '../../db/seeds/demo.ts';

/**
 * The `adgraph` command line: `serve` here, every other command group in a file of its own beside this one
 * (src/cli/<group>.ts; `stats` in src/insights/cli.ts, the search cluster's `dates` commands in
 * src/dateformats/cli.ts). Every command reads the same environment as the server (or --database-url), says on
 * stderr which database it uses, prints JSON with --json, and on bad input exits non-zero with a one-line reason.
 */

/** package.json's version: the nearest package.json above this module (src/cli/ or, built, dist/src/cli/). */
function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    try {
      return (JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { version: string }).version;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT' || dir.pathname === '/') throw error;
    }
  }
}

function printLoginHelp(url: string, summary: DemoSummary): void {
  const lines = [
    '',
    'Demo data loaded. Every demo user has the password:',
    `  ${summary.password}`,
    '',
    ...summary.users.map((u) => `  ${u.email.padEnd(28)} ${u.role}${u.organization !== '-' && u.organization !== '(all)' ? ` in ${u.organization}` : ''}`),
    '',
    'Sign in (the GraphQL IDE is at the same address):',
    `  curl -s ${url}/api/v2/users/login -H 'content-type: application/json' \\`,
    `    -d '{"email":"ads@northwind.example","password":"${summary.password}"}'`,
    `  or in the IDE: mutation { login(input: {email: "ads@northwind.example", password: "${summary.password}"}) { sessionToken } }`,
    'then send the token as the Service-Session-Token header.',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** --port as the user typed it: checked here, so the error names the flag rather than the PORT it sets. */
function portOption(value: string): string {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535.');
  return value;
}

const program = new Command()
  .name('adgraph')
  .description('GraphQL gateway for advertising identity, ad sets and comments')
  .version(packageVersion(), '-V, --version', 'print the version (package.json)')
  .option('--database-url <url>', 'the database to use instead of DATABASE_URL (sqlite:<path> or postgres://…)')
  // One line on bad usage, like every other failure of the command.
  // Commander words its usage errors "error: ..."; every other failure of the command starts "adgraph: ".
  // Commander puts a suggestion ("(Did you mean --x?)") on a line of its own: joined, so it stays one line.
  .configureOutput({
    outputError: (message, write) =>
      write(
        `${message
          .trimEnd()
          .replace(/^error: /, 'adgraph: ')
          .replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`,
      ),
  })
  .exitOverride()
  // Every command reads the same environment: a bad variable stops any of them before it starts, in one line.
  .hook('preAction', () => {
    const { databaseUrl } = program.opts<{ databaseUrl?: string }>();
    // The server code reads DATABASE_URL; the option only replaces it, checked by the same rule.
    if (databaseUrl !== undefined) process.env.DATABASE_URL = checkDatabaseUrl(databaseUrl, '--database-url');
    loadConfig();
  });

program
  .command('serve')
  .description('serve GraphQL and the REST endpoints; migrates, and loads demo data into an empty database unless SEED_DEMO=false')
  .option('-p, --port <port>', 'port to listen on (default: PORT or 4000)', portOption)
  .action(async (options: { port?: string }) => {
    if (options.port !== undefined) process.env.PORT = options.port;
    const [{ migrateThen }, { databaseLocation }, { isDatabaseEmpty, seedDemo }, { closeOnSignals, startServer }] = await Promise.all([
      import('../db/migrate.ts'),
      import('../db/index.ts'),
      import('../../db/seeds/demo.ts'),
      import('../server/index.ts'),
    ]);
    const d = await deps();
    let summary: DemoSummary | undefined;
    let running: RunningServer;
    try {
      // Under the start-up lock: of instances starting together on an empty database, one seeds it.
      ({ result: summary } = await migrateThen(d.db, async () => (d.config.seedDemo && (await isDatabaseEmpty(d.db)) ? seedDemo(d) : undefined)));
      running = await startServer(d);
    } catch (error) {
      // A server that could not start must not linger: release the database, workers and timers so the
      // process ends once the reason is printed.
      await closeDeps(d).catch(() => undefined);
      throw error;
    }
    closeOnSignals(running, d);
    const publicUrl = running.url.replace('127.0.0.1', 'localhost');
    // Which database it reads, as the other commands say it: a CLI pointed elsewhere shows up at once.
    d.log.info({ url: running.url, database: databaseLocation(d.config.databaseUrl).url, demoDataLoaded: summary !== undefined }, 'adgraph is listening');
    // The banner is for a person at a terminal; anywhere else (a container, a pipe) stdout is JSON log lines only.
    if (process.stdout.isTTY) {
      process.stdout.write(`\nadgraph is serving GraphQL at ${publicUrl}/graphql (open it in a browser for the IDE)\n`);
      if (summary) printLoginHelp(publicUrl, summary);
    }
  });

addDbCommands(program);
addOrgCommands(program);
addUserCommands(program);
addClientCommands(program);
addKeyCommands(program);
addAccountCommands(program);
addAdSetCommands(program);
addPageCommands(program);
addAppCommands(program);
addGroupCommands(program);
addReviewCommands(program);
addDateCommands(program);
// stats import, and the group's other commands (src/insights/cli.ts)
addStatsCommands(program.command('stats').description('statistics of delivery (Insights): import delivery data, generate synthetic delivery'), { withDeps });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed its message (or the help) already.
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`adgraph: ${reason(error)}\n`);
    process.exitCode = 1;
  }
}
