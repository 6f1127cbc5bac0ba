import type { Command } from 'commander';
import { details, iso, withListOptions, print, table, withDeps } from './runtime.ts';

/** `adgraph orgs`: organizations. */
export function addOrgCommands(program: Command): void {
  const orgs = program.command('orgs').alias('organizations').description('organizations');

  orgs
    .command('create')
    .description('create an organization')
    .requiredOption('--name <name>', 'organization name')
    .option('--json', 'print JSON')
    .action(async (options: { name: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { createOrganization } = await import('../identity/service.ts');
        const org = await createOrganization(d, options.name);
        print(!!options.json, { id: org.id, name: org.name }, `${org.id}  ${org.name}`);
      }),
    );

  withListOptions(orgs.command('list').description('list organizations in id order'))
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; after?: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { listOrganizations } = await import('../identity/admin.ts');
        const { items, next } = await listOrganizations(d, options);
        const rows = items.map((o) => ({ id: o.id, name: o.name, created_at: iso(o.createdAt)! }));
        print(!!options.json, { organizations: rows, next }, table(rows, next, 'no organizations'));
      }),
    );

  orgs
    .command('show')
    .description('an organization and its members by role')
    .argument('<organization>', 'organization id or name')
    .option('--json', 'print JSON')
    .action(async (organization: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { organizationDetails } = await import('../identity/admin.ts');
        const { organization: o, members } = await organizationDetails(d, organization);
        const out = { id: o.id, name: o.name, created_at: iso(o.createdAt), updated_at: iso(o.updatedAt), members };
        const byRole = Object.entries(members).map(([role, n]) => `${n} ${role}`);
        print(
          !!options.json,
          out,
          details([
            ['id', o.id],
            ['name', o.name],
            ['created', iso(o.createdAt)!],
            ['members', byRole.length ? byRole.join(', ') : 'none'],
          ]),
        );
      }),
    );
}
