import { convertedForListing } from './convert.ts';
import {
  convertMappingResponse,
  createdMajor,
  convertPipeline,
  convertTemplate,
  isObject,
  type AffectedPlace,
  type ConvertOptions,
  type Json,
  type Severity,
  type TemplateKind,
} from './mapping.ts';
import { enc, type SearchClient, type SearchRequest } from './search-client.ts';

/**
 * Scans a cluster for legacy custom date formats: every index field, template and ingest pipeline affected, with its
 * suggested conversion, severity and fix; plus what the deprecation info API (`GET /_migration/deprecations`, 7.x and
 * later) reports about date formats, matched to the same places. Only reads: GET requests.
 *
 * Endpoints that a cluster may lack are tolerated: `_index_template` / `_component_template` (before 7.8),
 * `_migration/deprecations` (without the deprecation plugin, or on a flavour that does not have it), and
 * `_ingest/pipeline`, which answers 404 with `{}` when there are no pipelines.
 */

export interface DeprecationEntry {
  level: string;
  message: string;
  url?: string;
  details?: string;
  /** Where the deprecation API put it: `index_settings` with the index name, or `cluster_settings`, ... */
  source: string;
  index?: string;
}

export interface ScanPlace extends AffectedPlace {
  /** What the deprecation info API says about this place (empty when it is silent or unavailable). */
  deprecations: DeprecationEntry[];
}

export interface ScanTarget {
  kind: 'index' | TemplateKind | 'pipeline';
  name: string;
  severity: Severity;
  places: ScanPlace[];
  /** Aliases of an index. */
  aliases?: string[];
  /** Major version an index was created with (`index.version.created`). */
  createdMajor?: number;
  /** What to do: for an index, the migrate command; for templates and pipelines, the request that stores the converted body. */
  fix: { command: string } | { request: SearchRequest };
}

export interface ScanResult {
  cluster: { url: string; version: string };
  targets: ScanTarget[];
  /** Indices created by 7.0 or later with custom formats: already java.time, not listed (see includeJavaIndices). */
  skippedJavaIndices: string[];
  deprecations: {
    /** Whether `GET /_migration/deprecations` answered. */
    available: boolean;
    /** Date-format deprecations the scan could not tie to a place it found (investigate them by hand). */
    unmatched: DeprecationEntry[];
  };
  summary: { indices: number; templates: number; pipelines: number; places: number; exact: number; review: number; unsupported: number };
}

const RANK: Record<Severity, number> = { exact: 0, review: 1, unsupported: 2 };
const worst = (places: AffectedPlace[]): Severity => places.reduce<Severity>((w, p) => (RANK[p.severity] > RANK[w] ? p.severity : w), 'exact');
const MISSING = [400, 404, 405];
/** A deprecation about date formats (not every message that says "date": "update", "dates" alone). */
const DATE_DEPRECATION = /\bdates?\b[^.]*\b(formats?|patterns?)\b|\bjoda\b|java[.-]time/i;

export interface ScanOptions extends ConvertOptions {
  /**
   * Also list indices created by 7.0 or later. Their custom formats are already read as java.time, so converting
   * them as Joda patterns is right only when they were written for Joda (copied from a 6.x template, say).
   */
  includeJavaIndices?: boolean;
}

