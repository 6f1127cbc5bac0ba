import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sharedJavaDates, type DateParse, type JavaDates } from './java-dates.ts';

/**
 * A FAKE Elasticsearch: an in-process HTTP server on 127.0.0.1 that STANDS IN FOR A REAL CLUSTER in the date-format
 * tests. No Elasticsearch can run on these machines (no Docker; not packaged in Debian or npm), so this server
 * implements only the endpoints the scan and the migration use, and validates requests the way the real engine does
 * (Elasticsearch 7.17 / 8.x behaviour as documented; not verified against a live cluster from here):
 *
 * - `Content-Type: application/json` required on a body (406 otherwise); basic or API-key auth when configured (401
 *   `security_exception` otherwise);
 * - `PUT /<index>` refuses an existing index (400 `resource_already_exists_exception`) and private settings
 *   (`index.uuid`, `index.creation_date`, `index.version.*`, `index.provided_name`: 400 `illegal_argument_exception`);
 * - `POST /_aliases` is atomic: every action is checked first (404 `index_not_found_exception`, 404
 *   `aliases_not_found_exception`, 400 `invalid_alias_name_exception`), then all are applied, or none;
 * - `POST /_reindex?wait_for_completion=false` starts a task (`{"task": "node:id"}`); the task advances `batchSize`
 *   documents on every `GET /_tasks/<id>` (deterministic, no timers); `op_type: create` counts existing documents as
 *   version conflicts (aborting unless `conflicts: proceed`); a reindex into a missing index creates it with a dynamic
 *   mapping, as the real engine does; failures can be injected in the middle of a task (`failReindexAt`);
 * - `_count` counts what the last `_refresh` made visible (documents a reindex wrote are not counted before a
 *   refresh, as in the real engine);
 * - `GET /_alias/<missing>` answers 404 with a bare-string `error`, `GET /_ingest/pipeline` with none answers 404 `{}`,
 *   unknown endpoints 400 "no handler found".
 *
 * Dates, as 7.x/8.x read them with java.time, through test/helpers/java-dates.ts (one JVM per test file running the
 * shared oracle's `EsDateOracle.JavaSide`: Locale.ROOT, STRICT resolving, ISO chronology, ISO weeks, alternatives of a
 * `||` format tried in order, the first that consumes the whole value wins, ES's defaults for missing fields, UTC):
 *
 * - `PUT /<index>` checks the `format` of every `date`/`date_nanos` field (object and nested properties, multi-fields);
 *   one java.time refuses answers 400 `mapper_parsing_exception` "Failed to parse mapping [_doc]: Error parsing
 *   [format] on field [<name>]: Invalid format: [<pattern>]: <why>" (8.x: "Failed to parse mapping: ...") with the
 *   `illegal_argument_exception` chain, and the index is not created. Without `format` the engine's default
 *   (`strict_date_optional_time||epoch_millis`, `..._nanos` for date_nanos) applies.
 * - `_reindex` parses every value of every date field of the destination's mapping with its format: each element of
 *   an array, a number or a boolean as the text of its JSON token (`1262304000000` with `epoch_millis`), null skipped.
 *   A refused value fails its document with the engine's cause (7.x `mapper_parsing_exception`, 8.x
 *   `document_parsing_exception` with the value's `[1:column]` in the compact JSON of the source): "failed to parse
 *   field [<field>] of type [date] in document with id '<id>'. Preview of field's value: '<value>'", caused by
 *   `illegal_argument_exception` "failed to parse date field [<value>] with format [<format>]" and java.time's own
 *   exception. As in the engine, the batch (bulk request) holding it still writes its other documents, and the task
 *   then ends with `failures`; later batches are not copied.
 * - `ignore_malformed` (the field's, else `index.mapping.ignore_malformed`) leaves a refused value out and keeps the
 *   document (nothing is recorded in `_ignored`); `date_nanos` values before 1970 or after 2262-04-11 are refused.
 * - Built-in names other than `epoch_millis`/`epoch_second` (`strict_date_optional_time`, `basic_date`, ...) are not
 *   emulated: a format made of them is accepted, and a value that no emulated alternative of such a format parses is
 *   accepted unchecked and listed in `uncheckedDates` (so a test can tell). A name that is not a built-in is read as
 *   a pattern, as the engine does (`not_a_format` is refused).
 * - Indices added with `addIndex` (e.g. 6.x-created ones holding Joda formats) are never checked; documents are only
 *   parsed when the destination was created by 7.0 or later.
 *
 * Not emulated about dates: the built-ins above; the `locale` parameter (always Locale.ROOT); `null_value`; dynamic
 * mapping (unmapped fields are copied unparsed: no date detection, `dynamic_date_formats` and `dynamic_templates` are
 * neither checked nor applied); `PUT /<index>/_mapping` formats are not checked; an object where a date is expected
 * is not refused; date_nanos precision (values are checked to the millisecond, stored as sent); the camelCase names'
 * deprecation (and their removal in 8.x); what the document's stored instant would be (`_source` is copied as is).
 *
 * Flavours: `7` (7.17.x) and `8` (8.x). Differences modelled: the version; the 7.x reindex task description ends in
 * `[_doc]` and its failures carry `type: "_doc"`; 8.x tasks have `cancelled`; 8.x error bodies drop `root_cause`
 * `index_uuid` noise (cosmetic); the deprecation info API `GET /_migration/deprecations` answers on 7 (reporting
 * 6.x-created indices with Joda date formats, as 7.x does) and is absent on 8 by default (`deprecationApi`), which also
 * stands for a cluster without it (e.g. the OSS 7.x distribution; a real 8.x has the endpoint but nothing Joda to
 * report); legacy `_template`s exist in both (as in the real 8.x).
 */

