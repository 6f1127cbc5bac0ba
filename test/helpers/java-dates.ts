import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { compileOracle, JODA_JAR, oracleMissing } from './dates-oracle.ts';
import { decodeField, encodeField, LineJvm } from './line-jvm.ts';

/**
 * Elasticsearch 7.x/8.x's java.time reading of date formats, for the fake search cluster: one long-lived JVM
 * (test/helpers/java/oracle/EsJavaDates.java, compiled together with the shared oracle, whose `JavaSide` does all
 * the date work) started on first use and kept for the whole test file. Requests are written as lines and the
 * answers come back in the same order, so each pending request is a promise in a queue.
 */
const HELPER_SOURCES = fileURLToPath(new URL('./java/oracle', import.meta.url));

/** What is missing to run the helper (JDK, Joda jar, oracle sources), or undefined. */
export function javaDatesMissing(): string | undefined {
  return oracleMissing() ?? (existsSync(path.join(HELPER_SOURCES, 'EsJavaDates.java')) ? undefined : `${HELPER_SOURCES}/EsJavaDates.java`);
}

/** What java.time makes of a format: usable (with the built-in names the oracle cannot check), or refused. */
export type FormatCheck = { valid: true; uncheckedBuiltIns: string[] } | { valid: false; reason: string; cause: string };

export type DateParse =
  | { outcome: 'parsed'; millis: number }
  /** No emulated alternative parses the value, but a built-in name the oracle does not emulate might. */
  | { outcome: 'unchecked' }
  /** `exception` is the Java class's simple name (e.g. DateTimeParseException). */
  | { outcome: 'failed'; exception: string; reason: string }
  | { outcome: 'invalid-format'; reason: string; cause: string };

export class JavaDates {
  private jvm?: LineJvm;
  private lastAnswer: Promise<unknown> = Promise.resolve();
  // Answers never change for a format (or a format and a value): ask the JVM once.
  private readonly checks = new Map<string, Promise<FormatCheck>>();
  private readonly parses = new Map<string, Promise<DateParse>>();

  validate(format: string): Promise<FormatCheck> {
    let check = this.checks.get(format);
    if (!check) {
      check = this.request(['validate', encodeField(format)]).then(([status, a, b]) =>
        status === 'valid'
          ? { valid: true as const, uncheckedBuiltIns: a ? decodeField(a).split('||') : [] }
          : { valid: false as const, reason: decodeField(a), cause: decodeField(b) },
      );
      this.checks.set(format, check);
      check.catch(() => this.checks.delete(format)); // a lost helper is no answer to keep
    }
    return check;
  }

  parse(format: string, value: string): Promise<DateParse> {
    const key = `${format}\u0000${value}`;
    let parse = this.parses.get(key);
    if (!parse) {
      parse = this.request(['parse', encodeField(format), encodeField(value)]).then(([status, a, b]): DateParse => {
        if (status === 'millis') return { outcome: 'parsed', millis: Number(a) };
        if (status === 'unchecked') return { outcome: 'unchecked' };
        if (status === 'failed') return { outcome: 'failed', exception: decodeField(a), reason: decodeField(b) };
        return { outcome: 'invalid-format', reason: decodeField(a), cause: decodeField(b) };
      });
      this.parses.set(key, parse);
      parse.catch(() => this.parses.delete(key));
    }
    return parse;
  }

  /** Ends the JVM (a later request starts a new one). */
  async close(): Promise<void> {
    await this.lastAnswer; // answers come in order: the last one means all
    const jvm = this.jvm;
    this.jvm = undefined;
    await jvm?.end();
  }

  private request(fields: string[]): Promise<string[]> {
    let answer: Promise<string[]>;
    try {
      answer = this.start().request(fields);
    } catch (error) {
      answer = Promise.reject(error as Error);
    }
    this.lastAnswer = answer.catch(() => undefined);
    return answer.then(([status, ...rest]) => {
      if (status === 'error') throw new Error(`java dates helper: ${decodeField(rest[0])}`);
      return [status!, ...rest];
    });
  }

  private start(): LineJvm {
    if (this.jvm && !this.jvm.ended) return this.jvm;
    const missing = javaDatesMissing();
    if (missing) throw new Error(`the fake cluster checks dates with java.time and needs ${missing}`);
    const classes = compileOracle([HELPER_SOURCES]);
    this.jvm = new LineJvm(
      [
        // Elasticsearch's providers: SPI first makes Locale.ROOT weeks ISO through the oracle's provider.
        '-Djava.locale.providers=SPI,COMPAT',
        '-XX:TieredStopAtLevel=1', // starts faster; the requests are cheap
        '-cp',
        `${classes}${path.delimiter}${JODA_JAR}`,
        'oracle.EsJavaDates',
      ],
      'java dates helper',
    );
    return this.jvm;
  }
}

let shared: JavaDates | undefined;

/** The test file's one helper (vitest runs each test file in its own process). */
export function sharedJavaDates(): JavaDates {
  shared ??= new JavaDates();
  return shared;
}

/**
 * For a test file whose fake cluster reads dates: true when its tests must be skipped (no JDK outside CI, said in a
 * warning); in CI a missing JDK fails the file instead. Closes the file's JVM after its tests.
 */
export function javaDatesForTests(what: string): { skip: boolean } {
  const missing = javaDatesMissing();
  const skip = missing !== undefined && process.env.CI !== 'true';
  if (skip) console.warn(`${what} skipped: the fake cluster reads dates with java.time and needs ${missing}`);
  beforeAll(() => {
    if (missing && !skip) throw new Error(`CI needs ${missing} for the fake cluster's date checks`);
  });
  afterAll(() => sharedJavaDates().close());
  return { skip };
}
