import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { cliEnv, cliJson, databaseMember, DATABASE_LINE, expectOneLineFailure, lines, runCli as run, stderrBesidesDatabase } from './helpers/cli.ts';
import { PASSWORD, worldBuilder } from './helpers/world.ts';
import { loadConfig } from '../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../src/context/index.ts';
import { createLogger } from '../src/logging/index.ts';
import { authenticateSessionToken, verifyCredentials } from '../src/identity/service.ts';
import { createClient } from '../src/oauth/service.ts';
import { createGroup } from '../src/comments/admin.ts';

// What an operator does with the `adgraph` command line besides creating things (issue 20): knowing which
// database a command used, --version, list and show, a password reset, and `db status`. Child processes over a
// test database (helpers/cli.ts); the world they read is built in-process through the services.

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** Several child processes a test, each starting Node and the CLI (a second apiece on a busy machine). */
const SPAWNS_TIMEOUT = 240_000;
const NEW_PASSWORD = 'Staple-Battery-42-Horse!';

let database: TestDatabase;
let deps: AppDeps;
let env: NodeJS.ProcessEnv;
const own: TestDatabase[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ DATABASE_URL: database.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent' });
  deps = createAppDeps(config, { db: database.db, log: createLogger('silent') });
  env = cliEnv(database);
});
afterAll(async () => {
  if (deps) {
    deps.mailer.close();
    await deps.rateLimits.close();
    await deps.passwords.close();
  }
  await database?.dispose();
  for (const made of own) await made.dispose();
});

