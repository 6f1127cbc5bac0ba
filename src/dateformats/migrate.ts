import { convertedForListing } from './convert.ts';
import { convertMappings, createdMajor, isObject, type AffectedPlace, type Json } from './mapping.ts';
import { enc, SearchError, type HttpMethod, type SearchClient } from './search-client.ts';

/**
 * Migrates one index (or the index behind an alias) to converted date formats, in the specification's order:
 *
 *  1. create `<old>-javatime` with the converted mapping and the old index's relevant settings;
 *  2. `POST /_reindex?wait_for_completion=false` (a task), followed with `GET /_tasks/<id>`;
 *  3. verify: `_refresh` both, `_count` both, equal;
 *  4. repoint every alias of the old index (and `--alias`) in one atomic `POST /_aliases`.
 *
 * Resuming: the new index's mapping `_meta.adgraph_date_migration` records `source` (the old index) and, once the
 * reindex has started, `reindex_task`. A re-run finds the new index, checks the marker, and follows the recorded
 * task if it is still running or has finished, instead of starting another. If the process died between starting
 * the reindex and recording its id, the running task is found by its description (`GET /_tasks?actions=*reindex`).
 * If the task is gone or failed, a new reindex copies only the missing documents (`op_type: create`,
 * `conflicts: proceed`). Once the aliases point to the new index, a re-run has nothing left to do.
 *
 * The old index is never deleted or changed; until the alias swap it keeps serving. Writes to it must stop for the
 * duration (otherwise the count check fails, which is the point of it).
 */

export interface MigrateOptions {
  /** `--index`: an index or an alias pointing to one index. */
  index: string;
  /** `--alias`: an alias to point at the new index (besides every alias the old index has). */
  alias?: string;
  /** Name of the new index; `<old><suffix>` by default. */
  newIndex?: string;
  /** `-javatime` by default. */
  suffix?: string;
  dryRun?: boolean;
  /** Passed to the converter: add the alternatives that accept Joda's fewer-digit inputs. */
  lenient?: boolean;
  /**
   * Treat the formats of an index created by 7.0 or later as Joda patterns. Such an index already reads them as
   * java.time, so this is refused by default; it is right only when they were written for Joda (e.g. copied from a
   * 6.x template) and mean what Joda made of them.
   */
  assumeJoda?: boolean;
  /** Migrate even when a format has no equivalent (`unsupported`); refused by default. */
  allowUnsupported?: boolean;
  /** Between two `GET /_tasks/<id>`; 1 s by default. */
  pollIntervalMs?: number;
  onProgress?: (progress: MigrationProgress) => void;
  /** Stops following the task (which keeps running in the cluster); a re-run resumes. */
  signal?: AbortSignal;
}

export interface MigrationProgress {
  phase: 'reindex';
  taskId: string;
  /** created + updated + deleted (+ version conflicts when resuming, i.e. documents already there). */
  done: number;
  total: number;
}

export interface RecordedRequest {
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** Changes the cluster (never sent in a dry run). */
  write: boolean;
  sent: boolean;
}

export interface AliasAction {
  remove?: { index: string; alias: string };
  add?: { index: string; alias: string; [property: string]: unknown };
}

export interface MigrationResult {
  requested: string;
  source: string;
  target: string;
  /** `--index` named an alias. */
  viaAlias: boolean;
  dryRun: boolean;
  status: 'migrated' | 'planned' | 'already-migrated' | 'nothing-to-migrate';
  resumed: boolean;
  /** Major version the old index was created with: below 7 it reads its formats as Joda patterns. */
  createdMajor?: number;
  taskId?: string;
  counts?: { source: number; target: number };
  aliasActions: AliasAction[];
  affected: AffectedPlace[];
  settingsNotCopied: string[];
  warnings: string[];
  /** Every request, in order (the reads, and the writes: sent, or in a dry run only planned). */
  requests: RecordedRequest[];
  next: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    message: string,
    readonly step: 'resolve' | 'convert' | 'create' | 'reindex' | 'verify' | 'swap',
    readonly next: string,
    readonly result?: Partial<MigrationResult>,
  ) {
    super(`${message} Next: ${next}`);
  }
}

export const MIGRATION_META = 'adgraph_date_migration';
const TASK_PLACEHOLDER = '<task id from the _reindex response>';

