// Same on every database: the date formats and the search cluster are what is tested; the database only holds who signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameProblem, type NameUse } from '../../src/dateformats/names.ts';
import { enc, SearchClient, SearchError } from '../../src/dateformats/search-client.ts';
import { expectOneLineFailure, runCli } from '../helpers/cli.ts';
import { startFakeSearch, type FakeSearch } from '../helpers/fake-search.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/*
 * Index and alias names the caller gives the migration go into request paths. Names Elasticsearch refuses are refused
 * before anything is sent, in its words, and no path segment may be one URL parsing removes: `GET /_alias/..` would
 * reach `GET /`. The cluster is test/helpers/fake-search.ts, an in-process stand-in for a 7.x cluster (no
 * Elasticsearch runs here); it records every request it receives, so "nothing sent" is its empty log. Nothing here
 * parses dates, so no JVM is started.
 */

describe('the names Elasticsearch refuses', () => {
  const OK = undefined;
  it.each<[string, NameUse, string | undefined]>([
    ['events-v1', 'new-index', OK],
    ['.hidden-events', 'new-index', OK],
    ['événements', 'new-index', OK],
    ['.', 'existing', "must not be '.' or '..'"],
    ['..', 'alias', "must not be '.' or '..'"],
    ['', 'existing', 'must not be empty'],
    ['Events', 'new-index', 'must be lowercase'],
    ['Events', 'alias', OK],
    ['Events', 'existing', OK],
    ['a b', 'existing', 'must not contain the following characters'],
    ...[...'\\/*?"<>|,'].map((c): [string, NameUse, string] => [`a${c}b`, 'alias', 'must not contain the following characters']),
    ['a#b', 'new-index', "must not contain '#'"],
    ['logs:2019', 'new-index', "must not contain ':'"],
    ['logs:2019', 'alias', "must not contain ':'"],
    ['logs:2019', 'existing', OK],
    ['-events', 'existing', "must not start with '_', '-', or '+'"],
    ['_all', 'existing', "must not start with '_', '-', or '+'"],
    ['+events', 'alias', "must not start with '_', '-', or '+'"],
    ['e'.repeat(255), 'new-index', OK],
    ['e'.repeat(256), 'new-index', 'is too long (256 > 255 bytes)'],
    ['é'.repeat(128), 'alias', 'is too long (256 > 255 bytes)'],
  ])('%j as %s: %s', (name, use, problem) => {
    const found = nameProblem(name, use);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe('against the fake 7.x cluster (a stand-in for a real one)', () => {
  let fake: FakeSearch;
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    fake = await startFakeSearch({ flavour: '7' });
    fake.addIndex('events-v1', { aliases: { events: {} } });
    server = await startTestServer({ SEARCH_URL: fake.url, ASYNC_RUNNER: 'false' });
    const world = worldBuilder(server.deps);
    admin = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token;
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('the client sends no path with a dot segment, however it is spelled, and encodes no name that would make one', async () => {
    const client = new SearchClient({ url: fake.url });
    fake.calls.length = 0;
    for (const path of ['/_alias/..', '/_alias/.', '/_alias/%2e%2E', '/events-v1/.%2e/_mapping', '/./_cat/indices']) {
      const refused = await client.request('GET', path).catch((error: unknown) => error);
      expect(refused, path).toBeInstanceOf(SearchError);
      expect((refused as SearchError).message).toMatch(/refusing to send GET .*"\." or "\.\." path segment/);
    }
    expect(fake.calls).toEqual([]);
    for (const name of ['.', '..', '']) expect(() => enc(name), JSON.stringify(name)).toThrow(/refusing the name/);
    expect(enc('%2e%2e')).toBe('%252e%252e');
    expect(enc('.hidden')).toBe('.hidden');
    // A name that only looks like one is sent, encoded, and the cluster answers about that name.
    await expect(client.requestAllowing('GET', `/_alias/${enc('%2e%2e')}`, [404])).resolves.toMatchObject({ status: 404 });
    expect(fake.calls.map((call) => call.path)).toEqual(['/_alias/%2e%2e']);
  });

  it.each([
    [['--index', '..'], /--index: invalid index or alias name \[\.\.\], must not be '\.' or '\.\.'/],
    [['--index', '.'], /--index: .*must not be '\.' or '\.\.'/],
    [['--index', 'events', '--alias', '..'], /--alias: invalid alias name \[\.\.\], must not be '\.' or '\.\.'/],
    [['--index', 'events', '--new-index', 'Events-New'], /--new-index: invalid index name \[Events-New\], must be lowercase/],
    [['--index', 'events', '--new-index', 'events:new'], /--new-index: .*must not contain ':'/],
    [['--index', 'events', '--alias', '_all'], /--alias: .*must not start with '_', '-', or '\+'/],
  ])('adgraph dates migrate %j is refused in one line, and nothing reaches the cluster', async (args, message) => {
    fake.calls.length = 0;
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
    delete env.SEARCH_URL;
    delete env.SEARCH_API_KEY;
    delete env.NODE_OPTIONS;
    const run = await runCli(['dates', 'migrate', '--url', fake.url, ...args, '--dry-run'], env);
    expectOneLineFailure(run, message);
    expect(fake.calls).toEqual([]);
  });

  it.each([
    [{ index: '..' }, 'input.index', /invalid index or alias name \[\.\.\], must not be '\.' or '\.\.'/],
    [{ index: '.' }, 'input.index', /must not be '\.' or '\.\.'/],
    [{ index: 'events', alias: '..' }, 'input.alias', /invalid alias name \[\.\.\]/],
    [{ index: 'events', newIndex: 'Events-New' }, 'input.newIndex', /must be lowercase/],
    [{ index: 'events', alias: 'a,b' }, 'input.alias', /must not contain the following characters/],
  ])('migrateIndexDateFormats(%j) is BAD_USER_INPUT naming %s, and nothing reaches the cluster', async (input, field, message) => {
    fake.calls.length = 0;
    const { body } = await server.graphql(
      'mutation ($input: MigrateIndexDateFormatsInput!) { migrateIndexDateFormats(input: $input) { id state } }',
      { input: { ...input, dryRun: true } },
      admin,
    );
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(body.errors?.[0]?.message).toMatch(message);
    expect(fake.calls).toEqual([]);
  });
});
