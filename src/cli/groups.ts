import type { Command } from 'commander';
import type { GroupRecord } from '../comments/store.ts';
import { details, iso, print, table, withDeps, withListOptions } from './runtime.ts';

const shown = (g: GroupRecord) => ({ id: g.id, name: g.name, organization_id: g.organizationId, created_time: iso(g.createdTime)! });

/** `adgraph groups`: the groups an organization runs, which comment mentions name. */
export function addGroupCommands(program: Command): void {
  const groups = program.command('groups').description('groups (names that comment mentions resolve to)');

  groups
    .command('create')
    .description('create a group an organization runs')
    .requiredOption('--org <org>', 'organization id or name')
    .requiredOption('--name <name>', 'group name (1 to 255 characters)')
    .option('--json', 'print JSON')
    .action(async (options: { org: string; name: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { createGroup } = await import('../comments/admin.ts');
        const group = await createGroup(d, { organization: options.org, name: options.name });
        print(!!options.json, { id: group.id }, `${group.id}  ${group.name}`);
      }),
    );

  withListOptions(groups.command('list').description('list groups in id order'))
    .option('--org <org>', "only this organization's groups (id or name)")
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; after?: string; org?: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { listGroups } = await import('../comments/admin.ts');
        const { items, next } = await listGroups(d, options, { organization: options.org });
        const listed = items.map(shown);
        const rows = listed.map((g) => ({ id: g.id, name: g.name, organization_id: g.organization_id }));
        print(!!options.json, { groups: listed, next }, table(rows, next, 'no groups'));
      }),
    );

  groups
    .command('show')
    .description('a group')
    .argument('<group_id>', 'the group id')
    .option('--json', 'print JSON')
    .action(async (groupId: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { findGroup } = await import('../comments/admin.ts');
        const group = shown(await findGroup(d, groupId));
        print(
          !!options.json,
          group,
          details([
            ['id', group.id],
            ['name', group.name],
            ['organization', group.organization_id],
            ['created', group.created_time],
          ]),
        );
      }),
    );
}
