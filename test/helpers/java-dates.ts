import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { compileOracle, JODA_JAR, oracleMissing } from './dates-oracle.ts';

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

interface Pending {
  id: number;
  resolve: (fields: string[]) => void;
  reject: (error: Error) => void;
}

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const decode = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64').toString('utf8');

export class JavaDates {
  private child?: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private stderr = '';
  private lastAnswer: Promise<unknown> = Promise.resolve();
  // Answers never change for a format (or a format and a value): ask the JVM once.
  private readonly checks = new Map<string, Promise<FormatCheck>>();
  private readonly parses = new Map<string, Promise<DateParse>>();

  validate(format: string): Promise<FormatCheck> {
    let check = this.checks.get(format);
    if (!check) {
      check = this.request(['validate', encode(format)]).then(([status, a, b]) =>
        status === 'valid'
          ? { valid: true as const, uncheckedBuiltIns: a ? decode(a).split('||') : [] }
          : { valid: false as const, reason: decode(a), cause: decode(b) },
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
      parse = this.request(['parse', encode(format), encode(value)]).then(([status, a, b]): DateParse => {
        if (status === 'millis') return { outcome: 'parsed', millis: Number(a) };
        if (status === 'unchecked') return { outcome: 'unchecked' };
        if (status === 'failed') return { outcome: 'failed', exception: decode(a), reason: decode(b) };
        return { outcome: 'invalid-format', reason: decode(a), cause: decode(b) };
      });
      this.parses.set(key, parse);
      parse.catch(() => this.parses.delete(key));
    }
    return parse;
  }

  /** Ends the JVM (a later request starts a new one). */
  async close(): Promise<void> {
    await this.lastAnswer; // answers come in order: the last one means all
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end(); // the helper stops at the end of its input
    const timer = setTimeout(() => child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private request(fields: string[]): Promise<string[]> {
    const id = this.nextId++;
    const answer = new Promise<string[]>((resolve, reject) => {
      const child = this.start();
      if (this.queue.length === 0) this.hold(child, true);
      this.queue.push({ id, resolve, reject });
      child.stdin.write(`${id}\t${fields.join('\t')}\n`);
    });
    this.lastAnswer = answer.catch(() => undefined);
    return answer.then(([status, ...rest]) => {
      if (status === 'error') throw new Error(`java dates helper: ${decode(rest[0])}`);
      return [status!, ...rest];
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const missing = javaDatesMissing();
    if (missing) throw new Error(`the fake cluster checks dates with java.time and needs ${missing}`);
    const classes = compileOracle([HELPER_SOURCES]);
    const child = spawn(
      'java',
      [
        // Elasticsearch's providers: SPI first makes Locale.ROOT weeks ISO through the oracle's provider.
        '-Djava.locale.providers=SPI,COMPAT',
        '-XX:TieredStopAtLevel=1', // starts faster; the requests are cheap
        '-cp',
        `${classes}${path.delimiter}${JODA_JAR}`,
        'oracle.EsJavaDates',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child = child;
    this.stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const fields = line.split('\t');
      const head = this.queue.shift();
      if (!head || String(head.id) !== fields[0]) {
        this.fail(child, new Error(`java dates helper answered out of order (expected ${head?.id}, got: ${line.slice(0, 200)})`));
        return;
      }
      if (this.queue.length === 0) this.hold(child, false);
      head.resolve(fields.slice(1));
    });
    const lost = (why: string) => this.fail(child, new Error(`java dates helper ${why}${this.stderr ? `: ${this.stderr.trim()}` : ''}`));
    child.on('error', (error) => lost(`could not run (${error.message})`));
    child.stdin.on('error', (error) => lost(`stopped reading (${error.message})`));
    child.on('exit', (code, signal) => {
      if (this.child !== child) return; // closed, or already given up on
      if (this.queue.length) lost(`exited (${signal ?? code}) with ${this.queue.length} request(s) unanswered`);
      else this.child = undefined;
    });
    this.hold(child, false);
    return child;
  }

  private fail(child: ChildProcessWithoutNullStreams, error: Error): void {
    child.kill();
    if (this.child !== child) return; // the queue belongs to its successor
    this.child = undefined;
    for (const pending of this.queue.splice(0)) pending.reject(error);
  }

  /** Keeps the test process alive only while answers are awaited. */
  private hold(child: ChildProcessWithoutNullStreams, busy: boolean): void {
    for (const handle of [child, child.stdin, child.stdout, child.stderr] as Array<{ ref?: () => void; unref?: () => void }>) {
      if (busy) handle.ref?.();
      else handle.unref?.();
    }
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