describe('which database', { timeout: SPAWNS_TIMEOUT }, () => {
  it('--version prints package.json version without opening a database', async () => {
    const result = await run(['--version'], { ...env, DATABASE_URL: 'sqlite:/nonexistent/dir/x.sqlite' });
    expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('a command says on stderr and in its JSON which database it used; --database-url overrides DATABASE_URL', async () => {
    // DATABASE_URL points elsewhere (a database the command must not touch); the option names the test's.
    const elsewhere = { ...env, DATABASE_URL: 'sqlite:/nonexistent/dir/elsewhere.sqlite' };
    const result = await run(['--database-url', database.url, 'orgs', 'create', '--name', 'Pointed', '--json'], elsewhere);
    expect(result.code, result.stderr).toBe(0);
    const line = `adgraph: database ${databaseMember(database).dialect} ${database.url.replace(/^sqlite:/, '')}`;
    expect(lines(result.stderr)).toEqual([line]);
    expect(line).toMatch(DATABASE_LINE);
    const org = JSON.parse(result.stdout);
    expect(org.database).toEqual(databaseMember(database));
    expect(await database.db('organizations').where({ id: org.id }).first()).toMatchObject({ name: 'Pointed' });

    // After the subcommand too, and the text output says the same on stderr.
    const listed = await run(['orgs', 'list', '--database-url', database.url], elsewhere);
    expect(listed.code, listed.stderr).toBe(0);
    expect(lines(listed.stderr)).toEqual([line]);
    expect(listed.stdout).toContain('Pointed');
  });

  it('never prints a password of the database URL, even when the database cannot be reached', async () => {
    const result = await run(['--database-url', 'postgres://operator:s3cret-pw@127.0.0.1:1/adgraph?password=s3cret-pw', 'db', 'status'], env);
    expectOneLineFailure(result, /cannot reach the database/);
    expect(lines(result.stderr)[0]).toBe('adgraph: database postgres postgres://operator@127.0.0.1:1/adgraph');
    expect(result.stderr + result.stdout).not.toContain('s3cret');
  });

  it('a bad --database-url is refused in one line naming the option, without repeating the value', async () => {
    const result = await run(['--database-url', 'mysql://root:hunter2@db/x', 'orgs', 'list'], env);
    expectOneLineFailure(result, /^adgraph: --database-url must start with sqlite: or postgres:\/\//);
    expect(result.stderr).not.toContain('hunter2');
  });
});

describe('db status', { timeout: SPAWNS_TIMEOUT }, () => {
  it('lists pending migrations and exits 3 without changing the database; after db migrate, 0', async () => {
    const empty = await createTestDatabase({ migrate: false });
    own.push(empty);
    const emptyEnv = cliEnv(empty);
    const before = await run(['db', 'status', '--json'], emptyEnv);
    expect(before.code, before.stderr).toBe(3);
    const status = JSON.parse(before.stdout);
    expect(status).toMatchObject({ applied: [], up_to_date: false, database: databaseMember(empty) });
    expect(status.pending[0]).toMatch(/_identity$/);
    // It only read: not even knex's bookkeeping tables are there.
    expect(await empty.db.schema.hasTable('knex_migrations')).toBe(false);

    expect((await run(['db', 'migrate'], emptyEnv)).code).toBe(0);
    const after = await run(['db', 'status'], emptyEnv);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/^applied {2}\d+_identity$/m);
    expect(lines(after.stdout).at(-1)).toBe('up to date');
    expect(JSON.parse((await run(['db', 'status', '--json'], emptyEnv)).stdout)).toMatchObject({ pending: [], up_to_date: true });
  });
});

describe('list and show', { timeout: SPAWNS_TIMEOUT }, () => {
  let orgName: string;
  let orgId: string;
  let userEmail: string;
  let accountId: string;
  let pageId: string;
  let groupId: string;
  let clientId: string;

  beforeAll(async () => {
    const world = worldBuilder(deps);
    const org = await world.organization();
    ({ id: orgId, name: orgName } = org);
    await world.organization(); // another, so that paging has two pages
    const { user } = await world.user({ organizationId: orgId, role: 'advertiser' });
    userEmail = user.email;
    await world.user(); // in no organization
    accountId = (await world.adAccount(orgId)).id;
    pageId = (await world.page(orgId)).id;
    groupId = (await createGroup(deps, { organization: orgId, name: 'Hikers' })).id;
    clientId = (await createClient(deps, { name: 'reporting', scope: 'ads_read', organization: orgId })).client.clientId;
  });

  it('orgs list pages with --limit and --after, as JSON and as a table', async () => {
    const first = await cliJson(['orgs', 'list', '--limit', '1'], env);
    expect(first.value.organizations).toHaveLength(1);
    expect(first.value.next).toBe(first.value.organizations[0].id);
    const rest = await cliJson(['orgs', 'list', '--after', first.value.next], env);
    expect(rest.value.next).toBeNull();
    const all = [...first.value.organizations, ...rest.value.organizations].map((o: { id: string }) => o.id);
    const stored = (await database.db('organizations').orderBy('id').select('id')).map((row: { id: string }) => row.id);
    expect(all).toEqual(stored);

    const table = await run(['orgs', 'list', '--limit', '1'], env);
    expect(table.code, table.stderr).toBe(0);
    const [header, row, more] = lines(table.stdout);
    expect(header).toMatch(/^ID\s+NAME\s+CREATED_AT$/);
    expect(row!.startsWith(first.value.next)).toBe(true);
    expect(more).toBe(`(more: --after ${first.value.next})`);
  });

  it('orgs show counts the members by role; users list and show never print a password hash', async () => {
    expect((await cliJson(['orgs', 'show', orgName], env)).value).toMatchObject({ id: orgId, name: orgName, members: { advertiser: 1 } });

    const members = await cliJson(['users', 'list', '--org', orgName], env);
    expect(members.value.users.map((u: { email: string }) => u.email)).toEqual([userEmail]);
    expect(members.run.stdout).not.toMatch(/hash|\$2[aby]\$/);
    const everyone = await cliJson(['users', 'list'], env);
    expect(everyone.value.users.length).toBeGreaterThanOrEqual(2);

    const shown = await cliJson(['users', 'show', userEmail.toUpperCase()], env);
    expect(shown.value).toMatchObject({
      email: userEmail,
      login_type: 'password',
      memberships: [{ organization_id: orgId, role: 'advertiser' }],
      live_sessions: 1,
    });
    expect(shown.run.stdout).not.toMatch(/hash|\$2[aby]\$/);
  });

  it('accounts, pages, groups and applications list (by organization) and show', async () => {
    const accounts = await cliJson(['accounts', 'list', '--org', orgId], env);
    expect(accounts.value.accounts.map((a: { id: string }) => a.id)).toEqual([accountId]);
    expect((await cliJson(['accounts', 'show', `act_${accountId}`], env)).value).toMatchObject({
      id: accountId,
      organization_id: orgId,
      live_ad_sets: 0,
      ad_set_limit: 5000,
    });

    expect((await cliJson(['pages', 'list', '--org', orgName], env)).value.pages.map((p: { id: string }) => p.id)).toEqual([pageId]);
    expect((await cliJson(['pages', 'show', pageId], env)).value).toMatchObject({ id: pageId, organization_id: orgId });
    expect((await cliJson(['groups', 'list', '--org', orgName], env)).value.groups).toMatchObject([{ id: groupId, name: 'Hikers' }]);
    expect((await cliJson(['groups', 'show', groupId], env)).value).toMatchObject({ id: groupId, name: 'Hikers' });

    const clients = await cliJson(['applications', 'list', '--org', orgName], env);
    expect(clients.value.clients).toMatchObject([{ client_id: clientId, client_name: 'reporting', scope: 'ads_read' }]);
    const client = await cliJson(['clients', 'show', clientId], env);
    expect(client.value).toMatchObject({ client_id: clientId, organization_id: orgId });
    expect(client.run.stdout).not.toMatch(/secret|\$2[aby]\$/);

    const text = await run(['accounts', 'show', accountId], env);
    expect(text.stdout).toMatch(/^ad sets: +0 of 5000 \(not deleted\)$/m);
  });

  it.each([
    [['orgs', 'list', '--limit', '0'], /--limit.*1 to 1000/],
    [['users', 'list', '--after', '42'], /^adgraph: after: "42" is not an id of this list \(a UUID\)/m],
    [['accounts', 'list', '--after', 'act_1'], /^adgraph: after: .*a number/m],
    [['accounts', 'show', 'abc'], /^adgraph: account: "abc" is not an ad account id/m],
    [['pages', 'show', '999999999'], /^adgraph: page: No page 999999999/m],
    [['groups', 'list', '--org', 'No Such Org'], /^adgraph: org: No organization "No Such Org"/m],
    [['users', 'show', 'nobody'], /^adgraph: user: "nobody" is neither a user id/m],
    [['orgs', 'show', 'No Such Org'], /^adgraph: organization: No organization/m],
    [['clients', 'show', 'nope'], /^adgraph: client_id: No API client "nope"/m],
  ])('adgraph %j is refused in one line naming what was wrong', async (args, mentions) => {
    expectOneLineFailure(await run(args, env), mentions);
  });
});

describe('users reset-password', { timeout: SPAWNS_TIMEOUT }, () => {
  it('sets the password read from stdin, hashed, and revokes every session of the user', async () => {
    const world = worldBuilder(deps);
    const { user, token } = await world.user();
    expect(await authenticateSessionToken(deps, token)).not.toBeNull();

    const result = await run(['users', 'reset-password', user.email, '--password-stdin', '--json'], env, { input: `${NEW_PASSWORD}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: user.id, password_reset: true, revoked_sessions: 1 });
    expect(result.stdout + result.stderr).not.toContain(NEW_PASSWORD);

    const row = await database.db('users').where({ id: user.id }).first();
    expect(row.hashed_password).toMatch(/^\$2[aby]\$04\$/);
    expect(await authenticateSessionToken(deps, token)).toBeNull();
    expect((await verifyCredentials(deps, user.email, NEW_PASSWORD)).id).toBe(user.id);
    await expect(verifyCredentials(deps, user.email, PASSWORD)).rejects.toThrow(/Incorrect/);
  });

  it('refuses a weak password, and a password it could only have taken from the command line, changing nothing', async () => {
    const { user, token } = await worldBuilder(deps).user();
    const before = (await database.db('users').where({ id: user.id }).first()).hashed_password;

    const weak = await run(['users', 'reset-password', user.id, '--password-stdin'], env, { input: 'password\n' });
    expectOneLineFailure(weak, /^adgraph: password: Password is too weak/m);
    // No terminal to ask on and no --password-stdin: refused before the database is opened.
    const noWay = await run(['users', 'reset-password', user.id], env);
    expectOneLineFailure(noWay, /^adgraph: password: give --password-stdin/);
    expect(stderrBesidesDatabase(noWay.stderr)).toEqual(lines(noWay.stderr));
    // There is no option that takes it as an argument.
    expectOneLineFailure(await run(['users', 'reset-password', user.id, '--password', NEW_PASSWORD], env), /unknown option '--password'/);

    expect((await database.db('users').where({ id: user.id }).first()).hashed_password).toBe(before);
    expect(await authenticateSessionToken(deps, token)).not.toBeNull();
  });
});
