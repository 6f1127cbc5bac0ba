import type { Command } from 'commander';
import type { ApiClientRecord } from '../oauth/store.ts';
import { details, iso, print, table, withDeps, withListOptions } from './runtime.ts';

/** A client as the CLI shows it: never its secret, nor the secret's hash. */
const shown = (c: ApiClientRecord) => ({
  id: c.id,
  client_id: c.clientId,
  client_name: c.clientName,
  scope: c.scope,
  organization_id: c.organizationId,
  created_at: iso(c.createdAt)!,
});

/** `adgraph clients` (also `applications`): OAuth 2.0 API clients. */
export function addClientCommands(program: Command): void {
  const clients = program.command('clients').alias('applications').description('OAuth 2.0 API clients (client-credentials grant)');

  clients
    .command('create')
    .description('register a client; prints its secret once (only a bcrypt hash is stored)')
    .requiredOption('--name <name>', 'client name')
    .requiredOption('--scope <scopes>', 'space-separated scopes, e.g. "ads_read pages_read_engagement" (or read, write)')
    .requiredOption('--org <org>', 'organization id or name the client acts for')
    .option('--json', 'print JSON')
    .action(async (options: { name: string; scope: string; org: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { createClient } = await import('../oauth/service.ts');
        const { client, clientSecret } = await createClient(d, { name: options.name, scope: options.scope, organization: options.org });
        const out = { id: client.id, client_id: client.clientId, client_secret: clientSecret, scope: client.scope };
        print(
          !!options.json,
          out,
          `client_id:     ${client.clientId}\nclient_secret: ${clientSecret}\nscope:         ${client.scope}\n(the secret is shown only now)`,
        );
      }),
    );

  withListOptions(clients.command('list').description('list clients in id order (never their secrets)'))
    .option('--org <org>', "only this organization's clients (id or name)")
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; after?: string; org?: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { listClients } = await import('../oauth/service.ts');
        const { items, next } = await listClients(d, options, { organization: options.org });
        const rows = items.map(shown);
        const text = table(
          rows.map((r) => ({ client_id: r.client_id, name: r.client_name, scope: r.scope, organization_id: r.organization_id })),
          next,
          'no clients',
        );
        print(!!options.json, { clients: rows, next }, text);
      }),
    );

  clients
    .command('show')
    .description('a client (never its secret)')
    .argument('<client_id>', 'the client_id')
    .option('--json', 'print JSON')
    .action(async (clientId: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { requireClient } = await import('../oauth/service.ts');
        const client = shown(await requireClient(d, clientId));
        print(
          !!options.json,
          client,
          details([
            ['id', client.id],
            ['client_id', client.client_id],
            ['name', client.client_name],
            ['scope', client.scope],
            ['organization', client.organization_id],
            ['created', client.created_at],
          ]),
        );
      }),
    );

  clients
    .command('delete')
    .description('delete a client; its access tokens stop working at once')
    .argument('<client_id>', 'the client_id to delete')
    .option('--json', 'print JSON')
    .action(async (clientId: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { deleteClient } = await import('../oauth/service.ts');
        const client = await deleteClient(d, clientId);
        print(!!options.json, { id: client.id, client_id: client.clientId, deleted: true }, `deleted ${client.clientId}`);
      }),
    );

  clients
    .command('rotate-secret')
    .description('replace the secret of a client; prints the new one once')
    .argument('<client_id>', 'the client_id whose secret to replace')
    .option('--json', 'print JSON')
    .action(async (clientId: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { rotateClientSecret } = await import('../oauth/service.ts');
        const { client, clientSecret } = await rotateClientSecret(d, clientId);
        print(
          !!options.json,
          { id: client.id, client_id: client.clientId, client_secret: clientSecret },
          `client_id:     ${client.clientId}\nclient_secret: ${clientSecret}\n(the secret is shown only now; the old one no longer works)`,
        );
      }),
    );
}
