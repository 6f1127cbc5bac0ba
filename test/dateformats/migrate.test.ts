// Same on every database: the date formats and the search cluster are what is tested; the database only holds who signs in.
import { afterEach, describe, expect, it } from 'vitest';
import { migrateIndex, MigrationError, MIGRATION_META, type MigrationProgress } from '../../src/dateformats/migrate.ts';
import { SearchClient } from '../../src/dateformats/search-client.ts';
import { runCli } from '../helpers/cli.ts';
import { startFakeSearch, type FakeSearch, type Flavour } from '../helpers/fake-search.ts';
import { javaDatesForTests, sharedJavaDates } from '../helpers/java-dates.ts';
import { jodaPrint } from '../helpers/joda-print.ts';

/*
 * NOTE: Elasticsearch cannot run on this machine. These tests migrate indices on test/helpers/fake-search.ts, an
 * in-process HTTP server that STANDS IN FOR A REAL 7.x OR 8.x CLUSTER (it validates requests as the engine does,
 * runs reindex as a task that advances on every GET /_tasks/<id>, and can fail in the middle), not on Elasticsearch.
 * The fake checks date formats and parses documents with java.time as 7.x/8.x do, through one JVM for this file
 * (test/helpers/java-dates.ts): without a JDK these tests fail in CI and are skipped elsewhere, with a warning.
 */
const { skip: skipJava } = javaDatesForTests('dates migrate tests');

const OLD = 'events-v1';
const NEW = 'events-v1-javatime';
const DOCS = Array.from({ length: 7 }, (_, i) => ({ id: `d${i + 1}`, when: `2019-01-0${i + 1}`, title: `event ${i + 1}` }));

async function cluster(flavour: Flavour, extra: Parameters<typeof startFakeSearch>[0] extends infer O ? Partial<O> : never = {}): Promise<FakeSearch> {
  const fake = await startFakeSearch({ flavour, batchSize: 2, ...extra });
  fake.addIndex(OLD, {
    // On 7.x the index to migrate was created by 6.8; an 8.x cluster has only 7.x-created ones (see assumeJoda below).
    createdVersion: flavour === '7' ? '6080099' : '7170099',
    mappings: {
      _meta: { owner: 'team-a' },
      properties: {
        when: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' },
        title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        meta: { properties: { seen: { type: 'date', format: 'dd/MM/YYYY HH:mm:ss' } } },
      },
    },
    settings: {
      number_of_shards: 3,
      number_of_replicas: 2,
      refresh_interval: '5s',
      default_pipeline: 'enrich',
      analysis: { analyzer: { folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } },
      lifecycle: { name: 'logs-policy' },
    },
    aliases: { events: { is_write_index: true }, 'events-recent': { filter: { range: { when: { gte: 'now-30d' } } } } },
    docs: DOCS,
  });
  return fake;
}

const options = (flavour: Flavour) => ({ index: 'events', pollIntervalMs: 0, assumeJoda: flavour === '8' });
const aliasCalls = (fake: FakeSearch) => fake.calls.filter((c) => c.path === '/_aliases');
const reindexCalls = (fake: FakeSearch) => fake.calls.filter((c) => c.path === '/_reindex');