export type Flavour = '7' | '8';

export interface FakeIndex {
  mappings: Record<string, any>;
  /** Flat-ish `index.*` settings, stored without the `index.` prefix, values as strings like the engine returns. */
  settings: Record<string, any>;
  aliases: Record<string, Record<string, unknown>>;
  docs: Map<string, Record<string, unknown>>;
  /** Documents visible to search/count (as of the last refresh). */
  visible: number;
  createdVersion: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  authorization?: string;
}

interface FakeTask {
  id: string;
  source: string;
  dest: string;
  opType: 'index' | 'create';
  proceed: boolean;
  ids: string[];
  position: number;
  created: number;
  updated: number;
  conflicts: number;
  batches: number;
  failures: any[];
  completed: boolean;
  startedAt: number;
  /** The batch being copied (date checks are asynchronous): a second poll waits for it instead of copying it again. */
  copying?: Promise<void>;
}

export interface FakeSearchOptions {
  flavour: Flavour;
  /** Require basic auth with these credentials. */
  basic?: { user: string; password: string };
  /** Require `Authorization: ApiKey base64(id:key)`. */
  apiKey?: { id: string; key: string };
  deprecationApi?: boolean;
  /** Documents copied per `GET /_tasks/<id>`. */
  batchSize?: number;
  /** java.time for the date formats and values of the indices this cluster creates; the test file's one helper by default. */
  javaDates?: JavaDates;
}

/** A date value the fake accepted without checking it: only a built-in format the oracle does not emulate could parse it. */
export interface UncheckedDate {
  index: string;
  id: string;
  field: string;
  value: string;
  format: string;
}

const NODE = 'fAkEnOdE0000000000000w';

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

export class FakeSearch {
  readonly flavour: Flavour;
  readonly indices = new Map<string, FakeIndex>();
  readonly indexTemplates = new Map<string, any>();
  readonly componentTemplates = new Map<string, any>();
  readonly legacyTemplates = new Map<string, any>();
  readonly pipelines = new Map<string, any>();
  readonly tasks = new Map<string, FakeTask>();
  readonly calls: RecordedCall[] = [];
  /** Extra entries for `GET /_migration/deprecations` (`cluster_settings`). */
  readonly extraClusterDeprecations: any[] = [];
  /** Make the next matching request fail once with this status (simulates a crash or a proxy error). */
  readonly failures: Array<{ method: string; path: RegExp; status: number }> = [];
  /** The reindex task fails once it has copied this many documents (a mapping error on the next one). */
  failReindexAt: number | undefined;
  /** Date values accepted without a check (see UncheckedDate), in the order they were copied. */
  readonly uncheckedDates: UncheckedDate[] = [];
  url = '';
  private server?: Server;
  private nextTask = 1000;
  private readonly options: FakeSearchOptions;
  private readonly javaDates: JavaDates;

  constructor(options: FakeSearchOptions) {
    this.options = options;
    this.flavour = options.flavour;
    this.javaDates = options.javaDates ?? sharedJavaDates();
  }

  get version(): string {
    return this.flavour === '7' ? '7.17.9' : '8.12.2';
  }

  /** Requests that change the cluster (everything but GET/HEAD). */
  get writes(): RecordedCall[] {
    return this.calls.filter((c) => c.method !== 'GET' && c.method !== 'HEAD');
  }

