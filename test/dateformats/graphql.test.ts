// Same on every database: the date formats and the search cluster are what is tested; the database only holds who signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { startFakeSearch, type FakeSearch } from '../helpers/fake-search.ts';
import { javaDatesForTests } from '../helpers/java-dates.ts';

// The migration below creates an index on the fake cluster, which checks its date formats with java.time.
const { skip: skipJava } = javaDatesForTests('the GraphQL date-format migration test');

/*
 * NOTE: Elasticsearch cannot run on this machine. The cluster here is test/helpers/fake-search.ts, an in-process
 * HTTP server that STANDS IN FOR A REAL 7.x CLUSTER (it validates requests as the engine does), not Elasticsearch.
 */
describe('date formats over GraphQL (against the fake 7.x cluster standing in for a real one)', () => {
  let server: TestServer;
  let fake: FakeSearch;
  let admin: string;
  let member: string;

  beforeAll(async () => {
    fake = await startFakeSearch({ flavour: '7', batchSize: 2 });
    fake.addIndex('events-v1', {
      createdVersion: '6080099',
      mappings: { properties: { when: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' }, title: { type: 'text' } } },
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      aliases: { events: {} },
      docs: Array.from({ length: 5 }, (_, i) => ({ id: `d${i}`, when: `2019-01-0${i + 1}`, title: `event ${i}` })),
    });
    server = await startTestServer({ SEARCH_URL: fake.url });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    admin = (await world.user({ organizationId: org.id, role: 'admin' })).token;
    member = (await world.user({ organizationId: org.id, role: 'member' })).token;
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('converts a format for any signed-in caller, and names the field of a bad one', async () => {
    const { body } = await server.graphql(
      '{ convertDateFormat(format: "YYYY-MM-dd\'T\'HH:mm:ssZZ") { output exact parts { severity changes { letter from to } } } }',
      {},
      member,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.convertDateFormat.output.split('||')[0]).toBe("yyyy-MM-dd'T'HH:mm:ssxxx");
    expect(body.data!.convertDateFormat.parts[0].severity).toBe('EXACT');
    const bad = await server.graphql('{ convertDateFormat(format: "") { output } }', {}, member);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'format' });
  });

  it('an unsupported conversion has no output over GraphQL, only a best effort, and letters named with their library', async () => {
    const query = `query ($format: String!, $lenient: Boolean) { convertDateFormat(format: $format, lenient: $lenient) {
      output bestEffortOutput usable exact lenient
      parts { output bestEffortOutput severity lenient findings { severity message } suggestions { builtIn message } } } }`;
    const { body } = await server.graphql(query, { format: 'yyyy-MM-dd||YYYY-ww' }, member);
    expect(body.errors).toBeUndefined();
    const conversion = body.data!.convertDateFormat;
    expect(conversion).toMatchObject({ output: null, bestEffortOutput: 'uuuu-MM-dd||uuuu-MM-d||yyyy-ww', usable: false, exact: false });
    expect(conversion.parts.map((p: { output: string | null; severity: string }) => [p.output, p.severity])).toEqual([
      ['uuuu-MM-dd||uuuu-MM-d', 'EXACT'],
      [null, 'UNSUPPORTED'],
    ]);
    expect(conversion.parts[1].findings).toContainEqual({
      severity: 'UNSUPPORTED',
      message: expect.stringMatching(/Joda `xxxx` in the legacy format \(it converts to java.time `YYYY`\)/),
    });
    expect(conversion.parts[0].suggestions).toEqual([{ builtIn: 'strict_date', message: expect.stringMatching(/or `date`, which also accepts fewer digits/) }]);

    // With lenient: full month names become alternatives, and the case finding says what an operator can do.
    const names = await server.graphql(query, { format: 'dd MMM yyyy', lenient: true }, member);
    expect(names.body.errors).toBeUndefined();
    const lenient = names.body.data!.convertDateFormat;
    expect(lenient).toMatchObject({ output: 'dd MMM uuuu||d MMM uuuu||d MMM u||d MMMM u', usable: true, lenient: true });
    expect(lenient.parts[0].findings).toContainEqual({
      severity: 'REVIEW',
      message: expect.stringMatching(/any letter case.*`script` processor in the ingest pipeline/),
    });
    const plain = await server.graphql(query, { format: 'dd MMM yyyy' }, member);
    expect(plain.body.data!.convertDateFormat).toMatchObject({ output: 'dd MMM uuuu||d MMM uuuu', lenient: false });
  });

  it('converts a pasted mapping response without a cluster', async () => {
    const mapping = { 'logs-1': { mappings: { properties: { at: { type: 'date', format: 'dd/MM/yyyy' }, n: { type: 'long' } } } } };
    const { body } = await server.graphql(
      'query ($m: JSON!) { convertIndexMapping(mapping: $m) { index mappings affected { field severity } } }',
      { m: mapping },
      member,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.convertIndexMapping).toEqual([
      {
        index: 'logs-1',
        mappings: { properties: { at: { type: 'date', format: 'dd/MM/uuuu||d/MM/uuuu' }, n: { type: 'long' } } },
        affected: [{ field: 'at', severity: 'EXACT' }],
      },
    ]);
  });

  it('lets only owners and admins scan and migrate', async () => {
    for (const query of ['{ scanDateFormats { clusterVersion } }', 'mutation { migrateIndexDateFormats(input: { index: "events", dryRun: true }) { id } }']) {
      const { body } = await server.graphql(query, {}, member);
      expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const writesBefore = fake.writes.length;
    const scan = await server.graphql('{ scanDateFormats { targets { kind name severity places { field format } } } }', {}, admin);
    expect(scan.body.errors).toBeUndefined();
    expect(scan.body.data!.scanDateFormats.targets).toContainEqual({
      kind: 'INDEX',
      name: 'events-v1',
      severity: 'EXACT',
      places: [{ field: 'when', format: 'yyyy-MM-dd||epoch_millis' }],
    });
    expect(fake.writes.length).toBe(writesBefore);
  });

  it.skipIf(skipJava)('runs a migration as a job whose progress can be polled, ending with the alias swapped', async () => {
    const start = await server.graphql('mutation { migrateIndexDateFormats(input: { index: "events" }) { id state progress } }', {}, admin);
    expect(start.body.errors).toBeUndefined();
    const { id } = start.body.data!.migrateIndexDateFormats;
    const seen: number[] = [];
    let job: Record<string, any> = {};
    for (let i = 0; i < 200; i++) {
      ({ dateFormatMigration: job } = (
        await server.graphql('query ($id: ID!) { dateFormatMigration(id: $id) { state progress copied total error result } }', { id }, admin)
      ).body.data!);
      seen.push(job.progress);
      if (job.state !== 'RUNNING') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job.error ?? null).toBeNull();
    expect(job.state).toBe('SUCCEEDED');
    expect(job.progress).toBe(1);
    expect(job.result).toMatchObject({ status: 'migrated', source: 'events-v1', target: 'events-v1-javatime', counts: { source: 5, target: 5 } });
    // Progress only ever grows.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(fake.indices.get('events-v1-javatime')!.mappings.properties.when.format).toBe('uuuu-MM-dd||uuuu-MM-d||epoch_millis');
    expect(fake.calls.filter((c) => c.path === '/_aliases')).toHaveLength(1);
  });

  it('answers an unknown job id with NOT_FOUND', async () => {
    const { body } = await server.graphql('{ dateFormatMigration(id: "nope") { id } }', {}, admin);
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
