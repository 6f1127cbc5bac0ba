import { afterEach, describe, expect, it } from 'vitest';
import { scanCluster } from '../../src/dateformats/cluster.ts';
import { convertMappingResponse, convertPipeline, convertTemplate, createdMajor } from '../../src/dateformats/mapping.ts';
import { SearchClient, SearchError } from '../../src/dateformats/search-client.ts';
import { startFakeSearch, type FakeSearch, type Flavour } from '../helpers/fake-search.ts';

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
    expect(byPath['mappings.properties.title.fields.as_date.format']).toMatchObject({ kind: 'field', field: 'title.as_date', format: 'dd/MM/yyyy', severity: 'exact' });
    expect(byPath['mappings.properties.event.properties.sessions.properties.started.format']).toMatchObject({ field: 'event.sessions.started', severity: 'unsupported' });
    expect(byPath['mappings.properties.event.properties.when.format']!.severity).toBe('review');
    expect(byPath['mappings.dynamic_templates[1].detected_dates.mapping.format']).toMatchObject({ kind: 'dynamic_template', field: 'detected_dates' });

    const m = logs!.mappings;
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
    const { t } = convertMappingResponse({ t: { mappings: { _doc: { properties: { a: { type: 'date', format: 'yyyy' }, b: { type: 'date', format: '8uuuu-MM-dd' }, c: { type: 'date', format: 'strictDateOptionalTime' } } } } } });
    expect(t!.mappings._doc.properties.a.format).toBe('uuuu');
    expect(t!.mappings._doc.properties.b.format).toBe('uuuu-MM-dd');
    expect(t!.mappings._doc.properties.c.format).toBe('strict_date_optional_time');
    expect(t!.affected.map((p) => p.path)).toEqual(['mappings._doc.properties.a.format', 'mappings._doc.properties.b.format', 'mappings._doc.properties.c.format']);
  });

  it('a format that is not a Joda pattern is kept and reported as unsupported, not thrown', () => {
    const { x } = convertMappingResponse({ x: { mappings: { properties: { d: { type: 'date', format: 'yyyy-MM-dd bb' } } } } });
    expect(x!.affected[0]).toMatchObject({ severity: 'unsupported', format: 'yyyy-MM-dd bb' });
    expect(x!.mappings.properties.d.format).toBe('yyyy-MM-dd bb');
  });

  it('converts composable, component and legacy templates where each keeps its mappings', () => {
    const composable = convertTemplate('index_template', { index_patterns: ['logs-*'], template: { settings: { number_of_shards: 1 }, mappings: { properties: { ts: { type: 'date', format: 'yyyy-MM-dd' } } } } });
    expect(composable.body.template.mappings.properties.ts.format).toBe('uuuu-MM-dd||uuuu-MM-d');
    expect(composable.body.index_patterns).toEqual(['logs-*']);
    expect(composable.affected[0]!.path).toBe('template.mappings.properties.ts.format');
    const legacy = convertTemplate('legacy_template', { order: 0, index_patterns: ['old-*'], mappings: { _doc: { properties: { ts: { type: 'date', format: 'YYYY' } } } } });
    expect(legacy.body.mappings._doc.properties.ts.format).toBe('yyyy');
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
    const { body, affected } = convertPipeline(pipeline);
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
    fake.addIndex('modern', { mappings: { properties: { ts: { type: 'date', format: 'yyyy-MM-dd' } } }, createdVersion: flavour === '7' ? '7100099' : '8120299' });
    fake.indexTemplates.set('logs', { index_patterns: ['logs-*'], template: { mappings: { properties: { ts: { type: 'date', format: 'yyyy-MM-dd HH:mm' } } } } });
    fake.indexTemplates.set('fine', { index_patterns: ['fine-*'], template: { mappings: { properties: { ts: { type: 'date' } } } } });
    fake.componentTemplates.set('dates', { template: { mappings: { dynamic_templates: [{ d: { match: '*_on', mapping: { type: 'date', format: 'dd.MM.YYYY' } } }] } } });
    fake.legacyTemplates.set('old', { order: 0, index_patterns: ['old-*'], settings: {}, mappings: { properties: { ts: { type: 'date', format: 'yyyyMMdd' } } }, aliases: {} });
    fake.pipelines.set('ingest-dates', { processors: [{ date: { field: 'ts', formats: ['dd/MM/yyyy HH:mm:ss'] } }] });
    fake.extraClusterDeprecations.push({ level: 'warning', message: 'Date formats in ingest pipelines use deprecated Joda patterns', details: 'pipelines: [ingest-dates]' });
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

  it(flavour === '7' ? 'matches what GET /_migration/deprecations reports to the same places' : 'copes with a cluster without the deprecation info API', async () => {
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
  });

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

  it('gives method, path, status and the engine reason, and no credentials', async () => {
    fake = await startFakeSearch({ flavour: '7', basic: { user: 'elastic', password: 's3cr3t-pw' } });
    const client = new SearchClient({ url: fake.url.replace('http://', 'http://elastic:s3cr3t-pw@') });
    const error = await client.request('GET', '/nope/_mapping').catch((e) => e);
    expect(error).toBeInstanceOf(SearchError);
    expect(error.message).toBe('GET /nope/_mapping failed with HTTP 404: index_not_found_exception: no such index [nope]');
    expect(error.status).toBe(404);
    expect(JSON.stringify(client)).not.toContain('s3cr3t');
    expect(client.baseUrl).toBe(fake.url);

    const wrong = new SearchClient({ url: fake.url.replace('http://', 'http://elastic:wrong-pw@') });
    const denied = await wrong.request('GET', '/').catch((e) => e);
    expect(denied.message).toMatch(/^GET \/ failed with HTTP 401: security_exception: unable to authenticate user for REST request \[\/\] \(check the credentials/);
    expect(denied.message).not.toContain('wrong-pw');

    const down = new SearchClient({ url: 'http://elastic:s3cr3t-pw@127.0.0.1:9' });
    const unreachable = await down.request('GET', '/').catch((e) => e);
    expect(unreachable.message).toMatch(/^cannot reach the search engine at http:\/\/127\.0\.0\.1:9 /);
    expect(unreachable.message).not.toContain('s3cr3t');
  });

  it('reads the bare-string error of GET /_alias/<missing>', async () => {
    fake = await startFakeSearch({ flavour: '8' });
    const error = await new SearchClient({ url: fake.url }).request('GET', '/_alias/ghost').catch((e) => e);
    expect(error.message).toBe('GET /_alias/ghost failed with HTTP 404: alias [ghost] missing');
  });
});