  addIndex(
    name: string,
    init: {
      mappings?: Record<string, any>;
      settings?: Record<string, any>;
      aliases?: Record<string, Record<string, unknown>>;
      docs?: Array<Record<string, unknown>>;
      createdVersion?: string;
    },
  ): void {
    const docs = new Map<string, Record<string, unknown>>();
    (init.docs ?? []).forEach((doc, i) => docs.set(String(doc.id ?? i + 1), doc));
    this.indices.set(name, {
      mappings: structuredClone(init.mappings ?? {}),
      settings: { number_of_shards: '1', number_of_replicas: '1', ...stringify(init.settings ?? {}) },
      aliases: structuredClone(init.aliases ?? {}),
      docs,
      visible: docs.size,
      createdVersion: init.createdVersion ?? (this.flavour === '7' ? '6080099' : '7170099'),
    });
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server.closeAllConnections(); // fetch keeps connections alive
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    const query = Object.fromEntries(url.searchParams);
    let body: any;
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'x-elastic-product': 'Elasticsearch' });
      res.end(JSON.stringify(payload));
    };
    try {
      if (raw) {
        if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
          throw new HttpError(406, { error: `Content-Type header [${req.headers['content-type'] ?? ''}] is not supported`, status: 406 });
        }
        try {
          body = JSON.parse(raw);
        } catch {
          throw this.error(400, 'parse_exception', 'request body is required');
        }
      }
      this.calls.push({ method: req.method!, path, query, body, authorization: req.headers.authorization });
      this.authenticate(req.headers.authorization, path);
      const injected = this.failures.findIndex((f) => f.method === req.method && f.path.test(path));
      if (injected >= 0) {
        const [failure] = this.failures.splice(injected, 1);
        throw this.error(failure!.status, 'injected_failure_exception', 'injected failure (the test stands in for a crash)');
      }
      const [status, payload] = await this.route(req.method!, path, query, body);
      send(status, payload);
    } catch (error) {
      if (error instanceof HttpError) send(error.status, error.body);
      else send(500, { error: { type: 'exception', reason: String(error) }, status: 500 });
    }
  }

  private authenticate(header: string | undefined, path: string): void {
    const { basic, apiKey } = this.options;
    if (!basic && !apiKey) return;
    const ok =
      (basic && header === `Basic ${Buffer.from(`${basic.user}:${basic.password}`).toString('base64')}`) ||
      (apiKey && header === `ApiKey ${Buffer.from(`${apiKey.id}:${apiKey.key}`).toString('base64')}`);
    if (ok) return;
    const reason = header ? `unable to authenticate user for REST request [${path}]` : `missing authentication credentials for REST request [${path}]`;
    throw new HttpError(401, {
      error: {
        root_cause: [{ type: 'security_exception', reason, header: { 'WWW-Authenticate': ['Basic realm="security" charset="UTF-8"', 'ApiKey'] } }],
        type: 'security_exception',
        reason,
        header: { 'WWW-Authenticate': ['Basic realm="security" charset="UTF-8"', 'ApiKey'] },
      },
      status: 401,
    });
  }

  error(status: number, type: string, reason: string, extra: Record<string, unknown> = {}): HttpError {
    const cause = { type, reason, ...extra };
    const { caused_by: _nested, ...rootCause } = cause as Record<string, unknown>; // root causes are listed without their chain
    return new HttpError(status, {
      error: this.flavour === '7' ? { root_cause: [rootCause], ...cause } : { root_cause: [{ type, reason }], ...cause },
      status,
    });
  }

  private index(name: string): FakeIndex {
    const index = this.indices.get(name);
    if (!index)
      throw this.error(404, 'index_not_found_exception', `no such index [${name}]`, { 'resource.type': 'index_or_alias', 'resource.id': name, index: name });
    return index;
  }

  /** An index name or an alias pointing to exactly one index (as the real engine resolves for these read APIs). */
  private resolveNames(name: string): string[] {
    if (name === '_all' || name === '*') return [...this.indices.keys()];
    if (this.indices.has(name)) return [name];
    const viaAlias = [...this.indices].filter(([, i]) => name in i.aliases).map(([n]) => n);
    if (viaAlias.length) return viaAlias;
    this.index(name);
    return [];
  }

  private async route(method: string, path: string, query: Record<string, string>, body: any): Promise<[number, unknown]> {
    const parts = path.split('/').filter(Boolean);
    const [a, b, c] = parts;
    if (method === 'GET' && parts.length === 0) {
      return [200, { name: 'fake-node', cluster_name: 'fake', version: { number: this.version, build_flavor: 'default' }, tagline: 'You Know, for Search' }];
    }
    if (a === '_mapping' && method === 'GET' && parts.length === 1) return [200, this.mappingsOf([...this.indices.keys()])];
    if (a === '_settings' && method === 'GET' && parts.length === 1) return [200, this.settingsOf([...this.indices.keys()])];
    if (a === '_alias' && method === 'GET') {
      if (!b) return [200, Object.fromEntries([...this.indices].map(([n, i]) => [n, { aliases: i.aliases }]))];
      const found = [...this.indices].filter(([, i]) => b in i.aliases);
      if (!found.length) return [404, { error: `alias [${b}] missing`, status: 404 }];
      return [200, Object.fromEntries(found.map(([n, i]) => [n, { aliases: { [b]: i.aliases[b] } }]))];
    }
    if (a === '_aliases' && method === 'POST') return [200, this.aliasActions(body)];
    if (a === '_reindex' && method === 'POST') return this.reindex(body, query);
    if (a === '_tasks' && method === 'GET') return b ? this.getTask(b) : this.listTasks(query);
    if (a === '_index_template' && method === 'GET' && !b)
      return [200, { index_templates: [...this.indexTemplates].map(([name, t]) => ({ name, index_template: t })) }];
    if (a === '_component_template' && method === 'GET' && !b)
      return [200, { component_templates: [...this.componentTemplates].map(([name, t]) => ({ name, component_template: t })) }];
    if (a === '_template' && method === 'GET' && !b) return [200, Object.fromEntries(this.legacyTemplates)];
    if (a === '_ingest' && b === 'pipeline' && method === 'GET' && !c) return this.pipelines.size ? [200, Object.fromEntries(this.pipelines)] : [404, {}];
    if (a === '_migration' && b === 'deprecations' && method === 'GET' && (this.options.deprecationApi ?? this.flavour === '7'))
      return [200, this.deprecations()];
    if (a && !a.startsWith('_')) {
      if (parts.length === 1 && method === 'PUT') return [200, await this.createIndex(a, body)];
      if (b === '_mapping' && method === 'GET') return [200, this.mappingsOf(this.resolveNames(a))];
      if (b === '_mapping' && method === 'PUT') return [200, this.putMapping(a, body)];
      if (b === '_settings' && method === 'GET') return [200, this.settingsOf(this.resolveNames(a))];
      if (b === '_settings' && method === 'PUT') {
        const index = this.index(a);
        Object.assign(index.settings, stringify(stripIndexPrefix(body ?? {})));
        return [200, { acknowledged: true }];
      }
      if (b === '_alias' && method === 'GET') return [200, Object.fromEntries(this.resolveNames(a).map((n) => [n, { aliases: this.indices.get(n)!.aliases }]))];
      if (b === '_refresh' && method === 'POST') {
        for (const n of this.resolveNames(a)) this.indices.get(n)!.visible = this.indices.get(n)!.docs.size;
        return [200, { _shards: { total: 2, successful: 1, failed: 0 } }];
      }
      if (b === '_count' && (method === 'GET' || method === 'POST')) {
        const count = this.resolveNames(a).reduce((sum, n) => sum + this.indices.get(n)!.visible, 0);
        return [200, { count, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } }];
      }
    }
    throw new HttpError(400, { error: `no handler found for uri [${path}] and method [${method}]`, status: 400 });
  }

  private mappingsOf(names: string[]): Record<string, unknown> {
    return Object.fromEntries(names.map((n) => [n, { mappings: this.indices.get(n)!.mappings }]));
  }

  private settingsOf(names: string[]): Record<string, unknown> {
    return Object.fromEntries(
      names.map((n) => {
        const i = this.indices.get(n)!;
        return [
          n,
          {
            settings: { index: { ...i.settings, provided_name: n, creation_date: '1600000000000', uuid: `uuid-${n}`, version: { created: i.createdVersion } } },
          },
        ];
      }),
    );
  }

  private async createIndex(name: string, body: any): Promise<unknown> {
    this.refuseTakenName(name);
    const settings = stripIndexPrefix(body?.settings ?? {});
    for (const key of ['uuid', 'creation_date', 'version', 'provided_name']) {
      if (key in settings) throw this.error(400, 'illegal_argument_exception', `private index setting [index.${key}] can not be set explicitly`);
    }
    await this.checkDateFormats(body?.mappings ?? {});
    this.refuseTakenName(name); // again: another request may have created it while the formats were checked
    this.indices.set(name, {
      mappings: structuredClone(body?.mappings ?? {}),
      settings: { number_of_shards: '1', number_of_replicas: '1', ...stringify(settings) },
      aliases: structuredClone(body?.aliases ?? {}),
      docs: new Map(),
      visible: 0,
      createdVersion: this.flavour === '7' ? '7170999' : '8120299',
    });
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  private refuseTakenName(name: string): void {
    if (this.indices.has(name)) throw this.error(400, 'resource_already_exists_exception', `index [${name}/uuid-${name}] already exists`, { index: name });
    if ([...this.indices.values()].some((i) => name in i.aliases))
      throw this.error(400, 'invalid_index_name_exception', `Invalid index name [${name}], already exists as alias`, { index: name });
  }

  private putMapping(name: string, body: any): unknown {
    const index = this.index(name);
    if (body?._meta !== undefined) index.mappings._meta = structuredClone(body._meta); // replaced as a whole
    if (body?.properties) index.mappings.properties = { ...(index.mappings.properties ?? {}), ...structuredClone(body.properties) };
    return { acknowledged: true };
  }

  private aliasActions(body: any): unknown {
    const actions = body?.actions;
    if (!Array.isArray(actions) || !actions.length) throw this.error(400, 'action_request_validation_exception', 'Validation Failed: 1: no actions;');
    // Check everything first: the real engine applies all the actions or none.
    const planned: Array<() => void> = [];
    for (const action of actions) {
      const [kind, spec] = Object.entries(action ?? {})[0] ?? [];
      const s = spec as any;
      if (kind !== 'add' && kind !== 'remove') throw this.error(400, 'x_content_parse_exception', `[aliases] unknown field [${kind}]`);
      const index = this.index(s.index);
      if (kind === 'add') {
        if (this.indices.has(s.alias))
          throw this.error(
            400,
            'invalid_alias_name_exception',
            `Invalid alias name [${s.alias}]: an index or data stream exists with the same name as the alias`,
          );
        const { index: _i, alias: _a, ...properties } = s;
        planned.push(() => {
          index.aliases[s.alias] = properties;
        });
      } else {
        if (!(s.alias in index.aliases))
          throw this.error(404, 'aliases_not_found_exception', `aliases [${s.alias}] missing`, { 'resource.type': 'aliases', 'resource.id': s.alias });
        planned.push(() => {
          delete index.aliases[s.alias];
        });
      }
    }
    for (const apply of planned) apply();
    return { acknowledged: true };
  }

  private async reindex(body: any, query: Record<string, string>): Promise<[number, unknown]> {
    const sourceName = body?.source?.index;
    const destName = body?.dest?.index;
    if (!sourceName || !destName)
      throw this.error(400, 'action_request_validation_exception', 'Validation Failed: 1: use _reindex with a source and a destination index;');
    const [source] = this.resolveNames(sourceName);
    if (source === destName)
      throw this.error(400, 'action_request_validation_exception', `Validation Failed: 1: reindex cannot write into an index its reading from [${destName}];`);
    if (!this.indices.has(destName)) await this.createIndex(destName, {}); // auto-create with a dynamic mapping, as the engine does
    const id = `${NODE}:${this.nextTask++}`;
    const task: FakeTask = {
      id,
      source: source!,
      dest: destName,
      opType: body?.dest?.op_type === 'create' ? 'create' : 'index',
      proceed: body?.conflicts === 'proceed',
      ids: [...this.indices.get(source!)!.docs.keys()],
      position: 0,
      created: 0,
      updated: 0,
      conflicts: 0,
      batches: 0,
      failures: [],
      completed: false,
      startedAt: Date.now(),
    };
    this.tasks.set(id, task);
    if (query.wait_for_completion === 'false') return [200, { task: id }];
    while (!task.completed) await this.advance(task);
    return [200, this.taskResponse(task)];
  }

  /** Copies the next batch (one scroll page and its bulk request, in the engine). */
  private advance(task: FakeTask): Promise<void> {
    task.copying ??= this.copyBatch(task).finally(() => {
      task.copying = undefined;
    });
    return task.copying;
  }

  private async copyBatch(task: FakeTask): Promise<void> {
    if (task.completed) return;
    const source = this.indices.get(task.source)!;
    const dest = this.indices.get(task.dest)!;
    const end = Math.min(task.ids.length, task.position + (this.options.batchSize ?? 2));
    const batch = task.ids.slice(task.position, end).filter((id) => source.docs.has(id));
    const rejected = await this.rejectedByDates(
      task.dest,
      dest,
      batch.map((id) => [id, source.docs.get(id)!]),
    );
    for (; task.position < end; task.position++) {
      if (this.failReindexAt !== undefined && task.created + task.updated + task.conflicts >= this.failReindexAt) {
        const id = task.ids[task.position]!;
        task.failures.push({
          index: task.dest,
          ...(this.flavour === '7' ? { type: '_doc' } : {}),
          id,
          cause: { type: 'mapper_parsing_exception', reason: `failed to parse field [when] of type [date] in document with id '${id}'` },
          status: 400,
        });
        task.completed = true;
        this.failReindexAt = undefined;
        return;
      }
      const id = task.ids[task.position]!;
      const rejection = rejected.get(id);
      if (rejection) {
        task.failures.push({ index: task.dest, ...(this.flavour === '7' ? { type: '_doc' } : {}), id, cause: rejection, status: 400 });
        continue;
      }
      const exists = dest.docs.has(id);
      if (exists && task.opType === 'create') {
        task.conflicts++;
        if (!task.proceed) {
          task.failures.push({
            index: task.dest,
            id,
            cause: { type: 'version_conflict_engine_exception', reason: `[${id}]: version conflict, document already exists` },
            status: 409,
          });
          task.completed = true;
          return;
        }
        continue;
      }
      dest.docs.set(id, structuredClone(source.docs.get(id)!));
      if (exists) task.updated++;
      else task.created++;
    }
    task.batches++;
    // A bulk request with failed documents ends the reindex once it is done: its other documents are written, the
    // following batches are not (the engine's reindex has no "skip bad documents" mode).
    if (task.failures.length || task.position >= task.ids.length) task.completed = true;
  }

  /** Index creation: every explicit `date`/`date_nanos` format must be one java.time accepts (checked in mapping order). */
  private async checkDateFormats(mappings: Record<string, any>): Promise<void> {
    const checks = dateFields(mappings)
      .filter((f) => f.explicitFormat)
      .map(async (field) => ({ field, check: await this.javaDates.validate(field.format) }));
    for (const { field, check } of await Promise.all(checks)) {
      if (check.valid) continue;
      // 7.10+ name the mapper and the parameter; 8.x dropped the type name from the outer message.
      const onField = `Error parsing [format] on field [${field.leafName}]: ${check.reason}`;
      throw this.error(400, 'mapper_parsing_exception', `Failed to parse mapping${this.flavour === '7' ? ' [_doc]' : ''}: ${onField}`, {
        caused_by: {
          type: 'illegal_argument_exception',
          reason: onField,
          caused_by: {
            type: 'illegal_argument_exception',
            reason: check.reason,
            ...(check.cause ? { caused_by: { type: 'illegal_argument_exception', reason: check.cause } } : {}),
          },
        },
      });
    }
  }

  /**
   * The documents of a batch whose date fields the destination refuses, with the engine's failure cause. Only indices
   * created by 7.0 or later read their formats with java.time; a 6.x-created destination keeps Joda and is not checked.
   */
  private async rejectedByDates(indexName: string, dest: FakeIndex, docs: Array<[string, Record<string, unknown>]>): Promise<Map<string, unknown>> {
    const rejected = new Map<string, unknown>();
    if (Number(dest.createdVersion) < 7_000_000) return rejected;
    const fields = dateFields(dest.mappings);
    if (!fields.length) return rejected;
    const indexIgnoresMalformed = String(dest.settings.mapping?.ignore_malformed ?? dest.settings['mapping.ignore_malformed']) === 'true';
    await Promise.all(
      docs.map(async ([id, doc]) => {
        const leaves = sourceLeaves(doc);
        // Every value of every date field, in document order: the first refused one names the failure.
        const values = leaves.flatMap((leaf, order) =>
          fields.filter((f) => f.sourcePath === leaf.path && leaf.value !== null).map((field) => ({ field, leaf, order })),
        );
        const verdicts = await Promise.all(
          values.map(async ({ field, leaf, order }) => {
            const text = String(leaf.value); // the engine parses a number or a boolean as the text of its JSON token
            const parsed = await this.javaDates.parse(field.format, text);
            if (parsed.outcome === 'unchecked') this.uncheckedDates.push({ index: indexName, id, field: field.name, value: text, format: field.format });
            return { field, leaf, order, text, cause: dateValueCause(field, text, parsed) };
          }),
        );
        const refused = verdicts
          .filter((v) => v.cause && !(v.field.ignoreMalformed ?? indexIgnoresMalformed)) // ignore_malformed: the value is left out, the document kept
          .sort((x, y) => x.order - y.order)[0];
        if (!refused) return;
        const where = this.flavour === '8' ? `[1:${refused.leaf.column}] ` : ''; // 8.8+ prefix the position in the source
        rejected.set(id, {
          // 8.8+ report document parse errors with their own type.
          type: this.flavour === '8' ? 'document_parsing_exception' : 'mapper_parsing_exception',
          reason: `${where}failed to parse field [${refused.field.name}] of type [${refused.field.type}] in document with id '${id}'. Preview of field's value: '${refused.text}'`,
          caused_by: refused.cause,
        });
      }),
    );
    return rejected;
  }

  private taskStatus(task: FakeTask) {
    return {
      total: task.ids.length,
      updated: task.updated,
      created: task.created,
      deleted: 0,
      batches: task.batches,
      version_conflicts: task.conflicts,
      noops: 0,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: -1,
      throttled_until_millis: 0,
    };
  }

  private taskInfo(task: FakeTask) {
    const [node, id] = task.id.split(':');
    return {
      node,
      id: Number(id),
      type: 'transport',
      action: 'indices:data/write/reindex',
      status: this.taskStatus(task),
      description: `reindex from [${task.source}] to [${task.dest}]${this.flavour === '7' ? '[_doc]' : ''}`,
      start_time_in_millis: task.startedAt,
      running_time_in_nanos: 1_000_000,
      cancellable: true,
      ...(this.flavour === '8' ? { cancelled: false } : {}),
      headers: {},
    };
  }

  private taskResponse(task: FakeTask) {
    const { total, created, updated, deleted, batches, version_conflicts, noops, retries, throttled_millis, requests_per_second, throttled_until_millis } =
      this.taskStatus(task);
    return {
      took: 12,
      timed_out: false,
      total,
      updated,
      created,
      deleted,
      batches,
      version_conflicts,
      noops,
      retries,
      throttled: '0s',
      throttled_millis,
      requests_per_second,
      throttled_until: '0s',
      throttled_until_millis,
      failures: task.failures,
    };
  }

  private async getTask(id: string): Promise<[number, unknown]> {
    const task = this.tasks.get(id);
    if (!task) throw this.error(404, 'resource_not_found_exception', `task [${id}] isn't running and hasn't stored its results`);
    await this.advance(task);
    return [200, { completed: task.completed, task: this.taskInfo(task), ...(task.completed ? { response: this.taskResponse(task) } : {}) }];
  }

  private listTasks(query: Record<string, string>): [number, unknown] {
    const running = [...this.tasks.values()].filter((t) => !t.completed && (!query.actions || /reindex/.test(query.actions)));
    const tasks = Object.fromEntries(
      running.map((t) => [t.id, query.detailed === 'true' ? this.taskInfo(t) : { ...this.taskInfo(t), description: undefined }]),
    );
    return [
      200,
      {
        nodes: running.length
          ? { [NODE]: { name: 'fake-node', transport_address: '127.0.0.1:9300', host: '127.0.0.1', ip: '127.0.0.1:9300', roles: ['data', 'master'], tasks } }
          : {},
      },
    ];
  }

  /** What 7.x reports for indices created in 6.x with custom (Joda) date formats. */
  private deprecations(): unknown {
    const indexSettings: Record<string, unknown[]> = {};
    for (const [name, index] of this.indices) {
      if (!index.createdVersion.startsWith('6')) continue;
      const fields: string[] = [];
      const walk = (properties: Record<string, any>, prefix: string) => {
        for (const [field, def] of Object.entries(properties ?? {})) {
          const full = prefix ? `${prefix}.${field}` : field;
          if (
            def?.type === 'date' &&
            typeof def.format === 'string' &&
            /[A-Za-z]/.test(def.format) &&
            !/^(epoch_millis|epoch_second|strict_date_optional_time|date_optional_time)$/.test(def.format)
          ) {
            fields.push(`[type: _doc, field: ${full}, format: ${def.format}, suggestion: 'y' year should be replaced with 'u'. Use 'y' for year-of-era.]`);
          }
          if (def?.properties) walk(def.properties, full);
        }
      };
      walk(index.mappings.properties, '');
      if (fields.length) {
        indexSettings[name] = [
          {
            level: 'warning',
            message: 'Date field format uses patterns which has changed meaning in 7.0',
            url: 'https://www.elastic.co/guide/en/elasticsearch/reference/7.0/breaking-changes-7.0.html#breaking_70_java_time_changes',
            details: `This index has date fields with deprecated formats: [${fields.join(', ')}]. Use new java.time date format specifiers.`,
            resolve_during_rolling_upgrade: false,
          },
        ];
      }
      (indexSettings[name] ??= []).push({
        level: 'warning',
        message: 'translog retention settings are ignored',
        url: 'https://example.invalid/translog',
        details: 'unrelated to dates',
      });
    }
    return { cluster_settings: this.extraClusterDeprecations, node_settings: [], index_settings: indexSettings, ml_settings: [] };
  }
}

