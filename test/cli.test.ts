import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { cliEnv, databaseMember, expectOneLineFailure, runCli as run } from './helpers/cli.ts';
import { loadConfig } from '../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../src/context/index.ts';
import { createLogger } from '../src/logging/index.ts';
import { createOrganization, createUser } from '../src/identity/service.ts';
import { createClient } from '../src/oauth/service.ts';

// The `adgraph` command line as an operator runs it (see helpers/cli.ts). Every test sets up what it needs
// (the migrated database with the organization Acme, made in-process before the tests, or a database of its
// own), so each one runs alone.
const STRONG_PASSWORD = 'Correct-Horse-9-Battery';

/** The services over a test database, to build what a test needs the way the application would. */
function servicesOver(database: TestDatabase): AppDeps {
  const config = loadConfig({ DATABASE_URL: database.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent' });
  return createAppDeps(config, { db: database.db, log: createLogger('silent') });
}

/** Releases what servicesOver opened, leaving the database to its own dispose(). */
async function release(deps: AppDeps): Promise<void> {
  deps.mailer.close();
  await deps.rateLimits.close();
  await deps.passwords.close();
}

describe('adgraph CLI', () => {
  let database: TestDatabase;
  let deps: AppDeps;
  let env: NodeJS.ProcessEnv;
  let acmeId: string;
  /** Databases of single tests, disposed at the end. */
  const own: TestDatabase[] = [];
  const ownDatabase = async (options: { migrate?: boolean } = {}) => {
    const made = await createTestDatabase(options);
    own.push(made);
    return made;
  };
  const countUsers = async (email: string) =>
    Number((await database.db('users').whereRaw('lower(email) = ?', [email.toLowerCase()]).count({ n: '*' }).first())?.n ?? 0);

  beforeAll(async () => {
    database = await createTestDatabase();
    deps = servicesOver(database);
    env = cliEnv(database);
    acmeId = (await createOrganization(deps, 'Acme')).id;
  });
  afterAll(async () => {
    if (deps) await release(deps);
    await database?.dispose();
    for (const made of own) await made.dispose();
  });

  it('prints help for the root and for a subcommand', async () => {
    const root = await run(['--help'], env);
    expect(root.code).toBe(0);
    for (const command of ['serve', 'db', 'orgs', 'users', 'clients']) expect(root.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));

    const sub = await run(['users', 'create', '--help'], env);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('Usage: adgraph users create');
    for (const option of ['--email', '--password', '--org', '--role', '--site-admin', '--json']) expect(sub.stdout).toContain(option);
  });

  it('db migrate --json applies every migration once', async () => {
    const empty = await ownDatabase({ migrate: false });
    const env = cliEnv(empty);
    const first = await run(['db', 'migrate', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const applied = JSON.parse(first.stdout).applied as string[];
    expect(applied.length).toBeGreaterThanOrEqual(4);
    expect(applied.some((name) => name.endsWith('_identity'))).toBe(true);
    // The tables are there, in the database (or schema) the test reads.
    expect(await empty.db.schema.hasTable('users')).toBe(true);

    const again = await run(['db', 'migrate', '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ applied: [], database: databaseMember(empty) });
  });

  it('orgs create --json prints {id, name}', async () => {
    const result = await run(['orgs', 'create', '--name', 'Initech', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const org = JSON.parse(result.stdout);
    expect(Object.keys(org).sort()).toEqual(['database', 'id', 'name']);
    expect(org.database).toEqual(databaseMember(database));
    expect(org.name).toBe('Initech');
    expect(await database.db('organizations').where({ id: org.id }).first()).toMatchObject({ name: 'Initech' });
  });

  it('users create --json prints {id, email, username} and stores only a bcrypt hash', async () => {
    const result = await run(
      ['users', 'create', '--email', 'Ada@Example.com', '--password', STRONG_PASSWORD, '--org', 'Acme', '--role', 'advertiser', '--json'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed).sort()).toEqual(['database', 'email', 'id', 'username']);
    expect(printed.email).toBe('Ada@Example.com');
    expect(printed.username).toBe('Ada');
    expect(result.stdout).not.toContain(STRONG_PASSWORD);

    const row = await database.db('users').where({ id: printed.id }).first();
    expect(row.email).toBe('Ada@Example.com');
    expect(row.hashed_password).not.toBe(STRONG_PASSWORD);
    expect(row.hashed_password).toMatch(/^\$2[aby]\$04\$/);
    expect(await bcrypt.compare(STRONG_PASSWORD, row.hashed_password)).toBe(true);
    const membership = await database.db('organization_members').where({ user_id: printed.id }).first();
    expect(membership).toMatchObject({ organization_id: acmeId, role: 'advertiser' });
  });

  describe('users create refuses bad input with one line and writes nothing', () => {
    const cases: Array<{ name: string; email: string; args: string[]; mentions: RegExp; existing?: string }> = [
      { name: 'a weak password', email: 'weak@example.com', args: ['--password', 'password1'], mentions: /password.*weak/i },
      { name: 'a bad e-mail', email: 'not-an-email', args: ['--password', STRONG_PASSWORD], mentions: /e-?mail/i },
      {
        name: 'an unknown organization',
        email: 'nobody@example.com',
        args: ['--password', STRONG_PASSWORD, '--org', 'Globex', '--role', 'admin'],
        mentions: /org.*Globex/i,
      },
      {
        name: 'an unknown role',
        email: 'role@example.com',
        args: ['--password', STRONG_PASSWORD, '--org', 'Acme', '--role', 'emperor'],
        mentions: /role.*emperor|emperor.*role/i,
      },
      {
        name: 'a duplicate e-mail in another case',
        email: 'grace@EXAMPLE.COM',
        args: ['--password', STRONG_PASSWORD, '--username', 'grace-two'],
        mentions: /e-?mail.*already exists/i,
        existing: 'Grace@example.com',
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        if (c.existing) await createUser(deps, { email: c.existing, password: STRONG_PASSWORD });
        const membersBefore = Number((await database.db('organization_members').count({ n: '*' }).first())?.n);
        const result = await run(['users', 'create', '--email', c.email, ...c.args, '--json'], env);
        expectOneLineFailure(result, c.mentions);
        expect(await countUsers(c.email)).toBe(c.existing ? 1 : 0);
        expect(Number((await database.db('organization_members').count({ n: '*' }).first())?.n)).toBe(membersBefore);
      });
    }
  });

  it('clients create --json prints the secret once and stores only its bcrypt hash', async () => {
    const result = await run(['clients', 'create', '--name', 'x', '--scope', 'ads_read', '--org', 'Acme', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const client = JSON.parse(result.stdout) as { id: string; client_id: string; client_secret: string; scope: string };
    expect(Object.keys(client).sort()).toEqual(['client_id', 'client_secret', 'database', 'id', 'scope']);
    expect(client.scope).toBe('ads_read');
    expect(client.client_secret.length).toBeGreaterThanOrEqual(32);

    const row = await database.db('api_clients').where({ client_id: client.client_id }).first();
    expect(String(row.id)).toBe(String(client.id));
    expect(row.organization_id).toBe(acmeId);
    expect(row.client_secret).not.toBe(client.client_secret);
    expect(row.client_secret).toMatch(/^\$2[aby]\$\d\d\$/);
    expect(await bcrypt.compare(client.client_secret, row.client_secret)).toBe(true);
    expect(await bcrypt.compare(`${client.client_secret}x`, row.client_secret)).toBe(false);
  });

  it('clients list --json lists the client without any secret or hash', async () => {
    // A database holding exactly one client.
    const single = await ownDatabase();
    const singleDeps = servicesOver(single);
    let made: Awaited<ReturnType<typeof createClient>>;
    let orgId: string;
    try {
      orgId = (await createOrganization(singleDeps, 'Solo')).id;
      made = await createClient(singleDeps, { name: 'x', scope: 'ads_read', organization: orgId });
    } finally {
      await release(singleDeps);
    }
    const result = await run(['clients', 'list', '--json'], cliEnv(single));
    expect(result.code, result.stderr).toBe(0);
    const listed = (JSON.parse(result.stdout) as { clients: Array<Record<string, unknown>> }).clients;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: made.client.id, client_id: made.client.clientId, client_name: 'x', scope: 'ads_read', organization_id: orgId });
    for (const key of Object.keys(listed[0]!)) expect(key).not.toMatch(/secret|hash/i);
    expect(result.stdout).not.toContain(made.clientSecret);
    expect(result.stdout).not.toContain(made.client.clientSecret);
  });

  it('clients create with an unknown scope fails with one line and writes nothing', async () => {
    const result = await run(['clients', 'create', '--name', 'y', '--scope', 'ads_read mind_control', '--org', 'Acme', '--json'], env);
    expectOneLineFailure(result, /scope.*mind_control/i);
    expect(await database.db('api_clients').where({ client_name: 'y' }).first()).toBeUndefined();
  });

  it('a DATABASE_URL of an unsupported kind fails with one line', async () => {
    const result = await run(['orgs', 'create', '--name', 'Nope', '--json'], { ...env, DATABASE_URL: 'mysql://x' });
    expectOneLineFailure(result, /DATABASE_URL/);
  });

  it('usage errors start with adgraph: like every other failure, and name the flag the user typed (issue 13)', async () => {
    for (const [args, mentions] of [
      [['nope'], /^adgraph: unknown command 'nope'/],
      [['orgs', 'create'], /^adgraph: required option '--name <name>' not specified/],
      [['dates', 'convert'], /^adgraph: missing required argument 'format'/],
      [['serve', '--port', 'abc'], /^adgraph: option '-p, --port <port>' argument 'abc' is invalid\. a port is a whole number from 0 to 65535\./],
      [['serve', '--port', '70000'], /^adgraph: option '-p, --port <port>' argument '70000' is invalid/],
    ] as const) {
      const result = await run([...args], env);
      expectOneLineFailure(result, mentions);
      expect(result.stderr).not.toMatch(/^error:|PORT must/);
    }
  });

  it('an unreachable database fails with one line and keeps stdout clean', async () => {
    const result = await run(['db', 'migrate', '--json'], { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
    expectOneLineFailure(result, /cannot reach the database/);
  });
});

describe('adgraph db seed', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(() => database?.dispose());

  // The demo's 90 days of statistics take seconds to write, more on a loaded machine.
  it('loads the demo into an empty database, and refuses a second time', { timeout: 120_000 }, async () => {
    const env = cliEnv(database);
    const first = await run(['db', 'seed', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary.password).toEqual(expect.any(String));
    expect(summary.users.map((u: { email: string }) => u.email)).toContain('ads@northwind.example');
    expect(summary.counts.adSets).toBeGreaterThanOrEqual(40);
    expect(summary.counts.adSets).toBeLessThanOrEqual(60);
    const adSets = Number((await database.db('ad_sets').count({ n: '*' }).first())?.n);
    expect(adSets).toBe(summary.counts.adSets);
    const organizations = Number((await database.db('organizations').count({ n: '*' }).first())?.n);
    const users = Number((await database.db('users').count({ n: '*' }).first())?.n);

    const second = await run(['db', 'seed', '--json'], env);
    expectOneLineFailure(second, /already/);
    expect(Number((await database.db('organizations').count({ n: '*' }).first())?.n)).toBe(organizations);
    expect(Number((await database.db('users').count({ n: '*' }).first())?.n)).toBe(users);
    expect(Number((await database.db('ad_sets').count({ n: '*' }).first())?.n)).toBe(adSets);
  });
});
