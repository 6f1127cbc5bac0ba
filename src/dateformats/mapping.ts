import { convertFormat, DateFormatError, type Conversion } from './convert.ts';

/**
 * Finds every custom date format in what Elasticsearch stores (index mappings, index templates, ingest pipelines)
 * and converts it with {@link convertFormat}. The inputs are never modified: each function returns a converted deep
 * copy and the list of places it changed (or would change, had the format an equivalent).
 *
 * Looked at, beyond the specification's `properties.<field>.format` of `date` and `date_nanos` fields:
 * - `date_range` fields (their `format` is parsed by the same formatter);
 * - object and nested `properties`, multi-fields (`fields`), `runtime` fields of type date;
 * - `dynamic_templates` whose `mapping` (or `runtime`) is a date, or a `{dynamic_type}` / untyped mapping under
 *   `match_mapping_type: "date"`;
 * - the root `dynamic_date_formats` (the patterns date detection tries);
 * - 6.x-style typed mappings (`{"_doc": {"properties": ...}}`, still found in legacy templates);
 * - ingest `date` processors' `formats` and `date_index_name` processors' `date_formats`, including processors under
 *   `on_failure` (of a processor or of the pipeline) and inside `foreach`. A converted entry with several
 *   alternatives becomes several entries (the processor tries them in order, as `||` would).
 */

export type { Conversion };
export type Severity = Conversion['parts'][number]['severity'];

/**
 * `index.version.created` ("6080099" for 6.8.0) → major version. Indices created before 7.0 read custom formats as
 * Joda patterns; those created by 7.0 or later already read them as java.time.
 */
export function createdMajor(versionCreated: unknown): number | undefined {
  const text = String(versionCreated ?? '');
  if (!/^\d{7,}$/.test(text)) return undefined;
  return Math.floor(Number(text) / 1_000_000);
}

export interface AffectedPlace {
  /** Where in the object (mapping response body, template body, pipeline body) the format is, dotted with [i]. */
  path: string;
  kind: 'field' | 'runtime_field' | 'dynamic_template' | 'dynamic_date_formats' | 'processor';
  /** The field's full name (`event.when`, `title.as_date` for a multi-field), the dynamic template's name, or the processor's field. */
  field?: string;
  format: string;
  conversion: Conversion;
  /** The worst severity of the conversion's parts. */
  severity: Severity;
}

export interface ConvertOptions {
  lenient?: boolean;
}

const DATE_TYPES = new Set<unknown>(['date', 'date_nanos', 'date_range']);
/** The ingest date processor's own format names (not DateFormatter patterns). */
const PROCESSOR_FORMATS = new Set(['ISO8601', 'UNIX', 'UNIX_MS', 'TAI64N']);
const RANK: Record<Severity, number> = { exact: 0, review: 1, unsupported: 2 };

export function worstSeverity(conversion: Conversion): Severity {
  let worst: Severity = 'exact';
  for (const part of conversion.parts) if (RANK[part.severity] > RANK[worst]) worst = part.severity;
  return worst;
}

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const clone = <T>(value: T): T => structuredClone(value);

class Collector {
  readonly affected: AffectedPlace[] = [];
  constructor(private readonly options: ConvertOptions) {}

  /** Converts `format`; records the place when the format changes or is not exactly equivalent. Returns the new format. */
  convert(format: string, place: Omit<AffectedPlace, 'format' | 'conversion' | 'severity'>): string {
    let conversion: Conversion;
    try {
      conversion = convertFormat(format, { lenient: this.options.lenient });
    } catch (error) {
      if (!(error instanceof DateFormatError)) throw error;
      // Not a pattern 6.x accepted either: keep it, and say so.
      const finding = { severity: 'unsupported' as const, message: `cannot convert: ${error.message}` };
      conversion = {
        input: format,
        output: null,
        bestEffortOutput: format,
        exact: false,
        lenient: false,
        usable: false,
        parts: [
          { input: format, output: null, bestEffortOutput: format, severity: 'unsupported', lenient: false, changes: [], findings: [finding], suggestions: [] },
        ],
      };
    }
    const severity = worstSeverity(conversion);
    if (conversion.bestEffortOutput !== format || severity !== 'exact') this.affected.push({ ...place, format, conversion, severity });
    // An unsupported format is written as its best effort: the migration refuses it unless told to go ahead.
    return conversion.bestEffortOutput;
  }
}

