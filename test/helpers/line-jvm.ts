import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A field of a request or an answer: base64 of its UTF-8 text, so tabs and line breaks in it travel safely. */
export const encodeField = (text: string) => Buffer.from(text, 'utf8').toString('base64');
export const decodeField = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64').toString('utf8');

/**
 * A long-lived JVM of the project's Java helpers (test/helpers/java/oracle/): a request is a line of tab-separated
 * fields after an id, its answer a line starting with that id, in request order, so the requests waiting are a
 * queue. A JVM that exits with requests waiting, cannot start or stops reading rejects them all, with the end of
 * what it wrote on stderr. It keeps the test process alive only while answers are awaited.
 */
export class LineJvm {
  /** True once the JVM has exited, failed to start or been given up on: a new one is needed for more requests. */
  ended = false;
  /** Settles when the JVM has exited or could not start. */
  readonly gone: Promise<void>;
  private settleGone: () => void = () => undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Array<{ id: number; resolve: (fields: string[]) => void; reject: (error: Error) => void }> = [];
  private nextId = 1;
  private stderr = '';

  /**
   * `name` says which helper in errors. `greeting`: the helper first writes one line of its own (not an answer),
   * handed to it.
   */
  constructor(
    javaArgs: string[],
    private readonly name: string,
    greeting?: (line: string) => void,
  ) {
    this.gone = new Promise((resolve) => (this.settleGone = resolve));
    this.child = spawn('java', javaArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    let greeted = greeting === undefined;
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      if (!greeted) {
        greeted = true;
        return greeting!(line);
      }
      const [id, ...fields] = line.split('\t');
      const head = this.waiting.shift();
      if (!head || String(head.id) !== id) return this.fail(`answered out of order (expected ${head?.id}, got: ${line.slice(0, 200)})`);
      if (this.waiting.length === 0) this.hold(false);
      head.resolve(fields);
    });
    this.child.on('error', (error) => {
      this.fail(`could not run (${error.message})`);
      this.settleGone();
    });
    this.child.stdin.on('error', (error) => this.fail(`stopped reading (${error.message})`));
    this.child.on('exit', (code, signal) => {
      if (this.waiting.length) this.fail(`exited (${signal ?? code}) with ${this.waiting.length} request(s) unanswered`);
      this.ended = true;
      this.settleGone();
    });
    this.hold(false);
  }

  /** Requests asked and not answered yet. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Writes a request; resolves with the answer's fields after its id. */
  request(fields: string[]): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      if (this.waiting.length === 0) this.hold(true);
      this.waiting.push({ id, resolve, reject });
      this.child.stdin.write(`${id}\t${fields.join('\t')}\n`);
    });
  }

  /** Ends the JVM: the helpers stop at the end of their input, once they have answered what they were asked. */
  end(): Promise<void> {
    if (this.ended || this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill(), 5_000);
    return exited.finally(() => clearTimeout(timer));
  }

  private fail(why: string): void {
    this.ended = true;
    this.child.kill();
    const error = new Error(`${this.name} ${why}${this.stderr ? `: ${this.stderr.trim()}` : ''}`);
    for (const waiting of this.waiting.splice(0)) waiting.reject(error);
  }

  private hold(busy: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Array<{ ref?: () => void; unref?: () => void }>) {
      if (busy) handle.ref?.();
      else handle.unref?.();
    }
  }
}