/** `index.*` settings copied at creation (a whole subtree when it is an object). Others are listed as not copied. */
const COPIED_SETTINGS = new Set([
  'number_of_shards',
  'number_of_replicas',
  'number_of_routing_shards',
  'auto_expand_replicas',
  'routing_partition_size',
  'analysis',
  'similarity',
  'codec',
  'sort',
  'mapping',
  'query',
  'refresh_interval',
  'max_result_window',
  'max_inner_result_window',
  'max_rescore_window',
  'max_docvalue_fields_search',
  'max_script_fields',
  'max_ngram_diff',
  'max_shingle_diff',
  'max_terms_count',
  'max_regex_length',
  'highlight',
  'routing',
  'search',
  'indexing',
  'priority',
  'hidden',
  'shard',
  'unassigned',
  'default_pipeline',
  'final_pipeline',
]);
/** Identity and state of the old index: never copied, not worth a warning. */
const INTERNAL_SETTINGS = new Set([
  'uuid',
  'creation_date',
  'creation_date_string',
  'version',
  'provided_name',
  'resize',
  'shrink',
  'blocks',
  'verified_before_close',
  'history',
  'store',
  'format',
  'frozen',
  'search_throttled',
  'merge',
  'translog',
]);
/** Set only after the reindex: a pipeline on the new index would otherwise run again on every copied document. */
const AFTER_REINDEX = ['default_pipeline', 'final_pipeline'] as const;

/** `GET /_tasks/<id>` of a reindex task, the parts read here. */
interface ReindexTask {
  completed?: boolean;
  task?: { status?: { total?: number; created?: number; updated?: number; deleted?: number; version_conflicts?: number } };
  error?: { reason?: string };
  response?: { failures?: Array<{ id?: string; reason?: string; cause?: { reason?: string } }> };
}