/** Keys at the root of a typeless mapping; anything else alone at the root is a 6.x type name. */
const ROOT_KEYS = new Set([
  'properties',
  'dynamic_templates',
  'runtime',
  'dynamic_date_formats',
  '_meta',
  '_source',
  '_routing',
  'dynamic',
  'date_detection',
  'numeric_detection',
  'enabled',
  '_field_names',
  '_all',
  '_size',
  '_data_stream_timestamp',
]);

function walkMappingRoot(mappings: Json, at: string, c: Collector): void {
  const keys = Object.keys(mappings);
  const typeName = keys.length === 1 && !ROOT_KEYS.has(keys[0]!) ? keys[0]! : undefined;
  const typed = typeName === undefined ? undefined : mappings[typeName];
  if (isObject(typed)) {
    // {"_doc": {...}}: a typed mapping.
    walkMappingRoot(typed, `${at}.${typeName}`, c);
    return;
  }
  if (isObject(mappings.properties)) walkProperties(mappings.properties, `${at}.properties`, '', c);
  if (isObject(mappings.runtime)) walkRuntime(mappings.runtime, `${at}.runtime`, c);
  if (Array.isArray(mappings.dynamic_date_formats)) {
    mappings.dynamic_date_formats = mappings.dynamic_date_formats.map((format: unknown, i: number) =>
      typeof format === 'string' ? c.convert(format, { path: `${at}.dynamic_date_formats[${i}]`, kind: 'dynamic_date_formats' }) : format,
    );
  }
  if (Array.isArray(mappings.dynamic_templates)) {
    mappings.dynamic_templates.forEach((entry: unknown, i: number) => {
      if (!isObject(entry)) return;
      for (const [name, template] of Object.entries(entry)) {
        if (!isObject(template)) continue;
        const where = `${at}.dynamic_templates[${i}].${name}`;
        const dateMatch =
          template.match_mapping_type === 'date' || (Array.isArray(template.match_mapping_type) && template.match_mapping_type.includes('date'));
        for (const key of ['mapping', 'runtime'] as const) {
          const mapping = template[key];
          if (!isObject(mapping)) continue;
          const type = mapping.type;
          const isDate = DATE_TYPES.has(type) || ((type === undefined || type === '{dynamic_type}') && dateMatch);
          if (isDate && typeof mapping.format === 'string') {
            mapping.format = c.convert(mapping.format, { path: `${where}.${key}.format`, kind: 'dynamic_template', field: name });
          }
          if (isObject(mapping.fields)) walkProperties(mapping.fields, `${where}.${key}.fields`, `${name}.*`, c);
          if (isObject(mapping.properties)) walkProperties(mapping.properties, `${where}.${key}.properties`, `${name}.*`, c);
        }
      }
    });
  }
}

function walkProperties(properties: Json, at: string, prefix: string, c: Collector): void {
  for (const [name, field] of Object.entries(properties)) {
    if (!isObject(field)) continue;
    const where = `${at}.${name}`;
    const fullName = prefix ? `${prefix}.${name}` : name;
    if (DATE_TYPES.has(field.type) && typeof field.format === 'string') {
      field.format = c.convert(field.format, { path: `${where}.format`, kind: 'field', field: fullName });
    }
    if (isObject(field.properties)) walkProperties(field.properties, `${where}.properties`, fullName, c);
    if (isObject(field.fields)) walkProperties(field.fields, `${where}.fields`, fullName, c);
  }
}

