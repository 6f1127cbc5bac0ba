import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError, loadConfig } from '../config/index.ts';
import { DomainError } from '../errors/index.ts';
import { CURRENCY_CODES } from '../ads/rules/currencies.ts';
import { FLAG_REASONS } from '../ads/rules/enums.ts';
import { addDateClusterCommands } from '../dateformats/cli.ts';
import { addStatsCommands } from '../insights/cli.ts';
import type { AppDeps } from '../context/index.ts';
import type { RunningServer } from '../server/index.ts';
import type { DemoSummary } from '../../db/seeds/demo.ts';

/**
 * The `adgraph` command line. Every command reads the same environment as the server, prints JSON with
 * --json, and on bad input exits non-zero with a one-line reason.
 */
class UsageError extends Error {}

/** `dates convert`: some part has no java.time equivalent (bad input exits 1). */
const EXIT_UNSUPPORTED = 3;

/*
 * Each command imports what it needs when it runs (`await import`), so that --help, `dates convert` and the admin
 * commands start without the server stack (Apollo, Express, the schema), and only commands that use the database
 * load it.
 */

/** The database layer, once a command has loaded it: only then can a failure be a database connection error. */
let database: typeof import('../db/index.ts') | undefined;

async function deps(options: { logToStderr?: boolean } = {}): Promise<AppDeps> {
  const [{ createAppDeps }, { createLogger }, dbLayer] = await Promise.all([
    import('../context/index.ts'),
    import('../logging/index.ts'),
    import('../db/index.ts'),
  ]);
  database = dbLayer;
  const config = loadConfig();
  // Commands other than `serve` keep stdout for their output; their logs (warnings only) go to stderr.
  const log = options.logToStderr ? createLogger('warn', process.stderr) : createLogger(config.logLevel);
  return createAppDeps(config, { log });
}

async function closeDeps(d: AppDeps): Promise<void> {
  const { closeAppDeps } = await import('../context/index.ts');
  await closeAppDeps(d);
}

async function withDeps<T>(work: (d: AppDeps) => Promise<T>): Promise<T> {
  const d = await deps({ logToStderr: true });
  try {
    const { migrateToLatest } = await import('../db/migrate.ts');
    await migrateToLatest(d.db);
    return await work(d);
  } finally {
    await closeDeps(d);
  }
}

function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
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
  // One line on bad usage, like every other failure of the command.
  // Commander words its usage errors "error: ..."; every other failure of the command starts "adgraph: ".
  .configureOutput({ outputError: (message, write) => write(`${message.trimEnd().replace(/^error: /, 'adgraph: ')} (run with --help for usage)\n`) })
  .exitOverride()
  // Every command reads the same environment: a bad variable stops any of them before it starts, in one line.
  .hook('preAction', () => void loadConfig());