/** The marker a migration leaves in its new index's mapping (`_meta.adgraph_date_migration`), if these mappings hold one. */
function migrationMarker(mappings: Json): { source?: string; reindexTask?: string } | undefined {
  const marker = isObject(mappings._meta) ? mappings._meta[MIGRATION_META] : undefined;
  if (!isObject(marker)) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { source: text(marker.source), reindexTask: text(marker.reindex_task) };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

export async function migrateIndex(client: SearchClient, options: MigrateOptions): Promise<MigrationResult> {
  const dryRun = !!options.dryRun;
  const requests: RecordedRequest[] = [];
  const warnings: string[] = [];

  /** Reads are always sent; writes only outside a dry run. Consecutive identical polls are recorded once. */
  async function call<T = unknown>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    opts: { write?: boolean; allow?: number[] } = {},
  ): Promise<{ status: number; body: T } | undefined> {
    const write = opts.write ?? method !== 'GET';
    const last = requests[requests.length - 1];
    if (!(last && last.method === method && last.path === path && body === undefined && method === 'GET'))
      requests.push({ method, path, ...(body !== undefined ? { body } : {}), write, sent: !(write && dryRun) });
    if (write && dryRun) return undefined;
    return client.requestAllowing<T>(method, path, opts.allow ?? [], body);
  }

  // 1. Resolve the alias, if --index is one.
  const requested = options.index;
  let source = requested;
  let viaAlias = false;
  const aliasLookup = await call<Record<string, { aliases: Record<string, unknown> }>>('GET', `/_alias/${enc(requested)}`, undefined, { allow: [404] });
  if (aliasLookup!.status === 200 && aliasLookup!.body && Object.keys(aliasLookup!.body).length) {
    const indices = Object.keys(aliasLookup!.body);
    if (indices.length > 1) {
      throw new MigrationError(
        `alias ${requested} points to ${indices.length} indices (${indices.join(', ')}).`,
        'resolve',
        `migrate them one at a time: --index <one of them> --alias ${requested}.`,
      );
    }
    source = indices[0]!;
    viaAlias = true;
  }
  const alias = options.alias ?? (viaAlias ? requested : undefined);

  const mappingResponse = await call<Record<string, { mappings?: Json }>>('GET', `/${enc(source)}/_mapping`, undefined, { allow: [404] });
  if (mappingResponse!.status === 404)
    throw new MigrationError(`no index or alias named ${requested}.`, 'resolve', 'check the name with `GET /_cat/indices` and `GET /_cat/aliases`.');
  const oldMappings = mappingResponse!.body[source]?.mappings ?? Object.values(mappingResponse!.body)[0]?.mappings ?? {};
  const marker = migrationMarker(oldMappings);
  const target = options.newIndex ?? `${source}${options.suffix ?? '-javatime'}`;
  const base = {
    requested,
    source,
    target,
    viaAlias,
    dryRun,
    resumed: false,
    aliasActions: [] as AliasAction[],
    settingsNotCopied: [] as string[],
    warnings,
    requests,
  };

  if (marker?.source) {
    // --index (or its alias) already names a migrated index.
    return {
      ...base,
      source: marker.source,
      target: source,
      status: 'already-migrated',
      affected: [],
      next: `nothing to do: ${source} is the migrated copy of ${marker.source}.`,
    };
  }

  // 2. Convert.
  const settingsResponse = await call<Record<string, { settings?: { index?: Record<string, unknown> } }>>('GET', `/${enc(source)}/_settings`);
  const oldSettings = settingsResponse!.body[source]?.settings?.index ?? {};
  const major = createdMajor((oldSettings.version as { created?: string } | undefined)?.created);
  if (major !== undefined && major >= 7 && !options.assumeJoda) {
    return {
      ...base,
      status: 'nothing-to-migrate',
      affected: [],
      createdMajor: major,
      next: `nothing to do: ${source} was created by ${major}.x, so its date formats are already java.time patterns. If they were written for Joda (copied from a 6.x mapping), re-run with --assume-joda.`,
    };
  }
  const { mappings: converted, affected } = convertMappings(oldMappings, { lenient: options.lenient });
  if (!affected.length) {
    return { ...base, status: 'nothing-to-migrate', affected, next: `nothing to do: ${source} has no custom date format to convert.` };
  }
  const unsupported = affected.filter((p) => p.severity === 'unsupported');
  if (unsupported.length && !options.allowUnsupported) {
    throw new MigrationError(
      `${unsupported.length} format(s) of ${source} have no java.time equivalent (${unsupported.map((p) => `${p.field ?? p.path}: ${p.format}`).join('; ')}).`,
      'convert',
      'run `adgraph dates convert` on them for what to change (e.g. pre-process the input); --allow-unsupported writes the best-effort conversion, which is NOT equivalent (java.time may refuse it, or read the documents differently).',
    );
  }
  for (const place of affected.filter((p) => p.severity === 'review'))
    warnings.push(
      `${place.field ?? place.path}: ${place.format} → ${convertedForListing(place.conversion)} needs review (${place.conversion.parts.flatMap((p) => p.findings.filter((f) => f.severity !== 'exact').map((f) => f.message)).join('; ')})`,
    );

  const settings: Record<string, unknown> = {};
  const afterReindex: Record<string, unknown> = {};
  const settingsNotCopied: string[] = [];
  for (const [key, value] of Object.entries(oldSettings)) {
    if ((AFTER_REINDEX as readonly string[]).includes(key)) afterReindex[key] = value;
    else if (COPIED_SETTINGS.has(key)) settings[key] = value;
    else if (!INTERNAL_SETTINGS.has(key)) settingsNotCopied.push(`index.${key}`);
  }
  if (settingsNotCopied.length) warnings.push(`settings not copied to ${target}: ${settingsNotCopied.join(', ')} (set them by hand if they matter)`);
  const aliasResponse = await call<Record<string, { aliases?: Record<string, Record<string, unknown>> }>>('GET', `/${enc(source)}/_alias`);
  const oldAliases = aliasResponse!.body[source]?.aliases ?? {};

  const meta = { ...(isObject(oldMappings._meta) ? oldMappings._meta : {}), [MIGRATION_META]: { source } };
  const createBody = { settings: { index: settings }, mappings: { ...converted, _meta: meta } };
  const partial = { ...base, settingsNotCopied, affected, createdMajor: major };
  const keepServing = () =>
    `${source} is unchanged and still serves${Object.keys(oldAliases).length ? ` ${Object.keys(oldAliases).join(', ')}` : ''}; no alias was switched.`;

  // 3. Create the new index, or find the one a previous run created.
  const existing = await call<Record<string, { mappings?: Json }>>('GET', `/${enc(target)}/_mapping`, undefined, { allow: [404] });
  let targetMeta: ReturnType<typeof migrationMarker>;
  let resumed = false;
  if (existing!.status === 200) {
    const mappings = existing!.body[target]?.mappings ?? Object.values(existing!.body)[0]?.mappings ?? {};
    targetMeta = migrationMarker(mappings);
    if (targetMeta?.source !== source) {
      throw new MigrationError(
        `index ${target} already exists and is not a migration of ${source}.`,
        'create',
        `${keepServing()} Choose another name with --new-index, or delete ${target} if it is a leftover.`,
      );
    }
    resumed = true;
  } else {
    try {
      await call('PUT', `/${enc(target)}`, createBody);
    } catch (error) {
      // Typically a converted format java.time refuses: say that nothing changed and what to do.
      if (!(error instanceof SearchError)) throw error;
      throw new MigrationError(
        `creating ${target} failed (${error.message}).`,
        'create',
        `${keepServing()} Nothing was copied. Fix what the cluster names (for a date format: \`adgraph dates convert\` on the legacy format says what to change), then re-run.`,
        partial,
      );
    }
  }

  // 4. Reindex as a task (or find the one already started).
  let taskId: string | undefined = targetMeta?.reindexTask;
  let taskDone: ReindexTask | undefined;
  let copyMissingOnly = false;
  if (taskId) {
    const task = await call<ReindexTask>('GET', `/_tasks/${enc(taskId)}`, undefined, { allow: [404] });
    if (task!.status === 404) {
      warnings.push(`reindex task ${taskId} is no longer known to the cluster; copying the documents still missing`);
      taskId = undefined;
      copyMissingOnly = true;
    } else if (task!.body.completed && (task!.body.error || task!.body.response?.failures?.length)) {
      warnings.push(`reindex task ${taskId} had failed; copying the documents still missing`);
      taskId = undefined;
      copyMissingOnly = true;
    }
  }
  if (!taskId && resumed) {
    // Died between starting the reindex and recording its id? Find the task by its description.
    const running = await call<{ nodes?: Record<string, { tasks?: Record<string, { description?: string }> }> }>(
      'GET',
      '/_tasks?actions=*reindex&detailed=true',
    );
    const wanted = `reindex from [${source}] to [${target}]`;
    for (const [node, info] of Object.entries(running!.body.nodes ?? {})) {
      for (const [id, t] of Object.entries(info.tasks ?? {})) if (t.description?.startsWith(wanted)) taskId = id.includes(':') ? id : `${node}:${id}`;
    }
    if (!taskId) copyMissingOnly = true;
  }
  if (!taskId) {
    const reindexBody = copyMissingOnly
      ? { conflicts: 'proceed', source: { index: source }, dest: { index: target, op_type: 'create' } }
      : { source: { index: source }, dest: { index: target } };
    const started = await call<{ task: string }>('POST', '/_reindex?wait_for_completion=false', reindexBody);
    taskId = started ? started.body.task : TASK_PLACEHOLDER;
    // The resumable marker: the task id, in the new index's _meta (a mapping update replaces _meta as a whole).
    await call('PUT', `/${enc(target)}/_mapping`, { _meta: { ...meta, [MIGRATION_META]: { source, reindex_task: taskId } } });
  }

  if (!dryRun) {
    for (;;) {
      const task = await call<ReindexTask>('GET', `/_tasks/${enc(taskId)}`, undefined, { allow: [404] });
      if (task!.status === 404) {
        throw new MigrationError(
          `reindex task ${taskId} is no longer known to the cluster.`,
          'reindex',
          `${keepServing()} Re-run the same command: it copies the documents still missing into ${target}.`,
          { ...partial, taskId, resumed },
        );
      }
      const status = task!.body.task?.status ?? {};
      const total = Number(status.total ?? 0);
      const done = Number(status.created ?? 0) + Number(status.updated ?? 0) + Number(status.deleted ?? 0) + Number(status.version_conflicts ?? 0);
      options.onProgress?.({ phase: 'reindex', taskId, done, total });
      if (task!.body.completed) {
        taskDone = task!.body;
        break;
      }
      if (options.signal?.aborted) {
        throw new MigrationError(
          `interrupted while following reindex task ${taskId} (the task keeps running in the cluster).`,
          'reindex',
          `${keepServing()} Re-run the same command to resume.`,
          { ...partial, taskId, resumed },
        );
      }
      await sleep(options.pollIntervalMs ?? 1000, options.signal);
    }
    const failures = taskDone.response?.failures ?? [];
    if (taskDone.error || failures.length) {
      const first = taskDone.error?.reason ?? failures[0]?.cause?.reason ?? failures[0]?.reason ?? 'unknown';
      const what = taskDone.error
        ? `failed: ${first}`
        : `finished with ${failures.length} failure(s) (first: ${failures[0]?.id ? `document ${failures[0].id}: ` : ''}${first})`;
      throw new MigrationError(
        `reindex task ${taskId} ${what}.`,
        'reindex',
        `${keepServing()} Fix the cause (a document the new format rejects: correct it in ${source}, or adjust the format), then re-run: documents already in ${target} are kept and the rest copied.`,
        { ...partial, taskId, resumed },
      );
    }
  }

  // 5. Verify the counts.
  await call('POST', `/${enc(source)}/_refresh`, undefined, { write: true });
  await call('POST', `/${enc(target)}/_refresh`, undefined, { write: true });
  let counts: { source: number; target: number } | undefined;
  if (dryRun) {
    requests.push(
      { method: 'GET', path: `/${enc(source)}/_count`, write: false, sent: false },
      { method: 'GET', path: `/${enc(target)}/_count`, write: false, sent: false },
    );
  } else {
    const [a, b] = [await call<{ count: number }>('GET', `/${enc(source)}/_count`), await call<{ count: number }>('GET', `/${enc(target)}/_count`)];
    counts = { source: a!.body.count, target: b!.body.count };
    if (counts.source !== counts.target) {
      throw new MigrationError(
        `document counts differ: ${source} has ${counts.source}, ${target} has ${counts.target}.`,
        'verify',
        `${keepServing()} Stop writes to ${source} (they are not copied), then re-run: the missing documents are copied. Documents deleted from ${source} during the copy must be deleted from ${target} by hand.`,
        { ...partial, taskId, counts, resumed },
      );
    }
  }

  if (Object.keys(afterReindex).length) await call('PUT', `/${enc(target)}/_settings`, { index: afterReindex });

  // 6. Repoint the aliases in one atomic call.
  const targetAliases =
    dryRun || !resumed
      ? {}
      : ((await call<Record<string, { aliases?: Record<string, unknown> }>>('GET', `/${enc(target)}/_alias`))!.body[target]?.aliases ?? {});
  const actions: AliasAction[] = [];
  for (const [name, properties] of Object.entries(oldAliases)) {
    actions.push({ remove: { index: source, alias: name } });
    if (!(name in targetAliases)) actions.push({ add: { index: target, alias: name, ...(properties ?? {}) } });
  }
  if (alias && !(alias in oldAliases) && !(alias in targetAliases)) actions.push({ add: { index: target, alias } });
  if (actions.length) {
    try {
      await call('POST', '/_aliases', { actions });
    } catch (error) {
      const why = error instanceof SearchError ? error.message : String(error);
      throw new MigrationError(
        `the alias swap failed (${why}); _aliases is atomic, so no alias moved.`,
        'swap',
        `${keepServing()} Fix the cause and re-run: the copy is done, only the swap is left.`,
        { ...partial, taskId, counts, resumed, aliasActions: actions },
      );
    }
  }

  const moved = actions.filter((a) => a.add).map((a) => a.add!.alias);
  const next = dryRun
    ? 'run the same command without --dry-run to apply these requests.'
    : moved.length
      ? `${moved.join(', ')} now point(s) to ${target}. Keep ${source} until you have checked the new index, then delete it yourself (this tool never deletes it).`
      : Object.keys(targetAliases).length
        ? `the aliases already pointed to ${target}. Keep ${source} until you have checked it, then delete it yourself.`
        : `no alias points to ${source}: clients using the name ${source} still read the old index. Point them at ${target}, or (after checking ${target}) delete ${source} and create the alias ${source} → ${target}.`;
  return { ...partial, resumed, status: dryRun ? 'planned' : 'migrated', taskId, counts, aliasActions: actions, next };
}

/** The text the CLI prints. */
export function formatMigration(result: MigrationResult): string {
  const lines: string[] = [];
  if (result.dryRun) {
    lines.push(`dry run: migrating ${result.source}${result.viaAlias ? ` (alias ${result.requested})` : ''} to ${result.target}; no write is sent.`);
    for (const place of result.affected)
      lines.push(`  ${place.field ?? place.path}: ${place.format} → ${convertedForListing(place.conversion)} [${place.severity}]`);
    lines.push('requests (reads are sent, writes only shown):');
    for (const r of result.requests)
      lines.push(`${r.write ? 'WRITE' : 'read '} ${r.method} ${r.path}${r.body !== undefined ? `\n${JSON.stringify(r.body, null, 2)}` : ''}`);
  } else if (result.status === 'migrated') {
    lines.push(
      `migrated ${result.source} → ${result.target}${result.resumed ? ' (resumed)' : ''}: ${result.counts?.target} documents, reindex task ${result.taskId}`,
    );
    for (const place of result.affected)
      lines.push(`  ${place.field ?? place.path}: ${place.format} → ${convertedForListing(place.conversion)} [${place.severity}]`);
  } else {
    lines.push(result.status);
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  lines.push(`next: ${result.next}`);
  return lines.join('\n');
}
