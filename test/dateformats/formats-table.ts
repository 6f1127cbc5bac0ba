import type { Severity } from '../../src/dateformats/convert.ts';

/**
 * One row per legacy (Joda-Time, Elasticsearch 6.x) format: from the migration guide (../shared/spec/002), from the
 * facts of issue 6, and from real-world mappings (log4j, Apache access logs, RFC 1123, Twitter, Java Date.toString,
 * compact ISO forms, European and US dates, built-in names, camelCase names, the 8 prefix, quoted literals).
 *
 * Each row gives the converted format (default options, no --lenient), the severity of each `||` part, whether the
 * conversion also accepts what else Joda accepted (`lenient`: fewer digits, names of the other length) without and
 * with --lenient (`lenientOption`), and what the differential oracle (real Joda-Time 2.10 against java.time configured
 * like Elasticsearch) says about the conversion:
 * - `same`: every string Joda printed parses to the same instant and java prints it the same (--fail-on-print-diff);
 *   for `review` rows this means printed strings are fine and the review is about other inputs (case, full names);
 * - `parse`: parsing is equivalent, printing differs (z prints Z for UTC);
 * - `differs`: strings Joda printed are rejected or shifted by java (the row must not be `exact`);
 * - `invalid`: java.time rejects the pattern (C, more than 9 fraction digits);
 * - no value: the oracle cannot check the row (built-in names other than epoch_*, the 8 prefix, print-only Joda).
 * Offsets are printed in Asia/Kolkata (+05:30) so that the offset printer matters.
 */
export interface Row {
  input: string;
  output: string;
  /** One severity for a one-part format, else one per part. */
  severity: Severity | Severity[];
  lenient?: boolean;
  /** With --lenient: accepts everything else Joda accepted (default: true unless a part is unsupported). */
  lenientOption?: boolean;
  oracle?: 'same' | 'parse' | 'differs' | 'invalid';
  /**
   * The oracle's year range when the default one does not fit: formats without a year use 1969-1971, because Joda
   * (default year 1970) refused Feb 29 for them, so it was never stored (java.time refuses it too).
   */
  years?: string;
}

const alt = (...parts: string[]) => parts.join('||');
/** The five alternatives of Joda Z (printer xx: +0530) and ZZ (printer xxx: +05:30); {Z} marks the offset. */
const z1 = (p: string) => ['xx', 'X', 'XXX', 'XXXX', 'XXXXX'].map((x) => p.replace('{Z}', x)).join('||');
const zz = (p: string) => ['xxx', 'XXX', 'X', 'XXXX', 'XXXXX'].map((x) => p.replace('{Z}', x)).join('||');

