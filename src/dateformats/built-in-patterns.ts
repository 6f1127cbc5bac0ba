import type { Suggestion } from './convert.ts';

/**
 * The Joda patterns Elasticsearch 6.x's strict built-in formats were defined as (Joda's ISODateTimeFormat, as the
 * 6.x reference lists them). A custom format spelling one of them out is better served by the built-in name, which
 * Elasticsearch 7+ keeps as a java.time format of its own: no pattern to maintain, and the name without `strict_`
 * accepts fewer digits as Joda did.
 */
const STRICT_BUILT_IN_PATTERNS: ReadonlyMap<string, string> = new Map([
  ['yyyy-MM-dd', 'strict_date'],
  ["yyyy-MM-dd'T'HH", 'strict_date_hour'],
  ["yyyy-MM-dd'T'HH:mm", 'strict_date_hour_minute'],
  ["yyyy-MM-dd'T'HH:mm:ss", 'strict_date_hour_minute_second'],
  ["yyyy-MM-dd'T'HH:mm:ss.SSS", 'strict_date_hour_minute_second_millis'],
  ["yyyy-MM-dd'T'HH:mm:ss.SSSZZ", 'strict_date_time'],
  ["yyyy-MM-dd'T'HH:mm:ssZZ", 'strict_date_time_no_millis'],
  ['yyyy-DDD', 'strict_ordinal_date'],
  ["yyyy-DDD'T'HH:mm:ss.SSSZZ", 'strict_ordinal_date_time'],
  ["yyyy-DDD'T'HH:mm:ssZZ", 'strict_ordinal_date_time_no_millis'],
  ['HH', 'strict_hour'],
  ['HH:mm', 'strict_hour_minute'],
  ['HH:mm:ss', 'strict_hour_minute_second'],
  ['HH:mm:ss.SSS', 'strict_hour_minute_second_millis'],
  ['HH:mm:ss.SSSZZ', 'strict_time'],
  ['HH:mm:ssZZ', 'strict_time_no_millis'],
  ["'T'HH:mm:ss.SSSZZ", 'strict_t_time'],
  ["'T'HH:mm:ssZZ", 'strict_t_time_no_millis'],
  ['yyyy', 'strict_year'],
  ['yyyy-MM', 'strict_year_month'],
  ['xxxx', 'strict_weekyear'],
  ["xxxx-'W'ww", 'strict_weekyear_week'],
  ["xxxx-'W'ww-e", 'strict_week_date'],
  ['yyyyMMdd', 'basic_date'],
  ["yyyyMMdd'T'HHmmss.SSSZ", 'basic_date_time'],
  ["yyyyMMdd'T'HHmmssZ", 'basic_date_time_no_millis'],
  ['yyyyDDD', 'basic_ordinal_date'],
  ['HHmmss.SSSZ', 'basic_time'],
  ['HHmmssZ', 'basic_time_no_millis'],
  ["xxxx'W'wwe", 'basic_week_date'],
]);

/** The built-in format a legacy Joda pattern spells out, as a suggestion; none for other patterns. */
export function builtInSuggestions(jodaPattern: string): Suggestion[] {
  const strict = STRICT_BUILT_IN_PATTERNS.get(jodaPattern);
  if (!strict) return [];
  const lenient = strict.startsWith('strict_') ? strict.slice('strict_'.length) : undefined;
  const offset = /Z/.test(jodaPattern.replace(/'[^']*'/g, ''));
  const message = [
    `Joda \`${jodaPattern}\` is what the built-in \`${strict}\` was in 6.x: consider the name instead of the converted pattern`,
    lenient ? ` (or \`${lenient}\`, which also accepts fewer digits, as Joda did)` : '',
    '; Elasticsearch 7+ keeps it as a java.time format of its own that parses these values',
    offset ? ' and prints UTC as `Z` where Joda printed `+00:00`' : '',
    ': test with real data',
  ].join('');
  return [{ builtIn: strict, message }];
}
