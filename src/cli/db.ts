import type { Command } from 'commander';
import { closeDeps, deps, print, UsageError, withDeps } from './runtime.ts';

/** `db status`: the schema lags behind this build (its pending migrations are listed); 1 stays for failures. */
export const EXIT_PENDING_MIGRATIONS = 3;

/** `adgraph db`: the schema (migrate, status) and the demo data (seed). */
export function addDbCommands(program: Command): void {
  const db = program.command('db').description('database schema and demo data');

  db.command('migrate')
    .description('apply pending migrations')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const d = await deps({ logToStderr: true, announce: true });
      try {
        const { migrateToLatest } = await import('../db/migrate.ts');
        const applied = await migrateToLatest(d.db);
        print(!!options.json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
      } finally {
        await closeDeps(d);
      }
    });

  db.command('status')
    .description(`applied and pending migrations (changes nothing); exits ${EXIT_PENDING_MIGRATIONS} when some are pending`)
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const d = await deps({ logToStderr: true, announce: true });
      try {
        const { migrationStatus } = await import('../db/migrate.ts');
        const { applied, pending } = await migrationStatus(d.db);
        const text = [
          ...applied.map((name) => `applied  ${name}`),
          ...pending.map((name) => `pending  ${name}`),
          pending.length ? `${pending.length} pending: run adgraph db migrate (adgraph serve also applies them)` : 'up to date',
        ];
        print(!!options.json, { applied, pending, up_to_date: pending.length === 0 }, text.join('\n'));
        if (pending.length) process.exitCode = EXIT_PENDING_MIGRATIONS;
      } finally {
        await closeDeps(d);
      }
    });

  db.command('seed')
    .description('load the demo data (only into an empty database)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { isDatabaseEmpty, seedDemo } = await import('../../db/seeds/demo.ts');
        if (!(await isDatabaseEmpty(d.db))) throw new UsageError('the database already has organizations; the demo seed only loads into an empty database');
        const summary = await seedDemo(d);
        print(
          !!options.json,
          summary,
          `demo data loaded: ${summary.users.length} users, ${summary.counts.adSets} ad sets, ${summary.counts.ads} ads (password ${summary.password})`,
        );
      }),
    );
}