interface DateField {
  /** Full name, as document errors name it: `event.when`, `title.as_date` (a multi-field). */
  name: string;
  /** The mapper's own name, as mapping errors name it. */
  leafName: string;
  /** Where its values are in `_source`: a multi-field reads the value of the field it belongs to. */
  sourcePath: string;
  type: 'date' | 'date_nanos';
  format: string;
  explicitFormat: boolean;
  /** The field's own `ignore_malformed`, when set (else the index setting decides). */
  ignoreMalformed?: boolean;
}

/** The engine's defaults when a date field has no `format`. */
const DEFAULT_DATE_FORMAT = { date: 'strict_date_optional_time||epoch_millis', date_nanos: 'strict_date_optional_time_nanos||epoch_millis' };

/** Every `date`/`date_nanos` field of a (typeless) mapping: object and nested properties, and multi-fields. */
function dateFields(mappings: Record<string, any>): DateField[] {
  const fields: DateField[] = [];
  const add = (def: any, name: string, leafName: string, sourcePath: string) => {
    if (def?.type !== 'date' && def?.type !== 'date_nanos') return;
    const type = def.type as DateField['type'];
    const ignoreMalformed = def.ignore_malformed === undefined ? undefined : String(def.ignore_malformed) === 'true';
    fields.push({
      name,
      leafName,
      sourcePath,
      type,
      format: def.format ?? DEFAULT_DATE_FORMAT[type],
      explicitFormat: def.format !== undefined,
      ignoreMalformed,
    });
  };
  const walk = (properties: Record<string, any> | undefined, prefix: string) => {
    for (const [field, def] of Object.entries(properties ?? {})) {
      const name = prefix ? `${prefix}.${field}` : field;
      add(def, name, field, name);
      for (const [sub, subDef] of Object.entries<any>(def?.fields ?? {})) add(subDef, `${name}.${sub}`, sub, name);
      if (def?.properties) walk(def.properties, name);
    }
  };
  walk(mappings.properties, '');
  return fields;
}