function walkRuntime(runtime: Json, at: string, c: Collector): void {
  for (const [name, field] of Object.entries(runtime)) {
    if (isObject(field) && DATE_TYPES.has(field.type) && typeof field.format === 'string') {
      field.format = c.convert(field.format, { path: `${at}.${name}.format`, kind: 'runtime_field', field: name });
    }
  }
}

/** One index's (or template's) `mappings` object. `at` names where it sits in the enclosing body. */
export function convertMappings(mappings: unknown, options: ConvertOptions = {}, at = 'mappings'): { mappings: Json; affected: AffectedPlace[] } {
  const c = new Collector(options);
  const copy = isObject(mappings) ? clone(mappings) : {};
  walkMappingRoot(copy, at, c);
  return { mappings: copy, affected: c.affected };
}

/** A `GET /<index>/_mapping` (or `GET /_mapping`) response: `{<index>: {mappings: {...}}}`. */
export function convertMappingResponse(response: unknown, options: ConvertOptions = {}): Record<string, { mappings: Json; affected: AffectedPlace[] }> {
  const out: Record<string, { mappings: Json; affected: AffectedPlace[] }> = {};
  if (!isObject(response)) return out;
  for (const [index, body] of Object.entries(response)) {
    if (!isObject(body)) continue;
    out[index] = convertMappings(body.mappings, options, 'mappings');
  }
  return out;
}

export type TemplateKind = 'index_template' | 'component_template' | 'legacy_template';

/**
 * A template's body as it is PUT back: composable (`PUT /_index_template/<name>`) and component
 * (`PUT /_component_template/<name>`) templates keep mappings under `template.mappings`, legacy ones
 * (`PUT /_template/<name>`) under `mappings`.
 */
export function convertTemplate(kind: TemplateKind, body: unknown, options: ConvertOptions = {}): { body: Json; affected: AffectedPlace[] } {
  const copy = isObject(body) ? clone(body) : {};
  const holder = kind === 'legacy_template' ? copy : copy.template;
  if (!isObject(holder) || !isObject(holder.mappings)) return { body: copy, affected: [] };
  const { mappings, affected } = convertMappings(holder.mappings, options, kind === 'legacy_template' ? 'mappings' : 'template.mappings');
  holder.mappings = mappings;
  return { body: copy, affected };
}

/** An ingest pipeline's body (`{description, processors, on_failure}`), as `GET /_ingest/pipeline/<id>` gives it per id. */
export function convertPipeline(pipeline: unknown, options: ConvertOptions = {}): { body: Json; affected: AffectedPlace[] } {
  const c = new Collector(options);
  const copy = isObject(pipeline) ? clone(pipeline) : {};
  walkProcessors(copy.processors, 'processors', c);
  walkProcessors(copy.on_failure, 'on_failure', c);
  return { body: copy, affected: c.affected };
}

function walkProcessors(processors: unknown, at: string, c: Collector): void {
  if (Array.isArray(processors)) processors.forEach((processor, i) => walkProcessor(processor, `${at}[${i}]`, c));
}

function walkProcessor(processor: unknown, at: string, c: Collector): void {
  if (!isObject(processor)) return;
  for (const [type, config] of Object.entries(processor)) {
    if (!isObject(config)) continue;
    const where = `${at}.${type}`;
    const listKey = type === 'date' ? 'formats' : type === 'date_index_name' ? 'date_formats' : undefined;
    if (listKey && Array.isArray(config[listKey])) {
      const converted: unknown[] = [];
      config[listKey].forEach((format: unknown, j: number) => {
        if (typeof format !== 'string' || PROCESSOR_FORMATS.has(format)) return void converted.push(format);
        const output = c.convert(format, {
          path: `${where}.${listKey}[${j}]`,
          kind: 'processor',
          field: typeof config.field === 'string' ? config.field : undefined,
        });
        converted.push(...output.split('||'));
      });
      config[listKey] = converted;
    }
    walkProcessors(config.on_failure, `${where}.on_failure`, c);
    if (type === 'foreach') walkProcessor(config.processor, `${where}.processor`, c);
  }
}