program
  .command('serve')
  .description('serve GraphQL and the REST endpoints; migrates, and loads demo data into an empty database unless SEED_DEMO=false')
  .option('-p, --port <port>', 'port to listen on (default: PORT or 4000)', portOption)
  .action(async (options: { port?: string }) => {
    if (options.port !== undefined) process.env.PORT = options.port;
    const [{ migrateThen }, { isDatabaseEmpty, seedDemo }, { closeOnSignals, startServer }] = await Promise.all([
      import('../db/migrate.ts'),
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
    d.log.info({ url: running.url, demoDataLoaded: summary !== undefined }, 'adgraph is listening');
    // The banner is for a person at a terminal; anywhere else (a container, a pipe) stdout is JSON log lines only.
    if (process.stdout.isTTY) {
      process.stdout.write(`\nadgraph is serving GraphQL at ${publicUrl}/graphql (open it in a browser for the IDE)\n`);
      if (summary) printLoginHelp(publicUrl, summary);
    }
  });

const db = program.command('db').description('database schema and demo data');
db.command('migrate')
  .description('apply pending migrations')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) => {
    const d = await deps({ logToStderr: true });
    try {
      const { migrateToLatest } = await import('../db/migrate.ts');
      const applied = await migrateToLatest(d.db);
      print(!!options.json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
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

program
  .command('orgs')
  .description('organizations')
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

program
  .command('users')
  .description('users')
  .command('create')
  .description('create a user, optionally a member of an organization')
  .requiredOption('--email <email>', 'e-mail address (unique, case-insensitive)')
  .requiredOption('--password <password>', 'password (at most 64 characters, strong enough)')
  .option('--name <name>', 'display name')
  .option('--username <username>', 'username (default: from the e-mail address)')
  .option('--org <org>', 'organization id or name')
  .addOption(new Option('--role <role>', 'role in --org').choices(['owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member']))
  .option('--site-admin', 'allow everything everywhere')
  .option('--json', 'print JSON')
  .action(
    async (options: { email: string; password: string; name?: string; username?: string; org?: string; role?: string; siteAdmin?: boolean; json?: boolean }) =>
      withDeps(async (d) => {
        const { createUser } = await import('../identity/service.ts');
        const { user } = await createUser(d, {
          email: options.email,
          password: options.password,
          name: options.name,
          username: options.username,
          organization: options.org,
          role: options.role,
          siteAdmin: options.siteAdmin,
        });
        print(!!options.json, { id: user.id, email: user.email, username: user.username }, `${user.id}  ${user.email}  ${user.username}`);
      }),
  );

const clients = program.command('clients').description('OAuth 2.0 API clients (client-credentials grant)');
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
clients
  .command('list')
  .description('list clients (never their secrets)')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) =>
    withDeps(async (d) => {
      const { listAllClients } = await import('../oauth/service.ts');
      const all = await listAllClients(d);
      const rows = all.map((c) => ({
        id: c.id,
        client_id: c.clientId,
        client_name: c.clientName,
        scope: c.scope,
        organization_id: c.organizationId,
        created_at: c.createdAt.toISOString(),
      }));
      print(!!options.json, rows, rows.length ? rows.map((r) => `${r.client_id}  ${r.client_name}  [${r.scope}]`).join('\n') : 'no clients');
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

program
  .command('keys')
  .description('token signing keys')
  .command('rotate')
  .description('make a new active signing key; the old one stays published until its tokens have expired')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) =>
    withDeps(async (d) => {
      const { rotateKeys } = await import('../oauth/keys.ts');
      const { kid, retired } = await rotateKeys(d.db, d.config);
      print(
        !!options.json,
        { kid, retired },
        `active key: ${kid}${retired.length ? `\nretired (published until their tokens expire): ${retired.join(', ')}` : ''}`,
      );
    }),
  );

const accounts = program.command('accounts').description('ad accounts');
accounts
  .command('create')
  .description('create an active ad account (time zone Etc/UTC, nothing spent, no spend cap)')
  .requiredOption('--org <org>', 'organization id or name')
  .requiredOption('--name <name>', 'account name (1 to 255 characters)')
  .requiredOption('--currency <currency>', `ISO 4217 code in upper case, one of ${CURRENCY_CODES.join(', ')}`)
  .requiredOption('--country <country>', 'business country, ISO 3166-1 alpha-2 in upper case (e.g. US, DE)')
  .option('--bulk', 'a bulk account (10,000 ad sets instead of 5,000)')
  .option('--default-dsa-payor <payor>', 'who pays for ads reaching the EU (DSA), at most 512 characters')
  .option('--default-dsa-beneficiary <beneficiary>', 'who benefits from ads reaching the EU (DSA), at most 512 characters')
  .option('--json', 'print JSON')
  .action(
    async (options: {
      org: string;
      name: string;
      currency: string;
      country: string;
      bulk?: boolean;
      defaultDsaPayor?: string;
      defaultDsaBeneficiary?: string;
      json?: boolean;
    }) =>
      withDeps(async (d) => {
        const { createAdAccount } = await import('../ads/admin.ts');
        const account = await createAdAccount(d, {
          organization: options.org,
          name: options.name,
          currency: options.currency,
          country: options.country,
          isBulk: options.bulk,
          defaultDsaPayor: options.defaultDsaPayor,
          defaultDsaBeneficiary: options.defaultDsaBeneficiary,
        });
        print(!!options.json, { id: account.id }, `${account.id}  ${account.name}  ${account.currency} ${account.country}${account.isBulk ? '  bulk' : ''}`);
      }),
  );

accounts
  .command('update')
  .description('change what the ad set rules read from an account: bulk (10,000 ad sets) and the DSA defaults')
  .argument('<account_id>', 'the ad account id (act_<id> or <id>)')
  .option('--bulk', 'make it a bulk account (10,000 ad sets)')
  .option('--no-bulk', 'make it a regular account (5,000 ad sets)')
  .option('--default-dsa-payor <payor>', 'who pays for ads reaching the EU, at most 512 characters')
  .option('--default-dsa-beneficiary <beneficiary>', 'who benefits from ads reaching the EU, at most 512 characters')
  .addOption(new Option('--clear-default-dsa-payor', 'remove the default payor').conflicts('defaultDsaPayor'))
  .addOption(new Option('--clear-default-dsa-beneficiary', 'remove the default beneficiary').conflicts('defaultDsaBeneficiary'))
  .option('--json', 'print JSON')
  .action(
    async (
      accountId: string,
      options: {
        bulk?: boolean;
        defaultDsaPayor?: string;
        defaultDsaBeneficiary?: string;
        clearDefaultDsaPayor?: boolean;
        clearDefaultDsaBeneficiary?: boolean;
        json?: boolean;
      },
    ) =>
      withDeps(async (d) => {
        const { updateAdAccount } = await import('../ads/admin.ts');
        const account = await updateAdAccount(d, {
          id: accountId,
          isBulk: options.bulk,
          defaultDsaPayor: options.clearDefaultDsaPayor ? null : options.defaultDsaPayor,
          defaultDsaBeneficiary: options.clearDefaultDsaBeneficiary ? null : options.defaultDsaBeneficiary,
        });
        print(
          !!options.json,
          { id: account.id, is_bulk: account.isBulk, default_dsa_payor: account.defaultDsaPayor, default_dsa_beneficiary: account.defaultDsaBeneficiary },
          `${account.id}  ${account.isBulk ? 'bulk' : 'regular'}  payor: ${account.defaultDsaPayor ?? '-'}  beneficiary: ${account.defaultDsaBeneficiary ?? '-'}`,
        );
      }),
  );

program
  .command('adsets')
  .description('ad sets (test set-up)')
  .command('fill')
  .description('add N paused ad sets to a campaign in one transaction, to bring an account to (or near) its ad set limit')
  .requiredOption('--campaign <campaign_id>', 'the campaign to fill')
  .requiredOption('--count <n>', 'how many ad sets (1 to 20000)')
  .option('--json', 'print JSON')
  .action(async (options: { campaign: string; count: string; json?: boolean }) => {
    if (!/^\d+$/.test(options.count)) throw new UsageError(`count: "${options.count}" is not a whole number`);
    await withDeps(async (d) => {
      const { fillAdSets } = await import('../ads/admin.ts');
      const result = await fillAdSets(d, { campaign: options.campaign, count: Number(options.count) });
      print(
        !!options.json,
        { campaign_id: result.campaignId, created: result.created.length, live_ad_sets: result.liveAdSets, limit: result.limit },
        `${result.created.length} ad sets added to campaign ${result.campaignId}: the account has ${result.liveAdSets} of ${result.limit}`,
      );
    });
  });

program
  .command('pages')
  .description('pages')
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

program
  .command('groups')
  .description('groups (names that comment mentions resolve to)')
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

/** --reason R sets the review flag, --clear removes it; exactly one of them. */
function flagReason(options: { reason?: string; clear?: boolean }): string | null {
  if (options.clear) return null;
  if (options.reason === undefined) throw new UsageError(`reason: give --reason (${FLAG_REASONS.join(' or ')}), or --clear to remove the flag`);
  return options.reason;
}

const reasonOption = () => new Option('--reason <reason>', 'why the review restricts it').choices(FLAG_REASONS);
const clearOption = () => new Option('--clear', 'remove the flag (the review was reversed)').conflicts('reason');

program
  .command('audiences')
  .description('custom audiences')
  .command('flag')
  .description("the platform's review decision on a custom audience; lookalikes made from it get operation_status 471 (--clear undoes both)")
  .argument('<audience_id>', 'the custom audience id')
  .addOption(reasonOption())
  .addOption(clearOption())
  .option('--json', 'print JSON')
  .action(async (audienceId: string, options: { reason?: string; clear?: boolean; json?: boolean }) => {
    const reason = flagReason(options);
    await withDeps(async (d) => {
      const { flagAudience } = await import('../ads/admin.ts');
      const { record, lookalikes } = await flagAudience(d, { id: audienceId, reason });
      const out = {
        id: record.id,
        flagged_reason: record.flaggedReason,
        lookalikes: lookalikes.map((l) => ({ id: l.id, operation_status: { code: l.operationStatusCode, description: l.operationStatusDescription } })),
      };
      const text = [
        `${record.id}  ${record.flaggedReason ? `flagged: ${record.flaggedReason}` : 'flag cleared'}`,
        ...lookalikes.map(
          (l) => `  lookalike ${l.id}: operation_status ${l.operationStatusCode}${l.operationStatusDescription ? ` (${l.operationStatusDescription})` : ''}`,
        ),
      ];
      print(!!options.json, out, text.join('\n'));
    });
  });

program
  .command('conversions')
  .description('custom conversions')
  .command('flag')
  .description("the platform's review decision on a custom conversion (--clear undoes it)")
  .argument('<conversion_id>', 'the custom conversion id')
  .addOption(reasonOption())
  .addOption(clearOption())
  .option('--json', 'print JSON')
  .action(async (conversionId: string, options: { reason?: string; clear?: boolean; json?: boolean }) => {
    const reason = flagReason(options);
    await withDeps(async (d) => {
      const { flagConversion } = await import('../ads/admin.ts');
      const conversion = await flagConversion(d, { id: conversionId, reason });
      print(
        !!options.json,
        { id: conversion.id, flagged_reason: conversion.flaggedReason },
        `${conversion.id}  ${conversion.flaggedReason ? `flagged: ${conversion.flaggedReason}` : 'flag cleared'}`,
      );
    });
  });

const dates = program.command('dates').description('legacy (Joda-Time) custom date formats of search-engine date fields');
dates
  .command('convert')
  .description('convert a legacy date format (patterns joined with ||) to java.time, with every change and finding')
  .argument('<format>', 'the legacy format, e.g. "yyyy-MM-dd HH:mm:ss||epoch_millis"')
  .option('--lenient', 'also accept what else Joda accepted (2010-1-5, 13:5:7, the year 194, January under MMM), adding alternatives up to a cap')
  .option('--json', 'print JSON')
  .addHelpText(
    'after',
    `
Exit status: 0 converted (read any review finding), ${EXIT_UNSUPPORTED} no java.time equivalent for some part (no
output: the first line says so, and --json prints "output": null), 1 bad input.`,
  )
  .action(async (format: string, options: { lenient?: boolean; json?: boolean }) => {
    const { convertFormat, describeConversion } = await import('../dateformats/convert.ts');
    const conversion = convertFormat(format, { lenient: !!options.lenient });
    print(!!options.json, conversion, describeConversion(conversion));
    // A distinct status, so that a script never takes an unsupported conversion for a usable one.
    if (!conversion.usable) process.exitCode = EXIT_UNSUPPORTED;
  });
// dates scan, dates migrate (src/dateformats/cli.ts)
addDateClusterCommands(dates);

// stats import, and the group's other commands (src/insights/cli.ts)
addStatsCommands(program.command('stats').description('statistics of delivery (Insights): import delivery data, generate synthetic delivery'), { withDeps });

/** One line, no stack: what went wrong and, for a field, which one. */
function reason(error: unknown): string {
  if (error instanceof DomainError) return error.field ? `${error.field}: ${error.message}` : error.message;
  if (error instanceof ConfigError || error instanceof UsageError) return error.message;
  if (database?.isConnectionError(error)) return `cannot reach the database (${(error as Error).message.split('\n')[0]})`;
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

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