/**
 * Every scalar of a `_source` with its dotted path (array elements share their field's path; dotted keys are paths, as
 * the engine expands them) and the 1-based column of its token in the compact JSON of the document.
 */
function sourceLeaves(doc: Record<string, unknown>): Array<{ path: string; value: unknown; column: number }> {
  const leaves: Array<{ path: string; value: unknown; column: number }> = [];
  let json = '';
  const write = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      json += '[';
      value.forEach((item, i) => {
        if (i) json += ',';
        write(item, path);
      });
      json += ']';
    } else if (value !== null && typeof value === 'object') {
      json += '{';
      Object.entries(value).forEach(([key, item], i) => {
        json += `${i ? ',' : ''}${JSON.stringify(key)}:`;
        write(item, path ? `${path}.${key}` : key);
      });
      json += '}';
    } else {
      leaves.push({ path, value: value ?? null, column: json.length + 1 });
      json += JSON.stringify(value ?? null);
    }
  };
  write(doc, '');
  return leaves;
}

/** date_nanos holds nanoseconds since the epoch in a signed long: 1970-01-01 to 2262-04-11T23:47:16.854775807Z. */
const NANOS_MAX_MILLIS = 9_223_372_036_854;
const javaInstant = (millis: number) => new Date(millis).toISOString().replace('.000Z', 'Z');

