import type { Command } from 'commander';
import type { PageRecord } from '../comments/store.ts';
import { details, iso, print, table, withDeps, withListOptions } from './runtime.ts';

const shown = (p: PageRecord) => ({ id: p.id, name: p.name, category: p.category, organization_id: p.organizationId, created_time: iso(p.createdTime)! });

/** `adgraph pages`: an organization's pages. */
export function addPageCommands(program: Command): void {
  const pages = program.command('pages').description('pages');

  pages
    .command('create')
    .description('create a page of an organization')
    .requiredOption('--org <org>', 'organization id or name')
    .requiredOption('--name <name>', 'page name (1 to 255 characters)')
    .option('--json', 'print JSON')
    .action(async (options: { org: string; name: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { createPage } = await import('../comments/admin.ts');
        const page = await createPage(d, { organization: options.org, name: options.name });
        print(!!options.json, { id: page.id }, `${page.id}  ${page.name}`);
      }),
    );

  withListOptions(pages.command('list').description('list pages in id order'))
    .option('--org <org>', "only this organization's pages (id or name)")
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; after?: string; org?: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { listPages } = await import('../comments/admin.ts');
        const { items, next } = await listPages(d, options, { organization: options.org });
        const listed = items.map(shown);
        const rows = listed.map((p) => ({ id: p.id, name: p.name, category: p.category ?? '-', organization_id: p.organization_id }));
        print(!!options.json, { pages: listed, next }, table(rows, next, 'no pages'));
      }),
    );

  pages
    .command('show')
    .description('a page')
    .argument('<page_id>', 'the page id')
    .option('--json', 'print JSON')
    .action(async (pageId: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { findPage } = await import('../comments/admin.ts');
        const page = shown(await findPage(d, pageId));
        print(
          !!options.json,
          page,
          details([
            ['id', page.id],
            ['name', page.name],
            ['category', page.category ?? '-'],
            ['organization', page.organization_id],
            ['created', page.created_time],
          ]),
        );
      }),
    );
}
