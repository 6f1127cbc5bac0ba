import type { Command } from 'commander';
import { iso, print, table, withDeps, withListOptions } from './runtime.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `adgraph apps`: the applications ad sets may promote. */
export function addAppCommands(program: Command): void {
  const apps = program.command('apps').description('applications ad sets may promote (promoted_object.application_id)');

  apps
    .command('create')
    .description('register an application under its platform id, with its store URLs')
    .requiredOption('--id <id>', 'the platform application id (digits)')
    .requiredOption('--name <name>', 'its name (1 to 255 characters)')
    .requiredOption(
      '--store-url <store=url>',
      'a store and its URL, e.g. google_play=https://play.google.com/store/apps/details?id=...; repeat for each store',
      collect,
    )
    .option('--json', 'print JSON')
    .action(async (options: { id: string; name: string; storeUrl: string[]; json?: boolean }) =>
      withDeps(async (d) => {
        const { createApplication } = await import('../ads/applications.ts');
        const app = await createApplication(d, { id: options.id, name: options.name, storeUrls: options.storeUrl });
        print(!!options.json, { id: app.id, name: app.name, store_urls: app.storeUrls }, `${app.id}  ${app.name}  ${Object.keys(app.storeUrls).join(', ')}`);
      }),
    );

  withListOptions(apps.command('list').description('list the registered applications in id order'))
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; after?: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { listApplications } = await import('../ads/applications.ts');
        const { items, next } = await listApplications(d, options);
        const listed = items.map((a) => ({ id: a.id, name: a.name, store_urls: a.storeUrls, created_at: iso(a.createdAt)! }));
        const rows = listed.map((a) => ({ id: a.id, name: a.name, stores: Object.keys(a.store_urls).join(', ') }));
        print(!!options.json, { applications: listed, next }, table(rows, next, 'no applications'));
      }),
    );
}