export async function scanCluster(client: SearchClient, options: ScanOptions = {}): Promise<ScanResult> {
  const version = await client.version();
  const [mappingResponse, settingsResponse, aliasResponse, composable, components, legacy, pipelines, deprecations] = await Promise.all([
    client.request<unknown>('GET', '/_mapping'),
    client.request<Record<string, { settings?: { index?: { version?: { created?: string } } } }>>('GET', '/_settings'),
    client.requestAllowing<Record<string, { aliases?: Record<string, unknown> }>>('GET', '/_alias', [404]),
    client.requestAllowing<{ index_templates?: Array<{ name: string; index_template: unknown }> }>('GET', '/_index_template', MISSING),
    client.requestAllowing<{ component_templates?: Array<{ name: string; component_template: unknown }> }>('GET', '/_component_template', MISSING),
    client.requestAllowing<Record<string, unknown>>('GET', '/_template', MISSING),
    client.requestAllowing<Record<string, unknown>>('GET', '/_ingest/pipeline', [404]),
    client.requestAllowing<unknown>('GET', '/_migration/deprecations', MISSING),
  ]);

  const targets: ScanTarget[] = [];
  const skippedJavaIndices: string[] = [];
  const converted = convertMappingResponse(mappingResponse, options);
  for (const [index, { affected }] of Object.entries(converted).sort(([a], [b]) => a.localeCompare(b))) {
    if (!affected.length) continue;
    const major = createdMajor(settingsResponse[index]?.settings?.index?.version?.created);
    if (major !== undefined && major >= 7 && !options.includeJavaIndices) {
      skippedJavaIndices.push(index);
      continue;
    }
    const aliases = Object.keys(aliasResponse.status === 200 ? (aliasResponse.body?.[index]?.aliases ?? {}) : {}).sort();
    targets.push({
      kind: 'index',
      name: index,
      aliases,
      createdMajor: major,
      severity: worst(affected),
      places: affected.map((p) => ({ ...p, deprecations: [] })),
      fix: {
        command: `adgraph dates migrate --index ${aliases.length === 1 ? aliases[0] : index}${major !== undefined && major >= 7 ? ' --assume-joda' : ''}`,
      },
    });
  }
  const addTemplate = (kind: TemplateKind, name: string, body: unknown, path: string) => {
    const result = convertTemplate(kind, body, options);
    if (!result.affected.length) return;
    targets.push({
      kind,
      name,
      severity: worst(result.affected),
      places: result.affected.map((p) => ({ ...p, deprecations: [] })),
      fix: { request: { method: 'PUT', path: `${path}/${enc(name)}`, body: result.body } },
    });
  };
  if (composable.status === 200)
    for (const t of composable.body?.index_templates ?? []) addTemplate('index_template', t.name, t.index_template, '/_index_template');
  if (components.status === 200)
    for (const t of components.body?.component_templates ?? []) addTemplate('component_template', t.name, t.component_template, '/_component_template');
  if (legacy.status === 200) for (const [name, body] of Object.entries(legacy.body ?? {})) addTemplate('legacy_template', name, body, '/_template');
  if (pipelines.status === 200) {
    for (const [id, body] of Object.entries(pipelines.body ?? {})) {
      const result = convertPipeline(body, options);
      if (!result.affected.length) continue;
      targets.push({
        kind: 'pipeline',
        name: id,
        severity: worst(result.affected),
        places: result.affected.map((p) => ({ ...p, deprecations: [] })),
        fix: { request: { method: 'PUT', path: `/_ingest/pipeline/${enc(id)}`, body: result.body } },
      });
    }
  }

  const deprecationReport = deprecations.status === 200 && isObject(deprecations.body) ? deprecations.body : undefined;
  const available = deprecationReport !== undefined;
  const unmatched = deprecationReport ? matchDeprecations(deprecationReport, targets) : [];
  const places = targets.flatMap((t) => t.places);
  return {
    cluster: { url: client.baseUrl, version: version.number },
    targets,
    skippedJavaIndices,
    deprecations: { available, unmatched },
    summary: {
      indices: targets.filter((t) => t.kind === 'index').length,
      templates: targets.filter((t) => t.kind.endsWith('template')).length,
      pipelines: targets.filter((t) => t.kind === 'pipeline').length,
      places: places.length,
      exact: places.filter((p) => p.severity === 'exact').length,
      review: places.filter((p) => p.severity === 'review').length,
      unsupported: places.filter((p) => p.severity === 'unsupported').length,
    },
  };
}