export const ROWS: Row[] = [
  { input: 'yyyy-MM-dd', output: alt('uuuu-MM-dd', 'uuuu-MM-d'), severity: 'exact', oracle: 'same' },
  { input: 'YYYY-MM-dd', output: alt('yyyy-MM-dd', 'yyyy-MM-d'), severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm:ss', output: alt('uuuu-MM-dd HH:mm:ss', 'uuuu-MM-d HH:mm:ss'), severity: 'exact', oracle: 'same' },
  { input: 'dd/MM/yyyy', output: alt('dd/MM/uuuu', 'd/MM/uuuu'), severity: 'exact', oracle: 'same' },
  { input: 'MM/dd/yyyy HH:mm', output: alt('MM/dd/uuuu HH:mm', 'MM/d/uuuu HH:mm'), severity: 'exact', oracle: 'same' },
  { input: "yyyyMMdd'T'HHmmssZ", output: alt(z1("uuuuMMdd'T'HHmmss{Z}")), severity: 'exact', lenientOption: false, oracle: 'same' },
  {
    input: 'EEE, dd MMM yyyy HH:mm:ss Z',
    output: alt(z1('EEE, dd MMM uuuu HH:mm:ss {Z}'), z1('EEE, d MMM uuuu HH:mm:ss {Z}')),
    severity: 'review',
    lenientOption: false,
    oracle: 'same',
  },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
    output: alt(zz("uuuu-MM-dd'T'HH:mm:ss.SSS{Z}"), zz("uuuu-MM-d'T'HH:mm:ss.SSS{Z}")),
    severity: 'exact',
    oracle: 'same',
  },
  { input: 'epoch_millis||yyyy-MM-dd', output: alt('epoch_millis', 'uuuu-MM-dd', 'uuuu-MM-d'), severity: ['exact', 'exact'], oracle: 'same' },
  { input: 'dd.MM.yyyy', output: alt('dd.MM.uuuu', 'd.MM.uuuu'), severity: 'exact', oracle: 'same' },
  {
    input: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis',
    output: alt('uuuu/MM/dd HH:mm:ss', 'uuuu/MM/d HH:mm:ss', 'uuuu/MM/dd', 'uuuu/MM/d', 'epoch_millis'),
    severity: ['exact', 'exact', 'exact'],
    oracle: 'same',
  },
  { input: 'HH:mm:ss', output: 'HH:mm:ss', severity: 'exact', oracle: 'same' },
  { input: "xxxx-'W'ww-e", output: "YYYY-'W'ww-c", severity: 'exact', oracle: 'same' },
  { input: 'CCyy-MM-dd', output: alt('CCuu-MM-dd', 'CCuu-MM-d'), severity: 'unsupported', oracle: 'invalid' },
  { input: 'hh:mm a', output: 'hh:mm a', severity: 'review', oracle: 'same' },
  { input: 'yy-MM-dd', output: alt('uu-MM-dd', 'uu-MM-d'), severity: 'unsupported', oracle: 'differs' },
  { input: 'yyyy-MM-dd HH:mm:ss ZZZ', output: alt('uuuu-MM-dd HH:mm:ss VV', 'uuuu-MM-d HH:mm:ss VV'), severity: 'review', oracle: 'parse' },
  { input: 'yyyy-MM-dd HH:mm:ss z', output: alt('uuuu-MM-dd HH:mm:ss z', 'uuuu-MM-d HH:mm:ss z'), severity: 'review', oracle: 'parse' },
  { input: 'strict_date_optional_time', output: 'strict_date_optional_time', severity: 'exact', lenient: true },
  { input: 'epoch_second', output: 'epoch_second', severity: 'exact', lenient: true, oracle: 'same' },
  { input: 'date_optional_time||epoch_millis', output: alt('date_optional_time', 'epoch_millis'), severity: ['exact', 'exact'], lenient: true },
  { input: 'strict_date_optional_time||epoch_millis', output: alt('strict_date_optional_time', 'epoch_millis'), severity: ['exact', 'exact'], lenient: true },
  { input: 'basic_date', output: 'basic_date', severity: 'exact', lenient: true },
  { input: 'basic_date_time_no_millis', output: 'basic_date_time_no_millis', severity: 'exact', lenient: true },
  { input: 'dateOptionalTime', output: 'date_optional_time', severity: 'exact', lenient: true },
  { input: 'strictDateOptionalTime||epoch_millis', output: alt('strict_date_optional_time', 'epoch_millis'), severity: ['exact', 'exact'], lenient: true },
  { input: 'basicDateTime', output: 'basic_date_time', severity: 'exact', lenient: true },
  { input: 'dateTimeNoMillis', output: 'date_time_no_millis', severity: 'exact', lenient: true },
  { input: 'strictYearMonthDay', output: 'strict_year_month_day', severity: 'exact', lenient: true },
  { input: 'hourMinuteSecond', output: 'hour_minute_second', severity: 'exact', lenient: true },
  { input: 'weekyearWeekDay', output: 'weekyear_week_day', severity: 'exact', lenient: true },
  { input: '8yyyy-MM-dd', output: 'yyyy-MM-dd', severity: 'exact', lenient: true },
  { input: "8uuuu-MM-dd'T'HH:mm:ss.SSSXXX", output: "uuuu-MM-dd'T'HH:mm:ss.SSSXXX", severity: 'exact', lenient: true },
  { input: '8dd/MM/uuuu||epoch_millis', output: alt('dd/MM/uuuu', 'epoch_millis'), severity: ['exact', 'exact'], lenient: true },
  { input: "yyyy-MM-dd'T'HH:mm:ss'Z'", output: alt("uuuu-MM-dd'T'HH:mm:ss'Z'", "uuuu-MM-d'T'HH:mm:ss'Z'"), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", output: alt("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", "uuuu-MM-d'T'HH:mm:ss.SSS'Z'"), severity: 'exact', oracle: 'same' },
  { input: "HH 'o''clock'", output: "HH 'o''clock'", severity: 'exact', oracle: 'same' },
  { input: "yyyy''MM''dd", output: alt("uuuu''MM''dd", "uuuu''MM''d"), severity: 'exact', oracle: 'same' },
  { input: "'Date: 'yyyy-MM-dd", output: alt("'Date: 'uuuu-MM-dd", "'Date: 'uuuu-MM-d"), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ss", output: alt("uuuu-MM-dd'T'HH:mm:ss", "uuuu-MM-d'T'HH:mm:ss"), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ss.SSS", output: alt("uuuu-MM-dd'T'HH:mm:ss.SSS", "uuuu-MM-d'T'HH:mm:ss.SSS"), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ssZ", output: alt(z1("uuuu-MM-dd'T'HH:mm:ss{Z}"), z1("uuuu-MM-d'T'HH:mm:ss{Z}")), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ssZZ", output: alt(zz("uuuu-MM-dd'T'HH:mm:ss{Z}"), zz("uuuu-MM-d'T'HH:mm:ss{Z}")), severity: 'exact', oracle: 'same' },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSZ",
    output: alt(z1("uuuu-MM-dd'T'HH:mm:ss.SSS{Z}"), z1("uuuu-MM-d'T'HH:mm:ss.SSS{Z}")),
    severity: 'exact',
    oracle: 'same',
  },
  {
    input: 'yyyy-MM-dd HH:mm:ss||yyyy-MM-dd||epoch_millis',
    output: alt('uuuu-MM-dd HH:mm:ss', 'uuuu-MM-d HH:mm:ss', 'uuuu-MM-dd', 'uuuu-MM-d', 'epoch_millis'),
    severity: ['exact', 'exact', 'exact'],
    oracle: 'same',
  },
  { input: 'yyyy-MM-dd HH:mm:ss.SSS', output: alt('uuuu-MM-dd HH:mm:ss.SSS', 'uuuu-MM-d HH:mm:ss.SSS'), severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm:ss,SSS', output: alt('uuuu-MM-dd HH:mm:ss,SSS', 'uuuu-MM-d HH:mm:ss,SSS'), severity: 'exact', oracle: 'same' },
  { input: 'HH:mm:ss,SSS', output: 'HH:mm:ss,SSS', severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm:ss Z', output: alt(z1('uuuu-MM-dd HH:mm:ss {Z}'), z1('uuuu-MM-d HH:mm:ss {Z}')), severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm:ssZZ', output: alt(zz('uuuu-MM-dd HH:mm:ss{Z}'), zz('uuuu-MM-d HH:mm:ss{Z}')), severity: 'exact', oracle: 'same' },
  { input: 'dd/MMM/yyyy:HH:mm:ss Z', output: alt(z1('dd/MMM/uuuu:HH:mm:ss {Z}'), z1('d/MMM/uuuu:HH:mm:ss {Z}')), severity: 'review', oracle: 'same' },
  { input: 'dd-MM-yyyy', output: alt('dd-MM-uuuu', 'd-MM-uuuu'), severity: 'exact', oracle: 'same' },
  { input: 'MM-dd-yyyy', output: alt('MM-dd-uuuu', 'MM-d-uuuu'), severity: 'exact', oracle: 'same' },
  { input: 'MM/dd/yyyy', output: alt('MM/dd/uuuu', 'MM/d/uuuu'), severity: 'exact', oracle: 'same' },
  { input: 'M/d/yyyy', output: 'M/d/uuuu', severity: 'exact', oracle: 'same' },
  { input: 'd/M/yyyy', output: 'd/M/uuuu', severity: 'exact', oracle: 'same' },
  { input: 'd.M.yyyy', output: 'd.M.uuuu', severity: 'exact', oracle: 'same' },
  { input: 'M/d/yyyy h:mm a', output: 'M/d/uuuu h:mm a', severity: 'review', oracle: 'same' },
  { input: 'MM/dd/yyyy hh:mm:ss a', output: alt('MM/dd/uuuu hh:mm:ss a', 'MM/d/uuuu hh:mm:ss a'), severity: 'review', oracle: 'same' },
  { input: 'yyyyMMdd', output: 'uuuuMMdd', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'yyyyMMddHHmmss', output: 'uuuuMMddHHmmss', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'yyyyMMddHHmm', output: 'uuuuMMddHHmm', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'yyyyMMdd HHmmss', output: 'uuuuMMdd HHmmss', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'yyyyMMddHHmmssSSS', output: 'uuuuMMddHHmmssSSS', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'HHmmss', output: 'HHmmss', severity: 'exact', oracle: 'same' },
  { input: 'HHmm', output: 'HHmm', severity: 'exact', oracle: 'same' },
  { input: 'HH:mm', output: 'HH:mm', severity: 'exact', oracle: 'same' },
  { input: 'HH:mm:ss.SSS', output: 'HH:mm:ss.SSS', severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM', output: 'uuuu-MM', severity: 'exact', oracle: 'same' },
  { input: 'yyyy', output: 'uuuu', severity: 'exact', oracle: 'same' },
  { input: 'yyyyMM', output: 'uuuuMM', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'yyyy-DDD', output: 'uuuu-DDD', severity: 'exact', oracle: 'same' },
  { input: 'yyyyDDD', output: 'uuuuDDD', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'MMM d, yyyy', output: 'MMM d, uuuu', severity: 'review', oracle: 'same' },
  { input: 'MMMM dd, yyyy', output: alt('MMMM dd, uuuu', 'MMMM d, uuuu'), severity: 'review', oracle: 'same' },
  { input: 'dd MMM yyyy', output: alt('dd MMM uuuu', 'd MMM uuuu'), severity: 'review', oracle: 'same' },
  { input: 'dd-MMM-yyyy', output: alt('dd-MMM-uuuu', 'd-MMM-uuuu'), severity: 'review', oracle: 'same' },
  {
    input: 'EEE MMM dd HH:mm:ss zzz yyyy',
    output: alt('EEE MMM dd HH:mm:ss z uuuu', 'EEE MMM d HH:mm:ss z uuuu'),
    severity: 'review',
    lenientOption: false,
    oracle: 'parse',
  },
  {
    input: 'EEE MMM dd HH:mm:ss Z yyyy',
    output: alt(z1('EEE MMM dd HH:mm:ss {Z} uuuu'), z1('EEE MMM d HH:mm:ss {Z} uuuu')),
    severity: 'review',
    lenientOption: false,
    oracle: 'same',
  },
  { input: 'EEEE, MMMM d, yyyy', output: 'EEEE, MMMM d, uuuu', severity: 'review', lenientOption: false, oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ss.SSSSSS", output: alt("uuuu-MM-dd'T'HH:mm:ss.SSSSSS", "uuuu-MM-d'T'HH:mm:ss.SSSSSS"), severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm:ss.SSSSSS', output: alt('uuuu-MM-dd HH:mm:ss.SSSSSS', 'uuuu-MM-d HH:mm:ss.SSSSSS'), severity: 'exact', oracle: 'same' },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSZZ",
    output: alt(zz("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS{Z}"), zz("uuuu-MM-d'T'HH:mm:ss.SSSSSSSSS{Z}")),
    severity: 'exact',
    lenientOption: false,
    oracle: 'same',
  },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSSSS",
    output: alt("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSSSS", "uuuu-MM-d'T'HH:mm:ss.SSSSSSSSSSSS"),
    severity: 'unsupported',
    oracle: 'invalid',
  },
  { input: 'yyyy.MM.dd', output: alt('uuuu.MM.dd', 'uuuu.MM.d'), severity: 'exact', oracle: 'same' },
  { input: 'yyyy/MM/dd', output: alt('uuuu/MM/dd', 'uuuu/MM/d'), severity: 'exact', oracle: 'same' },
  { input: 'yyyy.MM.dd HH:mm:ss', output: alt('uuuu.MM.dd HH:mm:ss', 'uuuu.MM.d HH:mm:ss'), severity: 'exact', oracle: 'same' },
  { input: 'dd/MM/yyyy HH:mm:ss', output: alt('dd/MM/uuuu HH:mm:ss', 'd/MM/uuuu HH:mm:ss'), severity: 'exact', oracle: 'same' },
  { input: 'dd.MM.yyyy HH:mm', output: alt('dd.MM.uuuu HH:mm', 'd.MM.uuuu HH:mm'), severity: 'exact', oracle: 'same' },
  { input: 'dd.MM.yyyy HH:mm:ss', output: alt('dd.MM.uuuu HH:mm:ss', 'd.MM.uuuu HH:mm:ss'), severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm', output: alt('uuuu-MM-dd HH:mm', 'uuuu-MM-d HH:mm'), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm", output: alt("uuuu-MM-dd'T'HH:mm", "uuuu-MM-d'T'HH:mm"), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mmZZ", output: alt(zz("uuuu-MM-dd'T'HH:mm{Z}"), zz("uuuu-MM-d'T'HH:mm{Z}")), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH", output: alt("uuuu-MM-dd'T'HH", "uuuu-MM-d'T'HH"), severity: 'exact', oracle: 'same' },
  { input: 'kk:mm:ss', output: 'kk:mm:ss', severity: 'exact', oracle: 'same' },
  { input: 'KK:mm a', output: 'KK:mm a', severity: 'review', oracle: 'same' },
  { input: 'yyyy-MM-dd hh:mm:ss', output: alt('uuuu-MM-dd hh:mm:ss', 'uuuu-MM-d hh:mm:ss'), severity: 'unsupported', oracle: 'differs' },
  { input: 'yyyy-MM-dd hh:mm:ss a', output: alt('uuuu-MM-dd hh:mm:ss a', 'uuuu-MM-d hh:mm:ss a'), severity: 'review', oracle: 'same' },
  { input: 'yyMMdd', output: 'uuMMdd', severity: 'unsupported', oracle: 'differs' },
  { input: 'yyMMddHHmmss', output: 'uuMMddHHmmss', severity: 'unsupported', oracle: 'differs' },
  { input: 'dd/MM/yy', output: alt('dd/MM/uu', 'd/MM/uu'), severity: 'unsupported', oracle: 'differs' },
  { input: 'MM/dd/yy HH:mm', output: alt('MM/dd/uu HH:mm', 'MM/d/uu HH:mm'), severity: 'unsupported', oracle: 'differs' },
  { input: 'YY-MM-dd', output: alt('yy-MM-dd', 'yy-MM-d'), severity: 'unsupported', oracle: 'differs' },
  { input: 'YYYY-MM-dd HH:mm:ss', output: alt('yyyy-MM-dd HH:mm:ss', 'yyyy-MM-d HH:mm:ss'), severity: 'exact', oracle: 'same' },
  { input: 'YYYY/MM/dd', output: alt('yyyy/MM/dd', 'yyyy/MM/d'), severity: 'exact', oracle: 'same' },
  { input: 'YYYYMMdd', output: 'yyyyMMdd', severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: "xxxx'W'wwe", output: "YYYY'W'wwc", severity: 'exact', oracle: 'same' },
  { input: "xxxx-'W'ww", output: "YYYY-'W'ww", severity: 'exact', oracle: 'same' },
  { input: 'xxxx-ww-e', output: 'YYYY-ww-c', severity: 'exact', oracle: 'same' },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ||yyyy-MM-dd'T'HH:mm:ssZZ",
    output: alt(zz("uuuu-MM-dd'T'HH:mm:ss.SSS{Z}"), zz("uuuu-MM-d'T'HH:mm:ss.SSS{Z}"), zz("uuuu-MM-dd'T'HH:mm:ss{Z}"), zz("uuuu-MM-d'T'HH:mm:ss{Z}")),
    severity: ['exact', 'exact'],
    oracle: 'same',
  },
  { input: 'yyyy-MM-dd G', output: alt('uuuu-MM-dd G', 'uuuu-MM-d G'), severity: 'review', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ssZZZ", output: alt("uuuu-MM-dd'T'HH:mm:ssVV", "uuuu-MM-d'T'HH:mm:ssVV"), severity: 'review', oracle: 'parse' },
  { input: 'ZZZ', output: 'VV', severity: 'unsupported', oracle: 'differs' },
  { input: 'z', output: 'z', severity: 'unsupported', oracle: 'differs' },
  // Joda could not parse its own zzzz output (print-only): nothing to compare; a zone alone gives no instant in java.
  { input: 'zzzz', output: 'zzzz', severity: 'unsupported' },
  { input: 'CC', output: 'CC', severity: 'unsupported', oracle: 'invalid' },
  { input: 'yyyy-ww', output: 'uuuu-ww', severity: 'unsupported', oracle: 'differs' },
  { input: 'yyyy-MM-ddddd', output: "uuuu-MM-'000'dd", severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'eeee yyyy-MM', output: "'000'c uuuu-MM", severity: 'unsupported', oracle: 'differs' },
  { input: 'EEEE yyyy-MM', output: 'EEEE uuuu-MM', severity: 'unsupported', oracle: 'differs' },
  { input: 'EEE yyyy-MM', output: 'EEE uuuu-MM', severity: 'unsupported', oracle: 'differs' },
  { input: 'e', output: 'c', severity: 'unsupported', oracle: 'differs' },
  { input: 'ee', output: 'ee', severity: 'unsupported', oracle: 'differs' },
  { input: 'HH:mm:ss.SSSZ', output: alt(z1('HH:mm:ss.SSS{Z}')), severity: 'exact', oracle: 'same' },
  { input: 'HH:mm:ssZZ', output: alt(zz('HH:mm:ss{Z}')), severity: 'exact', oracle: 'same' },
  { input: 'HHmmssZ', output: alt(z1('HHmmss{Z}')), severity: 'exact', oracle: 'same' },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ||epoch_millis",
    output: alt(zz("uuuu-MM-dd'T'HH:mm:ss.SSS{Z}"), zz("uuuu-MM-d'T'HH:mm:ss.SSS{Z}"), 'epoch_millis'),
    severity: ['exact', 'exact'],
    oracle: 'same',
  },
  {
    input: 'epoch_second||yyyy-MM-dd HH:mm:ss',
    output: alt('epoch_second', 'uuuu-MM-dd HH:mm:ss', 'uuuu-MM-d HH:mm:ss'),
    severity: ['exact', 'exact'],
    oracle: 'same',
  },
  { input: '[yyyy-MM-dd]', output: alt("'['uuuu-MM-dd']'", "'['uuuu-MM-d']'"), severity: 'exact', oracle: 'same' },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ||strict_date_optional_time",
    output: alt(zz("uuuu-MM-dd'T'HH:mm:ss.SSS{Z}"), zz("uuuu-MM-d'T'HH:mm:ss.SSS{Z}"), 'strict_date_optional_time'),
    severity: ['exact', 'exact'],
  },
  { input: 'D', output: 'D', severity: 'unsupported', oracle: 'differs' },
  { input: 'yyyy-M-d', output: 'uuuu-M-d', severity: 'exact', oracle: 'same' },
  { input: 'yyyy-M-d H:m:s', output: 'uuuu-M-d H:m:s', severity: 'exact', oracle: 'same' },
  { input: 'H:mm', output: 'H:mm', severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd H:mm:ss', output: alt('uuuu-MM-dd H:mm:ss', 'uuuu-MM-d H:mm:ss'), severity: 'exact', oracle: 'same' },
  { input: 'dd/MM/yyyy HH:mm:ss.SSS', output: alt('dd/MM/uuuu HH:mm:ss.SSS', 'd/MM/uuuu HH:mm:ss.SSS'), severity: 'exact', oracle: 'same' },
  { input: 'MM/dd/yyyy HH:mm:ss.SSSZ', output: alt(z1('MM/dd/uuuu HH:mm:ss.SSS{Z}'), z1('MM/d/uuuu HH:mm:ss.SSS{Z}')), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ss.SS", output: alt("uuuu-MM-dd'T'HH:mm:ss.SS", "uuuu-MM-d'T'HH:mm:ss.SS"), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ss.S", output: alt("uuuu-MM-dd'T'HH:mm:ss.S", "uuuu-MM-d'T'HH:mm:ss.S"), severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm:ss.SSSZZ', output: alt(zz('uuuu-MM-dd HH:mm:ss.SSS{Z}'), zz('uuuu-MM-d HH:mm:ss.SSS{Z}')), severity: 'exact', oracle: 'same' },
  { input: 'yyyy-MM-dd HH:mm:ss.SSS Z', output: alt(z1('uuuu-MM-dd HH:mm:ss.SSS {Z}'), z1('uuuu-MM-d HH:mm:ss.SSS {Z}')), severity: 'exact', oracle: 'same' },
  { input: "yyyy-MM-dd'T'HH:mm:ss.SSSZZZ", output: alt("uuuu-MM-dd'T'HH:mm:ss.SSSVV", "uuuu-MM-d'T'HH:mm:ss.SSSVV"), severity: 'review', oracle: 'parse' },
  { input: 'yyyyy-MM-dd', output: alt('uuuuu-MM-dd', 'uuuuu-MM-d'), severity: 'exact', oracle: 'same' },
  { input: 'y-MM-dd', output: alt('u-MM-dd', 'u-MM-d'), severity: 'exact', oracle: 'same' },
  { input: 'YYYY', output: 'yyyy', severity: 'exact', oracle: 'same' },
  { input: "yyyy-'Q'M", output: "uuuu-'Q'M", severity: 'exact', oracle: 'same' },
  { input: 'ssSSS', output: 'ssSSS', severity: 'unsupported', oracle: 'differs' },
  { input: 'mm:ss', output: 'mm:ss', severity: 'unsupported', oracle: 'differs' },
  {
    input: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSZ",
    output: alt(z1("uuuu-MM-dd'T'HH:mm:ss.SSSSSS{Z}"), z1("uuuu-MM-d'T'HH:mm:ss.SSSSSS{Z}")),
    severity: 'exact',
    lenientOption: false,
    oracle: 'same',
  },
  { input: 'dd.MM.yy', output: alt('dd.MM.uu', 'd.MM.uu'), severity: 'unsupported', oracle: 'differs' },
  { input: 'dd', output: alt('dd', 'd'), severity: 'unsupported', oracle: 'differs' },
  { input: 'yyyy-dd', output: alt('uuuu-dd', 'uuuu-d'), severity: 'unsupported', oracle: 'differs' },
  { input: 'HH:mm.SSS', output: 'HH:mm.SSS', severity: 'unsupported', oracle: 'differs' },
  { input: 'EEE HH:mm', output: 'EEE HH:mm', severity: 'unsupported', oracle: 'differs' },
  { input: 'MM-dd', output: alt('MM-dd', 'MM-d'), severity: 'exact', oracle: 'same', years: '1969-1971' }, // no year: Joda (1970) rejected its own 02-29, so no leap years
  { input: 'MMdd', output: 'MMdd', severity: 'exact', oracle: 'same', years: '1969-1971' }, // no year: Joda (1970) rejected its own 02-29, so no leap years
  { input: 'yyyy-MM-dd e', output: alt('uuuu-MM-dd c', 'uuuu-MM-d c'), severity: 'exact', lenientOption: false, oracle: 'same' },
  { input: 'xxxx-e', output: 'YYYY-c', severity: 'unsupported', oracle: 'differs' },
  // Issue 11: years of fewer digits at the end of an adjacent run, formats without a year (syslog), names of either length.
  { input: 'ddMMyyyy', output: 'ddMMuuuu', severity: 'exact', oracle: 'same' },
  { input: 'MMddyyyy', output: 'MMdduuuu', severity: 'exact', oracle: 'same' },
  { input: 'HHmmssSSS', output: 'HHmmssSSS', severity: 'exact', oracle: 'same' },
  { input: 'ddMMyyyy HH:mm', output: 'ddMMuuuu HH:mm', severity: 'exact', oracle: 'same' },
  { input: 'MMM d yyyy HH:mm:ss.SSS', output: 'MMM d uuuu HH:mm:ss.SSS', severity: 'review', oracle: 'same' },
  { input: 'yyy-MM-dd', output: alt('uuu-MM-dd', 'uuu-MM-d'), severity: 'exact', oracle: 'same' },
  { input: 'MMM dd HH:mm:ss', output: alt('MMM dd HH:mm:ss', 'MMM d HH:mm:ss'), severity: 'review', oracle: 'same', years: '1969-1971' },
  { input: 'MMM d HH:mm:ss', output: 'MMM d HH:mm:ss', severity: 'review', oracle: 'same', years: '1969-1971' },
  { input: 'dd/MM', output: alt('dd/MM', 'd/MM'), severity: 'exact', oracle: 'same', years: '1969-1971' },
  { input: 'dd/MM HH:mm', output: alt('dd/MM HH:mm', 'd/MM HH:mm'), severity: 'exact', oracle: 'same', years: '1969-1971' },
  { input: 'EEE MMM d HH:mm:ss yyyy', output: 'EEE MMM d HH:mm:ss uuuu', severity: 'review', lenientOption: false, oracle: 'same' },
  { input: 'd MMMM yyyy', output: 'd MMMM uuuu', severity: 'review', oracle: 'same' },
  { input: 'EEEE dd.MM.yyyy', output: alt('EEEE dd.MM.uuuu', 'EEEE d.MM.uuuu'), severity: 'review', lenientOption: false, oracle: 'same' },
];
