import { afterEach, describe, expect, it } from 'vitest';
import { scanCluster } from '../../src/dateformats/cluster.ts';
import { convertMappingResponse, convertPipeline, convertTemplate, createdMajor } from '../../src/dateformats/mapping.ts';
import { SearchClient, SearchError } from '../../src/dateformats/search-client.ts';
import { startFakeSearch, type FakeSearch, type Flavour } from '../helpers/fake-search.ts';
import { javaDatesForTests, sharedJavaDates } from '../helpers/java-dates.ts';

/** Converted bodies are JSON of whatever shape went in (typed unknown): the tests read them field by field. */
const json = (body: unknown): any => body;

/*
 * NOTE: Elasticsearch cannot run on this machine. Every test below that talks HTTP talks to test/helpers/fake-search.ts,
 * an in-process server that STANDS IN FOR A REAL 7.x OR 8.x CLUSTER: it implements the endpoints used and validates
 * requests as the real engine does, but it is not Elasticsearch.
 */

/** A 6.x-era mapping with every place a custom format can hide. */
const LEGACY_MAPPING = {
  dynamic_date_formats: ['yyyy/MM/dd'],
  dynamic_templates: [
    { dates_by_name: { match: '*_at', mapping: { type: 'date', format: 'yyyy-MM-dd HH:mm:ss' } } },
    { detected_dates: { match_mapping_type: 'date', mapping: { type: '{dynamic_type}', format: 'dd.MM.yyyy' } } },
    { strings: { match_mapping_type: 'string', mapping: { type: 'keyword', format: 'not-a-date-field' } } },
  ],
  properties: {
    created: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' },
    plain: { type: 'date' },
    epoch: { type: 'date', format: 'epoch_millis' },
    unchanged: { type: 'date', format: 'HH:mm' },
    nanos: { type: 'date_nanos', format: 'YYYY-MM-dd' },
    period: { type: 'date_range', format: 'yyyyMMdd' },
    title: { type: 'text', fields: { raw: { type: 'keyword' }, as_date: { type: 'date', format: 'dd/MM/yyyy' } } },
    event: {
      properties: {
        when: { type: 'date', format: 'EEE, dd MMM yyyy' },
        sessions: { type: 'nested', properties: { started: { type: 'date', format: 'CC' }, note: { type: 'text' } } },
      },
    },
    label: { type: 'keyword' },
  },
};