/** Flattens `GET /_migration/deprecations` to its date-format entries. */
export function dateDeprecations(body: Json): DeprecationEntry[] {
  const out: DeprecationEntry[] = [];
  const take = (entry: unknown, source: string, index?: string) => {
    if (!isObject(entry)) return;
    const { level, message, url, details } = entry;
    const text = `${message ?? ''} ${details ?? ''}`;
    if (!DATE_DEPRECATION.test(text)) return;
    out.push({
      level: String(level ?? 'warning'),
      message: String(message ?? ''),
      url: typeof url === 'string' ? url : undefined,
      details: typeof details === 'string' ? details : undefined,
      source,
      ...(index ? { index } : {}),
    });
  };
  for (const [source, value] of Object.entries(body)) {
    if (Array.isArray(value)) for (const entry of value) take(entry, source);
    else if (value && typeof value === 'object')
      for (const [name, entries] of Object.entries(value)) if (Array.isArray(entries)) for (const entry of entries) take(entry, source, name);
  }
  return out;
}

/**
 * Attaches each date-format deprecation to the places it is about and returns the rest. An index entry (7.x:
 * "This index has date fields with deprecated formats: [[type: _doc, field: when, format: YYYY-MM-dd, suggestion:
 * ...]]") goes to the fields it names, or to every place of the index when it names none the scan found; a cluster
 * entry goes to the templates and pipelines whose names its details mention.
 */
export function matchDeprecations(body: Json, targets: ScanTarget[]): DeprecationEntry[] {
  const unmatched: DeprecationEntry[] = [];
  for (const entry of dateDeprecations(body)) {
    let matched = false;
    if (entry.index) {
      const target = targets.find((t) => t.kind === 'index' && t.name === entry.index);
      if (target) {
        const fields = [...(entry.details ?? '').matchAll(/field: ([^,\]]+)/g)].map((m) => m[1]!.trim());
        const named = target.places.filter((p) => p.field && fields.some((f) => f === p.field || p.field!.endsWith(`.${f}`)));
        for (const place of named.length ? named : target.places) place.deprecations.push(entry);
        matched = true;
      }
    } else {
      const text = `${entry.message} ${entry.details ?? ''}`;
      for (const target of targets) {
        if (target.kind === 'index' || !new RegExp(`(^|[^\\w.-])${escapeRegExp(target.name)}($|[^\\w.-])`).test(text)) continue;
        for (const place of target.places) place.deprecations.push(entry);
        matched = true;
      }
    }
    if (!matched) unmatched.push(entry);
  }
  return unmatched;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A few lines per target, for the terminal. */
export function formatScan(result: ScanResult): string {
  const lines = [`cluster ${result.cluster.url} (version ${result.cluster.version})`];
  if (!result.targets.length) lines.push('no custom date formats need converting');
  for (const target of result.targets) {
    lines.push('', `${target.kind} ${target.name}${target.aliases?.length ? ` (aliases: ${target.aliases.join(', ')})` : ''}: ${target.severity}`);
    for (const place of target.places) {
      lines.push(`  ${place.path}: ${place.format}  →  ${convertedForListing(place.conversion)}  [${place.severity}]`);
      for (const part of place.conversion.parts)
        for (const finding of part.findings) if (finding.severity !== 'exact') lines.push(`    ${finding.severity}: ${part.input}: ${finding.message}`);
      for (const d of place.deprecations) lines.push(`    deprecation API (${d.level}): ${d.message}`);
    }
    lines.push(
      'command' in target.fix
        ? `  fix: ${target.fix.command}`
        : `  fix: ${target.fix.request.method} ${target.fix.request.path} with the converted body (--json shows it)`,
    );
  }
  if (result.skippedJavaIndices.length)
    lines.push(
      '',
      `not listed (created by 7.0 or later, their formats are already java.time; --include-java-indices lists them): ${result.skippedJavaIndices.join(', ')}`,
    );
  lines.push(
    '',
    result.deprecations.available
      ? `deprecation API: ${result.deprecations.unmatched.length} date-format deprecation(s) not tied to a place above`
      : 'deprecation API: not available on this cluster',
  );
  for (const d of result.deprecations.unmatched) lines.push(`  ${d.source}${d.index ? ` ${d.index}` : ''}: ${d.message}${d.details ? ` (${d.details})` : ''}`);
  const s = result.summary;
  lines.push(
    `summary: ${s.indices} index(es), ${s.templates} template(s), ${s.pipelines} pipeline(s); ${s.places} place(s): ${s.exact} exact, ${s.review} review, ${s.unsupported} unsupported`,
  );
  return lines.join('\n');
}