describe.skipIf(skipJava).each<Flavour>(['7', '8'])('dates migrate on the fake %s.x cluster (stands in for a real one)', (flavour) => {
  let fake: FakeSearch;
  afterEach(() => fake?.close());

  it('migrates end to end: converted mapping, settings copied, counts equal, aliases swapped in one atomic call', async () => {
    fake = await cluster(flavour);
    const progress: MigrationProgress[] = [];
    const result = await migrateIndex(new SearchClient({ url: fake.url }), { ...options(flavour), onProgress: (p) => progress.push(p) });

    expect(result).toMatchObject({ status: 'migrated', source: OLD, target: NEW, viaAlias: true, resumed: false, counts: { source: 7, target: 7 } });
    const created = fake.indices.get(NEW)!;
    expect(created.mappings.properties.when.format).toBe('uuuu-MM-dd||uuuu-MM-d||epoch_millis');
    expect(created.mappings.properties.meta.properties.seen.format).toBe('dd/MM/yyyy HH:mm:ss||d/MM/yyyy HH:mm:ss');
    expect(created.mappings.properties.title).toEqual({ type: 'text', fields: { raw: { type: 'keyword' } } });
    expect(created.mappings._meta).toEqual({ owner: 'team-a', [MIGRATION_META]: { source: OLD, reindex_task: result.taskId } });
    expect(created.settings).toMatchObject({ number_of_shards: '3', number_of_replicas: '2', refresh_interval: '5s', default_pipeline: 'enrich' });
    expect(created.settings.analysis.analyzer.folded.filter).toEqual(['lowercase', 'asciifolding']);
    expect(created.settings.lifecycle).toBeUndefined();
    expect(result.warnings.join('\n')).toContain('index.lifecycle');
    // The index was created without the pipeline (so reindexed documents do not go through it again); it is set before the swap.
    const createCall = fake.calls.find((c) => c.method === 'PUT' && c.path === `/${NEW}`)!;
    expect(createCall.body.settings.index.default_pipeline).toBeUndefined();
    expect(createCall.body.settings.index.uuid).toBeUndefined();
    const order = fake.writes.map((c) => `${c.method} ${c.path}`);
    expect(order).toEqual([
      `PUT /${NEW}`,
      'POST /_reindex',
      `PUT /${NEW}/_mapping`,
      `POST /${OLD}/_refresh`,
      `POST /${NEW}/_refresh`,
      `PUT /${NEW}/_settings`,
      'POST /_aliases',
    ]);
    expect(reindexCalls(fake)[0]!.query).toEqual({ wait_for_completion: 'false' });

    expect(created.docs.size).toBe(7);
    expect(aliasCalls(fake)).toHaveLength(1);
    expect(aliasCalls(fake)[0]!.body.actions).toEqual([
      { remove: { index: OLD, alias: 'events' } },
      { add: { index: NEW, alias: 'events', is_write_index: true } },
      { remove: { index: OLD, alias: 'events-recent' } },
      { add: { index: NEW, alias: 'events-recent', filter: { range: { when: { gte: 'now-30d' } } } } },
    ]);
    expect(fake.indices.get(OLD)!.aliases).toEqual({});
    expect(Object.keys(created.aliases).sort()).toEqual(['events', 'events-recent']);
    expect(fake.indices.get(OLD)!.docs.size).toBe(7); // never deleted

    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ done: 7, total: 7, taskId: result.taskId });

    // A re-run finds nothing left to do.
    const again = await migrateIndex(new SearchClient({ url: fake.url }), options(flavour));
    expect(again.status).toBe('already-migrated');
    expect(reindexCalls(fake)).toHaveLength(1);
  });

  it('dry run returns the exact requests and sends no write', async () => {
    fake = await cluster(flavour);
    const result = await migrateIndex(new SearchClient({ url: fake.url }), { ...options(flavour), dryRun: true });
    expect(result.status).toBe('planned');
    expect(fake.writes).toEqual([]);
    expect(fake.indices.has(NEW)).toBe(false);
    const writes = result.requests.filter((r) => r.write);
    expect(writes.every((r) => !r.sent)).toBe(true);
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /${NEW}`,
      'POST /_reindex?wait_for_completion=false',
      `PUT /${NEW}/_mapping`,
      `POST /${OLD}/_refresh`,
      `POST /${NEW}/_refresh`,
      `PUT /${NEW}/_settings`,
      'POST /_aliases',
    ]);
    expect(writes[0]!.body).toMatchObject({
      settings: { index: { number_of_shards: '3' } },
      mappings: { properties: { when: { format: 'uuuu-MM-dd||uuuu-MM-d||epoch_millis' } } },
    });
    expect(writes[1]!.body).toEqual({ source: { index: OLD }, dest: { index: NEW } });
    expect((writes[6]!.body as any).actions).toHaveLength(4);
    expect(result.requests.filter((r) => !r.write).every((r) => r.method === 'GET')).toBe(true);
  });

  it('resumes after an interruption instead of starting a second reindex', async () => {
    fake = await cluster(flavour);
    const client = new SearchClient({ url: fake.url });
    // The process "dies" while following the task: the task keeps running in the cluster.
    const crash = await migrateIndex(client, {
      ...options(flavour),
      onProgress: () => {
        throw new Error('killed');
      },
    }).catch((e) => e);
    expect(crash.message).toBe('killed');
    expect(fake.indices.get(NEW)!.docs.size).toBeLessThan(7);
    expect(aliasCalls(fake)).toHaveLength(0);

    const result = await migrateIndex(client, options(flavour));
    expect(result).toMatchObject({ status: 'migrated', resumed: true, counts: { source: 7, target: 7 } });
    expect(reindexCalls(fake)).toHaveLength(1);
    expect(fake.calls.filter((c) => c.method === 'PUT' && c.path === `/${NEW}`)).toHaveLength(1);
    expect(aliasCalls(fake)).toHaveLength(1);
  });

  it('resumes when it died between starting the reindex and recording the task id (finds the task by description)', async () => {
    fake = await cluster(flavour);
    const client = new SearchClient({ url: fake.url });
    fake.failures.push({ method: 'PUT', path: new RegExp(`^/${NEW}/_mapping$`), status: 500 });
    await expect(migrateIndex(client, options(flavour))).rejects.toThrow(/injected failure/);
    expect(fake.indices.get(NEW)!.mappings._meta[MIGRATION_META].reindex_task).toBeUndefined();

    const result = await migrateIndex(client, options(flavour));
    expect(result).toMatchObject({ status: 'migrated', resumed: true, counts: { source: 7, target: 7 } });
    expect(reindexCalls(fake)).toHaveLength(1);
    expect(fake.calls.some((c) => c.path === '/_tasks' && c.query.actions === '*reindex')).toBe(true);
  });

  it('a reindex failing in the middle leaves the old index and its aliases serving; a re-run copies only what is missing', async () => {
    fake = await cluster(flavour);
    const client = new SearchClient({ url: fake.url });
    fake.failReindexAt = 3;
    const error = await migrateIndex(client, options(flavour)).catch((e) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.step).toBe('reindex');
    expect(error.message).toMatch(/finished with 1 failure\(s\) \(first: document d4: failed to parse field \[when\]/);
    expect(error.message).toContain(`${OLD} is unchanged and still serves events, events-recent; no alias was switched`);
    expect(error.message).toMatch(/Next: .*re-run/);
    expect(aliasCalls(fake)).toHaveLength(0);
    expect(Object.keys(fake.indices.get(OLD)!.aliases).sort()).toEqual(['events', 'events-recent']);

    const result = await migrateIndex(client, options(flavour));
    expect(result).toMatchObject({ status: 'migrated', resumed: true, counts: { source: 7, target: 7 } });
    expect(reindexCalls(fake)).toHaveLength(2);
    expect(reindexCalls(fake)[1]!.body).toEqual({ conflicts: 'proceed', source: { index: OLD }, dest: { index: NEW, op_type: 'create' } });
  });

  it('documents written during the copy make the count check fail before the swap', async () => {
    fake = await cluster(flavour);
    let wrote = false;
    const onProgress = () => {
      if (wrote) return;
      wrote = true;
      fake.indices.get(OLD)!.docs.set('late', { id: 'late' }); // a client still writing to the old index
    };
    const error = await migrateIndex(new SearchClient({ url: fake.url }), { ...options(flavour), onProgress }).catch((e) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.step).toBe('verify');
    expect(error.message).toMatch(/document counts differ: events-v1 has 8, events-v1-javatime has 7/);
    expect(aliasCalls(fake)).toHaveLength(0);
    expect(Object.keys(fake.indices.get(OLD)!.aliases).sort()).toEqual(['events', 'events-recent']);
  });

  it('refuses formats without an equivalent before writing anything', async () => {
    fake = await cluster(flavour);
    fake.indices.get(OLD)!.mappings.properties.century = { type: 'date', format: 'CC' };
    const error = await migrateIndex(new SearchClient({ url: fake.url }), options(flavour)).catch((e) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.message).toMatch(/no java\.time equivalent \(century: CC\)/);
    expect(fake.writes).toEqual([]);
  });

  it('an index created by 7.0 or later is left alone unless --assume-joda', async () => {
    fake = await cluster(flavour);
    fake.indices.get(OLD)!.createdVersion = '7100099';
    const result = await migrateIndex(new SearchClient({ url: fake.url }), { ...options(flavour), assumeJoda: false });
    expect(result.status).toBe('nothing-to-migrate');
    expect(result.next).toMatch(/already java\.time.*--assume-joda/);
    expect(fake.writes).toEqual([]);
  });
});

describe.skipIf(skipJava)('auth and the command line, against the fake cluster (standing in for a real one)', () => {
  let fake: FakeSearch;
  afterEach(() => fake?.close());
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
    delete e.SEARCH_URL;
    delete e.SEARCH_API_KEY;
    delete e.NODE_OPTIONS;
    return { ...e, ...extra };
  };

  it('basic auth from the URL reaches the cluster and is never printed', async () => {
    fake = await cluster('7', { basic: { user: 'elastic', password: 'pw-Very-Secret-1' } });
    const url = fake.url.replace('http://', 'http://elastic:pw-Very-Secret-1@');
    const dry = await runCli(['dates', 'migrate', '--url', url, '--index', 'events', '--dry-run'], env());
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`WRITE PUT /${NEW}`);
    expect(dry.stdout).toContain('WRITE POST /_aliases');
    expect(fake.writes).toEqual([]);
    expect(fake.calls.every((c) => c.authorization === `Basic ${Buffer.from('elastic:pw-Very-Secret-1').toString('base64')}`)).toBe(true);

    const run = await runCli(['dates', 'migrate', '--index', 'events', '--json', '--poll-interval', '0'], env({ SEARCH_URL: url }));
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: 'migrated', target: NEW, counts: { source: 7, target: 7 } });
    expect(run.stderr).toBe(''); // stderr is not a TTY here: no progress line
    for (const out of [dry.stdout, dry.stderr, run.stdout, run.stderr]) {
      expect(out).not.toContain('pw-Very-Secret-1');
      expect(out).not.toContain(Buffer.from('elastic:pw-Very-Secret-1').toString('base64'));
    }

    const denied = await runCli(['dates', 'scan', '--url', url.replace('pw-Very-Secret-1', 'wrong-Secret-2')], env());
    expect(denied.code).not.toBe(0);
    expect(denied.stderr.trim().split('\n')).toHaveLength(1);
    expect(denied.stderr).toMatch(/^adgraph: GET \/ failed with HTTP 401: security_exception/);
    expect(denied.stderr + denied.stdout).not.toContain('wrong-Secret-2');
  });

  it('an API key from SEARCH_API_KEY is sent as ApiKey and never printed', async () => {
    fake = await cluster('8', { apiKey: { id: 'VuaCfGcBCdbkQm-e5aOx', key: 'ui2lp2axTNmsyakw9tvNnw' } });
    const run = await runCli(
      ['dates', 'scan', '--url', fake.url, '--json', '--include-java-indices'],
      env({ SEARCH_API_KEY: 'VuaCfGcBCdbkQm-e5aOx:ui2lp2axTNmsyakw9tvNnw' }),
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.targets.map((t: any) => t.name)).toEqual([OLD]);
    expect(fake.calls.every((c) => c.authorization === `ApiKey ${Buffer.from('VuaCfGcBCdbkQm-e5aOx:ui2lp2axTNmsyakw9tvNnw').toString('base64')}`)).toBe(true);
    expect(run.stdout + run.stderr).not.toContain('ui2lp2axTNmsyakw9tvNnw');

    const text = await runCli(
      ['dates', 'scan', '--url', fake.url],
      env({ SEARCH_API_KEY: Buffer.from('VuaCfGcBCdbkQm-e5aOx:ui2lp2axTNmsyakw9tvNnw').toString('base64') }),
    );
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`not listed (created by 7.0 or later`);
    expect(text.stdout).toMatch(/^summary: 0 index\(es\)/m);

    const missing = await runCli(['dates', 'scan', '--url', fake.url], env());
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/missing authentication credentials/);
  });

  it('refuses an unsupported format unless --allow-unsupported; with it, the cluster refuses what java.time cannot read', async () => {
    fake = await startFakeSearch({ flavour: '7', batchSize: 2 });
    fake.addIndex('centuries-v1', {
      createdVersion: '6080099',
      mappings: { properties: { when: { type: 'date', format: 'CCyy-MM-dd' } } },
      docs: [{ id: 'a', when: '2010-01-05' }],
    });
    const refused = await runCli(['dates', 'migrate', '--url', fake.url, '--index', 'centuries-v1', '--poll-interval', '0'], env());
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /have no java.time equivalent \(when: CCyy-MM-dd\).*--allow-unsupported writes the best-effort conversion, which is NOT equivalent/,
    );
    expect(fake.writes).toEqual([]);

    const forced = await runCli(['dates', 'migrate', '--url', fake.url, '--index', 'centuries-v1', '--allow-unsupported', '--poll-interval', '0'], env());
    expect(forced.code).not.toBe(0);
    expect(forced.stderr.trim().split('\n')).toHaveLength(1);
    expect(forced.stderr).toMatch(/creating centuries-v1-javatime failed .*CCuu-MM-dd.*Unknown pattern letter: C/);
    expect(fake.writes.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /centuries-v1-javatime']);
    expect([...fake.indices.keys()]).toEqual(['centuries-v1']);
  });

  it('a failed migration exits non-zero with one line saying what to do next', async () => {
    fake = await cluster('7');
    fake.failReindexAt = 2;
    const run = await runCli(['dates', 'migrate', '--url', fake.url, '--index', 'events', '--poll-interval', '0'], env());
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^adgraph: reindex task .* finished with 1 failure\(s\).*Next: events-v1 is unchanged and still serves events, events-recent; no alias was switched/,
    );
  });
});

/** An index as 6.x held it: `when` in Joda's `yyyy-MM-dd`, with values Joda accepted (it also read `2010-1-05`). */
async function legacyDates(flavour: Flavour, whens: string[]): Promise<FakeSearch> {
  const fake = await startFakeSearch({ flavour, batchSize: 2 });
  fake.addIndex(OLD, {
    createdVersion: flavour === '7' ? '6080099' : '7170099',
    mappings: { properties: { when: { type: 'date', format: 'yyyy-MM-dd' } } },
    aliases: { events: {} },
    docs: whens.map((when, i) => ({ id: `d${i + 1}`, when })),
  });
  return fake;
}

/** The instant Joda gave `yyyy-MM-dd` text (UTC, start of day), fewer digits included. */
const jodaDay = (text: string) => {
  const [y, m, d] = text.split('-').map(Number);
  return Date.UTC(y!, m! - 1, d!);
};

/** What java.time (as the new index reads it) makes of every `when` of the new index, by document. */
async function javaInstants(fake: FakeSearch, field = 'when'): Promise<Record<string, number | string>> {
  const index = fake.indices.get(NEW)!;
  const format = index.mappings.properties[field].format;
  const out: Record<string, number | string> = {};
  for (const [id, doc] of index.docs) {
    const parsed = await sharedJavaDates().parse(format, String(doc[field]));
    out[id] = parsed.outcome === 'parsed' ? parsed.millis : parsed.outcome;
  }
  return out;
}

describe.skipIf(skipJava).each<Flavour>(['7', '8'])(
  'dates migrate: the fake %s.x cluster reads the converted formats and the documents with java.time',
  (flavour) => {
    let fake: FakeSearch;
    afterEach(() => fake?.close());
    const taskFailures = () => [...fake.tasks.values()].flatMap((t) => t.failures);

    it('a converted format java.time refuses (allowed with allowUnsupported) fails at index creation: nothing copied, no alias moved', async () => {
      fake = await cluster(flavour);
      fake.indices.get(OLD)!.mappings.properties.century = { type: 'date', format: 'CCyy-MM-dd' };
      const error = await migrateIndex(new SearchClient({ url: fake.url }), { ...options(flavour), allowUnsupported: true }).catch((e) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect(error.step).toBe('create');
      expect(error.message).toMatch(
        /mapper_parsing_exception: Failed to parse mapping.*: Error parsing \[format\] on field \[century\]: Invalid format: \[CC[^\]]*\]: Unknown pattern letter: C/,
      );
      expect(error.message).toContain(`${OLD} is unchanged and still serves events, events-recent; no alias was switched`);
      expect(fake.indices.has(NEW)).toBe(false);
      expect(fake.writes.map((c) => `${c.method} ${c.path}`)).toEqual([`PUT /${NEW}`]);
      expect(Object.keys(fake.indices.get(OLD)!.aliases).sort()).toEqual(['events', 'events-recent']);
    });

    it('a document the converted format cannot parse stops the reindex, named with its value; the old index keeps serving', async () => {
      // Batches of 2: d1 d2 | d3 d4 | d5. The engine writes the rest of the failing batch (d4), then stops.
      fake = await legacyDates(flavour, ['2010-01-04', '2010-01-05', '2010-1-05', '2010-01-07', '2010-01-08']);
      const error = await migrateIndex(new SearchClient({ url: fake.url }), options(flavour)).catch((e) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect(error.step).toBe('reindex');
      expect(error.message).toMatch(
        /finished with 1 failure\(s\) \(first: document d3: (\[1:\d+\] )?failed to parse field \[when\] of type \[date\] in document with id 'd3'\. Preview of field's value: '2010-1-05'\)/,
      );
      expect(error.message).toContain(`${OLD} is unchanged and still serves events; no alias was switched`);
      expect(aliasCalls(fake)).toHaveLength(0);
      expect(Object.keys(fake.indices.get(OLD)!.aliases)).toEqual(['events']);
      expect([...fake.indices.get(NEW)!.docs.keys()]).toEqual(['d1', 'd2', 'd4']);

      const format = fake.indices.get(NEW)!.mappings.properties.when.format;
      expect(taskFailures()).toEqual([
        {
          index: NEW,
          ...(flavour === '7' ? { type: '_doc' } : {}),
          id: 'd3',
          status: 400,
          cause: {
            type: flavour === '7' ? 'mapper_parsing_exception' : 'document_parsing_exception',
            reason: expect.stringContaining("failed to parse field [when] of type [date] in document with id 'd3'"),
            caused_by: {
              type: 'illegal_argument_exception',
              reason: `failed to parse date field [2010-1-05] with format [${format}]`,
              caused_by: { type: 'date_time_parse_exception', reason: expect.any(String) },
            },
          },
        },
      ]);
    });

    it('with lenient the same documents migrate, and java.time reads every value as the instant Joda read', async () => {
      const whens = ['2010-01-04', '2010-1-05', '2010-01-6', '2010-1-7', '0999-12-31'];
      fake = await legacyDates(flavour, whens);
      const result = await migrateIndex(new SearchClient({ url: fake.url }), { ...options(flavour), lenient: true });
      expect(result).toMatchObject({ status: 'migrated', counts: { source: 5, target: 5 } });
      expect(await javaInstants(fake)).toEqual(Object.fromEntries(whens.map((w, i) => [`d${i + 1}`, jodaDay(w)])));
      expect(fake.uncheckedDates).toEqual([]);
    });

    it('the fake accepts a valid converted mapping, and every document Joda printed copies with its instant', async () => {
      // Fields Joda printed for instants around year and week-year boundaries, a leap day and before 1970.
      const instants = [
        Date.UTC(2019, 11, 30, 23, 59, 58, 7),
        Date.UTC(2020, 1, 29, 12, 0, 0, 500),
        Date.UTC(1969, 11, 31, 23, 59, 59, 999),
        Date.UTC(2021, 0, 3, 5, 6, 7, 80),
      ];
      const printed = (pattern: string, millis: number, offsetMinutes = 0) => {
        const t = new Date(millis + offsetMinutes * 60_000);
        const fields = {
          year: t.getUTCFullYear(),
          month: t.getUTCMonth() + 1,
          day: t.getUTCDate(),
          hour: t.getUTCHours(),
          minute: t.getUTCMinutes(),
          second: t.getUTCSeconds(),
          millis: t.getUTCMilliseconds(),
          offsetMinutes,
        };
        return jodaPrint(pattern, fields)!;
      };
      const seconds = (millis: number) => Math.floor(millis / 1000) * 1000;
      const day = (millis: number) => Math.floor(millis / 86_400_000) * 86_400_000;
      // field: [Joda format, offset it was printed in, the instant Joda read back]
      const fields: Record<string, [string, number, (millis: number) => number]> = {
        logged: ['yyyy-MM-dd HH:mm:ss', 0, seconds],
        on: ['dd/MM/yyyy', 0, day],
        stamp: ["yyyyMMdd'T'HHmmssZ", 330, seconds],
        precise: ["yyyy-MM-dd'T'HH:mm:ss.SSSZZ", -180, (m) => m],
      };
      fake = await startFakeSearch({ flavour, batchSize: 3 });
      fake.addIndex(OLD, {
        createdVersion: flavour === '7' ? '6080099' : '7170099',
        mappings: {
          properties: {
            ...Object.fromEntries(Object.entries(fields).map(([name, [format]]) => [name, { type: 'date', format }])),
            either: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' },
            visits: { type: 'nested', properties: { at: { type: 'date', format: 'yyyy-MM-dd HH:mm:ss' } } },
            label: { type: 'text', fields: { as_day: { type: 'date', format: 'dd/MM/yyyy' } } },
          },
        },
        docs: instants.map((millis, i) => ({
          id: `j${i + 1}`,
          ...Object.fromEntries(Object.entries(fields).map(([name, [format, offset]]) => [name, printed(format, millis, offset)])),
          either: i % 2 ? millis : printed('yyyy-MM-dd', millis), // a JSON number is parsed as its text, by epoch_millis
          visits: [{ at: printed('yyyy-MM-dd HH:mm:ss', millis) }, { at: printed('yyyy-MM-dd HH:mm:ss', millis + 1000) }],
          label: printed('dd/MM/yyyy', millis),
        })),
      });
      const result = await migrateIndex(new SearchClient({ url: fake.url }), { index: OLD, pollIntervalMs: 0, assumeJoda: flavour === '8' });
      expect(result).toMatchObject({ status: 'migrated', counts: { source: 4, target: 4 } });
      expect(fake.uncheckedDates).toEqual([]);
      for (const [name, [, , read]] of Object.entries(fields)) {
        expect(await javaInstants(fake, name), name).toEqual(Object.fromEntries(instants.map((m, i) => [`j${i + 1}`, read(m)])));
      }
      expect(await javaInstants(fake, 'either')).toEqual(Object.fromEntries(instants.map((m, i) => [`j${i + 1}`, i % 2 ? m : day(m)])));
    });
  },
);