describe('mapping walk (pure; no cluster)', () => {
  it('finds and converts every custom format: nested, object, multi-fields, dynamic templates, dynamic_date_formats', () => {
    const input = structuredClone({ logs: { mappings: LEGACY_MAPPING } });
    const { logs } = convertMappingResponse(input);
    expect(input).toEqual({ logs: { mappings: LEGACY_MAPPING } }); // not modified
    const byPath = Object.fromEntries(logs!.affected.map((p) => [p.path, p]));
    expect(Object.keys(byPath).sort()).toEqual([
      'mappings.dynamic_date_formats[0]',
      'mappings.dynamic_templates[0].dates_by_name.mapping.format',
      'mappings.dynamic_templates[1].detected_dates.mapping.format',
      'mappings.properties.created.format',
      'mappings.properties.event.properties.sessions.properties.started.format',
      'mappings.properties.event.properties.when.format',
      'mappings.properties.nanos.format',
      'mappings.properties.period.format',
      'mappings.properties.title.fields.as_date.format',
    ]);
    expect(byPath['mappings.properties.title.fields.as_date.format']).toMatchObject({
      kind: 'field',
      field: 'title.as_date',
      format: 'dd/MM/yyyy',
      severity: 'exact',
    });
    expect(byPath['mappings.properties.event.properties.sessions.properties.started.format']).toMatchObject({
      field: 'event.sessions.started',
      severity: 'unsupported',
    });
    expect(byPath['mappings.properties.event.properties.when.format']!.severity).toBe('review');
    expect(byPath['mappings.dynamic_templates[1].detected_dates.mapping.format']).toMatchObject({ kind: 'dynamic_template', field: 'detected_dates' });

    const m = json(logs!.mappings);
    expect(m.properties.created.format).toBe('uuuu-MM-dd||uuuu-MM-d||epoch_millis');
    expect(m.properties.nanos.format).toBe('yyyy-MM-dd||yyyy-MM-d');
    expect(m.properties.title.fields.as_date.format).toBe(byPath['mappings.properties.title.fields.as_date.format']!.conversion.output);
    expect(m.properties.title.fields.raw).toEqual({ type: 'keyword' });
    expect(m.properties.unchanged.format).toBe('HH:mm');
    expect(m.properties.epoch.format).toBe('epoch_millis');
    expect(m.dynamic_templates[2].strings.mapping.format).toBe('not-a-date-field'); // not a date template
    expect(m.dynamic_date_formats[0]).toMatch(/^uuuu\/MM\/dd/);
  });

  it('reads 6.x-style typed mappings, and keeps java formats (8 prefix) and built-in names', () => {
    const { t } = convertMappingResponse({
      t: {
        mappings: {
          _doc: {
            properties: {
              a: { type: 'date', format: 'yyyy' },
              b: { type: 'date', format: '8uuuu-MM-dd' },
              c: { type: 'date', format: 'strictDateOptionalTime' },
            },
          },
        },
      },
    });
    expect(json(t!.mappings)._doc.properties.a.format).toBe('uuuu');
    expect(json(t!.mappings)._doc.properties.b.format).toBe('uuuu-MM-dd');
    expect(json(t!.mappings)._doc.properties.c.format).toBe('strict_date_optional_time');
    expect(t!.affected.map((p) => p.path)).toEqual([
      'mappings._doc.properties.a.format',
      'mappings._doc.properties.b.format',
      'mappings._doc.properties.c.format',
    ]);
  });

  it('a format that is not a Joda pattern is kept and reported as unsupported, not thrown', () => {
    const { x } = convertMappingResponse({ x: { mappings: { properties: { d: { type: 'date', format: 'yyyy-MM-dd bb' } } } } });
    expect(x!.affected[0]).toMatchObject({ severity: 'unsupported', format: 'yyyy-MM-dd bb' });
    expect(json(x!.mappings).properties.d.format).toBe('yyyy-MM-dd bb');
  });

  it('converts composable, component and legacy templates where each keeps its mappings', () => {
    const composable = convertTemplate('index_template', {
      index_patterns: ['logs-*'],
      template: { settings: { number_of_shards: 1 }, mappings: { properties: { ts: { type: 'date', format: 'yyyy-MM-dd' } } } },
    });
    expect(json(composable.body).template.mappings.properties.ts.format).toBe('uuuu-MM-dd||uuuu-MM-d');
    expect(json(composable.body).index_patterns).toEqual(['logs-*']);
    expect(composable.affected[0]!.path).toBe('template.mappings.properties.ts.format');
    const legacy = convertTemplate('legacy_template', {
      order: 0,
      index_patterns: ['old-*'],
      mappings: { _doc: { properties: { ts: { type: 'date', format: 'YYYY' } } } },
    });
    expect(json(legacy.body).mappings._doc.properties.ts.format).toBe('yyyy');
    expect(legacy.affected[0]!.path).toBe('mappings._doc.properties.ts.format');
    expect(convertTemplate('component_template', { template: { settings: {} } }).affected).toEqual([]);
  });

  it("converts ingest date processors' formats, also under on_failure and foreach, splitting alternatives into entries", () => {
    const pipeline = {
      description: 'parse dates',
      processors: [
        { date: { field: 'ts', formats: ['ISO8601', 'dd/MM/yyyy', 'UNIX_MS'] } },
        { foreach: { field: 'events', processor: { date: { field: '_ingest._value.at', formats: ['yyyyMMdd'] } } } },
        { set: { field: 'x', value: 1, on_failure: [{ date: { field: 'fallback', formats: ['YYYY'] } }] } },
        { date_index_name: { field: 'ts', date_rounding: 'M', date_formats: ['yyyy-MM'] } },
      ],
      on_failure: [{ date: { field: 'late', formats: ['epoch_millis', 'yyyy'] } }],
    };
    const { body: converted, affected } = convertPipeline(pipeline);
    const body = json(converted);
    expect(body.processors[0].date.formats).toEqual(['ISO8601', 'dd/MM/uuuu', 'd/MM/uuuu', 'UNIX_MS']);
    expect(body.processors[1].foreach.processor.date.formats).toEqual(['uuuuMMdd']);
    expect(body.processors[2].set.on_failure[0].date.formats).toEqual(['yyyy']);
    expect(body.processors[3].date_index_name.date_formats).toEqual(['uuuu-MM']);
    expect(body.on_failure[0].date.formats).toEqual(['epoch_millis', 'uuuu']);
    expect(affected.map((p) => p.path)).toEqual([
      'processors[0].date.formats[1]',
      'processors[1].foreach.processor.date.formats[0]',
      'processors[2].set.on_failure[0].date.formats[0]',
      'processors[3].date_index_name.date_formats[0]',
      'on_failure[0].date.formats[1]',
    ]);
    expect(affected[1]!.field).toBe('_ingest._value.at');
  });

  it('reads index.version.created', () => {
    expect(createdMajor('6080099')).toBe(6);
    expect(createdMajor('7170999')).toBe(7);
    expect(createdMajor(undefined)).toBeUndefined();
  });
});