/** Why the engine refuses one date value (its `caused_by`), or undefined when it takes it. */
function dateValueCause(field: DateField, text: string, parsed: DateParse): Record<string, unknown> | undefined {
  switch (parsed.outcome) {
    case 'unchecked':
      return undefined;
    case 'invalid-format': // only an index that skipped the creation check (addIndex) can hold such a format
      return { type: 'illegal_argument_exception', reason: parsed.reason };
    case 'failed':
      return {
        type: 'illegal_argument_exception',
        reason: `failed to parse date field [${text}] with format [${field.format}]`,
        caused_by: { type: snakeCase(parsed.exception), reason: parsed.reason },
      };
    case 'parsed':
      if (field.type !== 'date_nanos') return undefined;
      if (parsed.millis < 0)
        return {
          type: 'illegal_argument_exception',
          reason: `date[${javaInstant(parsed.millis)}] is before the epoch in 1970 and cannot be stored in nanosecond resolution`,
        };
      if (parsed.millis > NANOS_MAX_MILLIS)
        return {
          type: 'illegal_argument_exception',
          reason: `date[${javaInstant(parsed.millis)}] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution`,
        };
      return undefined;
  }
}

/** The engine names a Java exception in snake case: DateTimeParseException -> date_time_parse_exception. */
const snakeCase = (javaName: string) => javaName.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase();

function stripIndexPrefix(settings: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'index' && value && typeof value === 'object') Object.assign(out, stripIndexPrefix(value));
    else out[key.startsWith('index.') ? key.slice(6) : key] = value;
  }
  return out;
}

/** The engine returns setting values as strings. */
function stringify(settings: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of Object.entries(settings)) {
    out[key] = Array.isArray(value) ? value.map(String) : value && typeof value === 'object' ? stringify(value) : String(value);
  }
  return out;
}

export async function startFakeSearch(options: FakeSearchOptions): Promise<FakeSearch> {
  const fake = new FakeSearch(options);
  await fake.start();
  return fake;
}
