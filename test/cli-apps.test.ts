import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { cliEnv, cliJson, expectOneLineFailure, runCli } from './helpers/cli.ts';

/**
 * `adgraph apps`: the applications ad sets may promote, registered under their platform ids with their store URLs
 * (an unknown promoted_object.application_id is error 900: test/ads/adsets-create.test.ts). Bad input is refused
 * in one line naming what was wrong, and writes nothing.
 */

let database: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
});
afterAll(() => database?.dispose());

const count = async () => Number(((await database.db('applications').count({ n: '*' })) as Array<{ n: unknown }>)[0]!.n);

describe('adgraph apps', () => {
  it('registers an application with its store URLs and lists it', async () => {
    const { value } = await cliJson(
      [
        'apps',
        'create',
        '--id',
        '1203948576612399',
        '--name',
        'Trail map',
        '--store-url',
        'google_play=https://play.google.com/store/apps/details?id=t',
        '--store-url',
        'itunes=https://apps.apple.com/app/id9',
      ],
      env,
    );
    expect(value).toEqual({
      id: '1203948576612399',
      name: 'Trail map',
      store_urls: { google_play: 'https://play.google.com/store/apps/details?id=t', itunes: 'https://apps.apple.com/app/id9' },
    });
    const { value: listed } = await cliJson(['apps', 'list'], env);
    expect(listed.applications.map((a: { id: string }) => a.id)).toEqual(['1203948576612399']);
  });

  it.each([
    [['--id', 'abc', '--name', 'X', '--store-url', 'itunes=https://apps.apple.com/app/id9'], /application id must be the platform id/],
    [['--id', '77', '--name', 'X', '--store-url', 'itunes'], /is not STORE=URL/],
    [['--id', '77', '--name', 'X', '--store-url', 'itunes=ftp://x'], /must be an http or https URL/],
    [['--id', '77', '--name', ' ', '--store-url', 'itunes=https://apps.apple.com/app/id9'], /name must be 1 to 255 characters/],
    [['--id', '1203948576612399', '--name', 'Again', '--store-url', 'itunes=https://apps.apple.com/app/id9'], /already registered/],
  ])('refuses %j in one line, writing nothing', async (args, message) => {
    const before = await count();
    const run = await runCli(['apps', 'create', ...args], env);
    expectOneLineFailure(run, message);
    expect(await count()).toBe(before);
  });
});