describe.each<Flavour>(['7', '8'])('scan against the fake %s.x cluster (stands in for a real one)', (flavour) => {
  let fake: FakeSearch;
  afterEach(() => fake?.close());

  async function seeded(): Promise<FakeSearch> {
    fake = await startFakeSearch({ flavour });
    // On 7.x the interesting indices were created by 6.x; an 8.x cluster only has indices created by 7.x or later.
    const legacyVersion = flavour === '7' ? '6080099' : '7170099';
    fake.addIndex('logs-2019', { mappings: LEGACY_MAPPING, aliases: { logs: {} }, createdVersion: legacyVersion });
    fake.addIndex('clean', { mappings: { properties: { ts: { type: 'date' }, e: { type: 'date', format: 'epoch_millis' } } }, createdVersion: legacyVersion });
    fake.addIndex('modern', {
      mappings: { properties: { ts: { type: 'date', format: 'yyyy-MM-dd' } } },
      createdVersion: flavour === '7' ? '7100099' : '8120299',
    });
    fake.indexTemplates.set('logs', {
      index_patterns: ['logs-*'],
      template: { mappings: { properties: { ts: { type: 'date', format: 'yyyy-MM-dd HH:mm' } } } },
    });
    fake.indexTemplates.set('fine', { index_patterns: ['fine-*'], template: { mappings: { properties: { ts: { type: 'date' } } } } });
    fake.componentTemplates.set('dates', {
      template: { mappings: { dynamic_templates: [{ d: { match: '*_on', mapping: { type: 'date', format: 'dd.MM.YYYY' } } }] } },
    });
    fake.legacyTemplates.set('old', {
      order: 0,
      index_patterns: ['old-*'],
      settings: {},
      mappings: { properties: { ts: { type: 'date', format: 'yyyyMMdd' } } },
      aliases: {},
    });
    fake.pipelines.set('ingest-dates', { processors: [{ date: { field: 'ts', formats: ['dd/MM/yyyy HH:mm:ss'] } }] });
    fake.extraClusterDeprecations.push({
      level: 'warning',
      message: 'Date formats in ingest pipelines use deprecated Joda patterns',
      details: 'pipelines: [ingest-dates]',
    });
    fake.extraClusterDeprecations.push({ level: 'critical', message: 'A date format issue we do not know', details: 'somewhere else' });
    return fake;
  }

  it('lists every affected index field, template and pipeline with conversion, severity and fix', async () => {
    await seeded();
    // On 8.x every index was created by 7.x or later: listed only with includeJavaIndices.
    const result = await scanCluster(new SearchClient({ url: fake.url }), { includeJavaIndices: flavour === '8' });
    expect(result.cluster.version).toBe(fake.version);
    const names = result.targets.map((t) => `${t.kind}:${t.name}`);
    const indices = flavour === '7' ? ['index:logs-2019'] : ['index:logs-2019', 'index:modern'];
    expect(names).toEqual([...indices, 'index_template:logs', 'component_template:dates', 'legacy_template:old', 'pipeline:ingest-dates']);
    expect(result.skippedJavaIndices).toEqual(flavour === '7' ? ['modern'] : []);

    const index = result.targets[0]!;
    expect(index.aliases).toEqual(['logs']);
    expect(index.severity).toBe('unsupported'); // the CC field
    expect(index.places).toHaveLength(9);
    expect(index.fix).toEqual({ command: flavour === '7' ? 'adgraph dates migrate --index logs' : 'adgraph dates migrate --index logs --assume-joda' });

    const template = result.targets.find((t) => t.name === 'logs')!;
    expect(template.fix).toMatchObject({ request: { method: 'PUT', path: '/_index_template/logs' } });
    expect((template.fix as any).request.body.template.mappings.properties.ts.format).toMatch(/^uuuu-MM-dd HH:mm/);
    const pipeline = result.targets.find((t) => t.kind === 'pipeline')!;
    expect((pipeline.fix as any).request).toMatchObject({ method: 'PUT', path: '/_ingest/pipeline/ingest-dates' });
    const places = flavour === '7' ? 13 : 14;
    expect(result.summary).toMatchObject({ indices: indices.length, templates: 3, pipelines: 1, places });
    expect(result.summary.exact + result.summary.review + result.summary.unsupported).toBe(places);
    // Only GETs.
    expect(fake.writes).toEqual([]);
  });

  it(
    flavour === '7' ? 'matches what GET /_migration/deprecations reports to the same places' : 'copes with a cluster without the deprecation info API',
    async () => {
      await seeded();
      const result = await scanCluster(new SearchClient({ url: fake.url }), { includeJavaIndices: flavour === '8' });
      if (flavour === '8') {
        expect(result.deprecations).toEqual({ available: false, unmatched: [] });
        expect(result.targets.flatMap((t) => t.places).every((p) => p.deprecations.length === 0)).toBe(true);
        return;
      }
      expect(result.deprecations.available).toBe(true);
      const index = result.targets[0]!;
      // The 7.x entry names the fields of `properties` it found; they get it, the dynamic template does not.
      const flagged = index.places.filter((p) => p.deprecations.length).map((p) => p.field);
      expect(flagged).toContain('created');
      expect(flagged).toContain('event.sessions.started');
      expect(flagged).not.toContain('detected_dates');
      expect(index.places.find((p) => p.field === 'created')!.deprecations[0]!.message).toMatch(/Date field format/);
      // The non-date deprecation is left out; the pipeline entry goes to the pipeline; the unknown one is kept apart.
      expect(result.targets.find((t) => t.kind === 'pipeline')!.places[0]!.deprecations[0]!.message).toMatch(/ingest pipelines/);
      expect(result.deprecations.unmatched.map((d) => d.message)).toEqual(['A date format issue we do not know']);
    },
  );

  it('lists the 7.0+ indices too when asked', async () => {
    await seeded();
    const result = await scanCluster(new SearchClient({ url: fake.url }), { includeJavaIndices: true });
    expect(result.targets.find((t) => t.name === 'modern')).toMatchObject({ kind: 'index', createdMajor: flavour === '7' ? 7 : 8 });
  });

  it('by default leaves out indices created by 7.0 or later, and says so', async () => {
    await seeded();
    const result = await scanCluster(new SearchClient({ url: fake.url }));
    expect(result.targets.filter((t) => t.kind === 'index').map((t) => t.name)).toEqual(flavour === '7' ? ['logs-2019'] : []);
    expect(result.skippedJavaIndices).toEqual(flavour === '7' ? ['modern'] : ['logs-2019', 'modern']);
  });

  it('an empty cluster needs nothing (no pipelines answers 404 {})', async () => {
    fake = await startFakeSearch({ flavour });
    const result = await scanCluster(new SearchClient({ url: fake.url }));
    expect(result.targets).toEqual([]);
    expect(result.summary.places).toBe(0);
  });
});

describe('search client errors (against the fake cluster, standing in for a real one)', () => {
  let fake: FakeSearch;
  afterEach(() => fake?.close());

  /** The error a request that must fail rejects with: a SearchError. */
  async function failureOf(request: Promise<unknown>): Promise<SearchError> {
    const error = await request.then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(SearchError);
    return error as SearchError;
  }

  it('gives method, path, status and the engine reason, and no credentials', async () => {
    fake = await startFakeSearch({ flavour: '7', basic: { user: 'elastic', password: 's3cr3t-pw' } });
    const client = new SearchClient({ url: fake.url.replace('http://', 'http://elastic:s3cr3t-pw@') });
    const error = await failureOf(client.request('GET', '/nope/_mapping'));
    expect(error.message).toBe('GET /nope/_mapping failed with HTTP 404: index_not_found_exception: no such index [nope]');
    expect(error.status).toBe(404);
    expect(JSON.stringify(client)).not.toContain('s3cr3t');
    expect(client.baseUrl).toBe(fake.url);

    const wrong = new SearchClient({ url: fake.url.replace('http://', 'http://elastic:wrong-pw@') });
    const denied = await failureOf(wrong.request('GET', '/'));
    expect(denied.message).toMatch(
      /^GET \/ failed with HTTP 401: security_exception: unable to authenticate user for REST request \[\/\] \(check the credentials/,
    );
    expect(denied.message).not.toContain('wrong-pw');

    const down = new SearchClient({ url: 'http://elastic:s3cr3t-pw@127.0.0.1:9' });
    const unreachable = await failureOf(down.request('GET', '/'));
    expect(unreachable.message).toMatch(/^cannot reach the search engine at http:\/\/127\.0\.0\.1:9 /);
    expect(unreachable.message).not.toContain('s3cr3t');
  });

  it('reads the bare-string error of GET /_alias/<missing>', async () => {
    fake = await startFakeSearch({ flavour: '8' });
    const error = await failureOf(new SearchClient({ url: fake.url }).request('GET', '/_alias/ghost'));
    expect(error.message).toBe('GET /_alias/ghost failed with HTTP 404: alias [ghost] missing');
  });
});

/*
 * The fake's own date behaviour (what migrate.test.ts relies on): formats checked at index creation and documents
 * parsed on _reindex with java.time, through one JVM for this file. Without a JDK: fails in CI, skipped elsewhere.
 */
const { skip: skipJava } = javaDatesForTests('fake cluster date tests');

describe.skipIf(skipJava).each<Flavour>(['7', '8'])('the fake %s.x cluster reads dates with java.time, as the engine does', (flavour) => {
  let fake: FakeSearch;
  afterEach(() => fake?.close());

  async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(fake.url + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }
  /** A source index as 6.x left it (never checked), and a destination created through the API with these fields. */
  async function reindexInto(
    properties: Record<string, unknown>,
    docs: Array<Record<string, unknown>>,
    settings: Record<string, unknown> = {},
    batchSize = 100,
  ) {
    fake = await startFakeSearch({ flavour, batchSize });
    fake.addIndex('src', { createdVersion: '6080099', mappings: { properties: { when: { type: 'date', format: 'CC' } } }, docs });
    expect((await send('PUT', '/dest', { settings, mappings: { properties } })).status).toBe(200);
    const { body } = await send('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'dest' } });
    return { response: body, copied: [...fake.indices.get('dest')!.docs.keys()] };
  }
  const outerReason = (reason: string) => `Failed to parse mapping${flavour === '7' ? ' [_doc]' : ''}: ${reason}`;

  it.each([
    ['a field', { when: { type: 'date', format: 'uuuu-MM-dd||CCuu' } }, 'when', 'CCuu', 'Unknown pattern letter: C'],
    [
      'an object or nested field',
      { event: { type: 'nested', properties: { at: { type: 'date_nanos', format: 'uuuu-MM-dd bb' } } } },
      'at',
      'uuuu-MM-dd bb',
      'Unknown pattern letter: b',
    ],
    [
      'a multi-field',
      { title: { type: 'text', fields: { as_date: { type: 'date', format: 'not_a_format' } } } },
      'as_date',
      'not_a_format',
      'Unknown pattern letter: o',
    ],
  ])('PUT /<index> refuses a format java.time refuses in %s, with the engine error, and creates nothing', async (_where, properties, field, pattern, why) => {
    fake = await startFakeSearch({ flavour });
    const { status, body } = await send('PUT', '/refused', { mappings: { properties } });
    const invalid = `Invalid format: [${pattern}]: ${why}`;
    const onField = `Error parsing [format] on field [${field}]: ${invalid}`;
    expect(status).toBe(400);
    expect(body).toEqual({
      status: 400,
      error: {
        root_cause: [{ type: 'mapper_parsing_exception', reason: outerReason(onField) }],
        type: 'mapper_parsing_exception',
        reason: outerReason(onField),
        caused_by: {
          type: 'illegal_argument_exception',
          reason: onField,
          caused_by: { type: 'illegal_argument_exception', reason: invalid, caused_by: { type: 'illegal_argument_exception', reason: why } },
        },
      },
    });
    expect(fake.indices.has('refused')).toBe(false);
  });

  it('PUT /<index> accepts no format (the default), built-in names, and java patterns; an index added as 6.x is never checked', async () => {
    fake = await startFakeSearch({ flavour });
    fake.addIndex('legacy', { createdVersion: '6080099', mappings: { properties: { century: { type: 'date', format: 'CC' } } } });
    const properties = {
      plain: { type: 'date' },
      nanos: { type: 'date_nanos' },
      named: { type: 'date', format: 'strict_date_optional_time||basic_date||epoch_second' },
      week: { type: 'date', format: "YYYY-'W'ww-c" },
    };
    expect(await send('PUT', '/fine', { mappings: { properties } })).toMatchObject({ status: 200, body: { acknowledged: true } });
    expect(fake.indices.get('fine')!.mappings.properties).toEqual(properties);
  });

  it('_reindex parses every date value with the destination format; a refused one fails its document, the rest of its batch is written, and the task stops', async () => {
    const docs = [
      { id: 'n1', when: '2020-01-01' },
      { id: 'n2', when: 1577836800000 }, // a JSON number is parsed as its text: epoch_millis takes it
      { id: 'n3', when: ['2020-01-02', null] }, // each element; null is no value
      { id: 'n4', tags: 'x', when: '2020/01/03' },
      { id: 'n5', when: '2020-01-04' },
      { id: 'n6', when: ['2020-01-05', true] },
      { id: 'n7', when: '2020-01-06' },
    ];
    const { response, copied } = await reindexInto({ when: { type: 'date', format: 'uuuu-MM-dd||epoch_millis' } }, docs, {}, 3);
    // Batches of 3: n1-n3 | n4-n6 (n4 and n6 fail, n5 is written) | n7 never copied.
    expect(copied).toEqual(['n1', 'n2', 'n3', 'n5']);
    expect(response).toMatchObject({ total: 7, created: 4, batches: 2 });
    // 8.x: where the value's JSON token starts in the source.
    const column = (id: string, token: string) => JSON.stringify(docs.find((d) => d.id === id)).indexOf(token) + 1;
    const failure = (id: string, value: string, javaReason: string, token = JSON.stringify(value)) => ({
      index: 'dest',
      ...(flavour === '7' ? { type: '_doc' } : {}),
      id,
      status: 400,
      cause: {
        type: flavour === '7' ? 'mapper_parsing_exception' : 'document_parsing_exception',
        reason: `${flavour === '8' ? `[1:${column(id, token)}] ` : ''}failed to parse field [when] of type [date] in document with id '${id}'. Preview of field's value: '${value}'`,
        caused_by: {
          type: 'illegal_argument_exception',
          reason: `failed to parse date field [${value}] with format [uuuu-MM-dd||epoch_millis]`,
          caused_by: { type: 'date_time_parse_exception', reason: javaReason },
        },
      },
    });
    expect(response.failures).toEqual([
      failure('n4', '2020/01/03', 'Failed to parse with all enclosed parsers'),
      failure('n6', 'true', 'Failed to parse with all enclosed parsers', 'true'),
    ]);
  });

  it('_reindex checks nested and object values, multi-fields, and date_nanos range', async () => {
    const { response, copied } = await reindexInto(
      {
        title: { type: 'text', fields: { as_date: { type: 'date', format: 'dd/MM/uuuu' } } },
        event: { type: 'nested', properties: { at: { type: 'date', format: 'uuuu-MM-dd' } } },
        nanos: { type: 'date_nanos', format: 'uuuu-MM-dd' },
      },
      [
        { id: 'ok', title: '31/12/2020', event: [{ at: '2020-01-01' }, { at: '2020-02-29' }], nanos: '2262-04-11' },
        { id: 'title', title: 'not a date' },
        { id: 'event', event: [{ at: '2020-01-01' }, { at: '2021-02-29' }] },
        { id: 'dotted', 'event.at': '2020-1-01' },
        { id: 'early', nanos: '1969-12-31' },
        { id: 'late', nanos: '2262-04-12' },
      ],
    );
    expect(copied).toEqual(['ok']);
    const causes = Object.fromEntries(response.failures.map((f: any) => [f.id, f.cause.reason.replace(/^\[1:\d+\] /, '')]));
    expect(causes).toEqual({
      title: "failed to parse field [title.as_date] of type [date] in document with id 'title'. Preview of field's value: 'not a date'",
      event: "failed to parse field [event.at] of type [date] in document with id 'event'. Preview of field's value: '2021-02-29'",
      dotted: "failed to parse field [event.at] of type [date] in document with id 'dotted'. Preview of field's value: '2020-1-01'",
      early: "failed to parse field [nanos] of type [date_nanos] in document with id 'early'. Preview of field's value: '1969-12-31'",
      late: "failed to parse field [nanos] of type [date_nanos] in document with id 'late'. Preview of field's value: '2262-04-12'",
    });
    const early = response.failures.find((f: any) => f.id === 'early');
    expect(early.cause.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: 'date[1969-12-31T00:00:00Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution',
    });
  });

  it('ignore_malformed (the field, else the index setting) leaves a refused value out and keeps the document', async () => {
    const docs = [
      { id: 'bad', a: 'nope', b: 'nope' },
      { id: 'good', a: '2020-01-01', b: '2020-01-01' },
    ];
    const perField = await reindexInto(
      { a: { type: 'date', format: 'uuuu-MM-dd', ignore_malformed: true }, b: { type: 'date', format: 'uuuu-MM-dd', ignore_malformed: true } },
      docs,
    );
    expect(perField).toMatchObject({ copied: ['bad', 'good'], response: { failures: [] } });
    await fake.close();
    const perIndex = await reindexInto(
      { a: { type: 'date', format: 'uuuu-MM-dd' }, b: { type: 'date', format: 'uuuu-MM-dd', ignore_malformed: false } },
      docs,
      { index: { mapping: { ignore_malformed: true } } },
    );
    expect(perIndex.copied).toEqual(['good']);
    expect(perIndex.response.failures.map((f: any) => f.cause.reason.replace(/^\[1:\d+\] /, ''))).toEqual([
      "failed to parse field [b] of type [date] in document with id 'bad'. Preview of field's value: 'nope'",
    ]);
  });

  it('a value only a built-in name could parse (not emulated) is accepted, and listed as unchecked', async () => {
    const { response, copied } = await reindexInto({ at: { type: 'date' }, day: { type: 'date', format: 'basic_date||uuuu-MM-dd' } }, [
      { id: 'iso', at: '2020-01-01T10:00:00.123Z', day: '20200101' },
      { id: 'millis', at: 1577836800000, day: '2020-01-01' },
    ]);
    expect(response.failures).toEqual([]);
    expect(copied).toEqual(['iso', 'millis']);
    expect(fake.uncheckedDates).toEqual([
      { index: 'dest', id: 'iso', field: 'at', value: '2020-01-01T10:00:00.123Z', format: 'strict_date_optional_time||epoch_millis' },
      { index: 'dest', id: 'iso', field: 'day', value: '20200101', format: 'basic_date||uuuu-MM-dd' },
    ]);
  });

  it('a reindex into an index created by 6.x (Joda) does not parse its dates', async () => {
    fake = await startFakeSearch({ flavour });
    fake.addIndex('src', { createdVersion: '6080099', docs: [{ id: 'x', when: '2020/01/03' }] });
    fake.addIndex('old-dest', { createdVersion: '6080099', mappings: { properties: { when: { type: 'date', format: 'yyyy-MM-dd' } } } });
    const { body } = await send('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'old-dest' } });
    expect(body).toMatchObject({ created: 1, failures: [] });
  });
});

describe.skipIf(skipJava)('the java.time helper behind the fake cluster', () => {
  it('carries any character, answers many requests in order, and says why a format or a value is refused', async () => {
    const dates = sharedJavaDates();
    const format = "uuuu'\t|\n→ é'MM";
    const [parsed, refusedValue, refusedFormat, withBuiltIn] = await Promise.all([
      dates.parse(format, '2020\t|\n→ é02'),
      dates.parse(format, '2020-02'),
      dates.validate('uuuu||CC'),
      dates.validate('basic_date||uuuu'),
    ]);
    expect(parsed).toEqual({ outcome: 'parsed', millis: Date.UTC(2020, 1, 1) });
    expect(refusedValue).toEqual({ outcome: 'failed', exception: 'DateTimeParseException', reason: "Text '2020-02' could not be parsed at index 4" });
    expect(refusedFormat).toEqual({ valid: false, reason: 'Invalid format: [CC]: Unknown pattern letter: C', cause: 'Unknown pattern letter: C' });
    expect(withBuiltIn).toEqual({ valid: true, uncheckedBuiltIns: ['basic_date'] });
    const years = Array.from({ length: 200 }, (_, i) => 1900 + i);
    expect(
      (await Promise.all(years.map((y) => dates.parse('uuuu', String(y))))).map((p) => p.outcome === 'parsed' && new Date(p.millis).getUTCFullYear()),
    ).toEqual(years);
  });
});
