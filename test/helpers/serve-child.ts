import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CLI_ARGS, cliEnv } from './cli.ts';
import type { TestDatabase } from './database.ts';

/**
 * `adgraph serve` as an operator runs it: a child process on a free loopback port over a test database,
 * in production mode (NODE_ENV unset: Apollo and Express behave as they do in production), and raw HTTP
 * to hold a request in flight.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServeChild {
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Log lines (JSON on stdout), parsed. */
  logs(): Array<Record<string, unknown>>;
  /** Resolves when stdout or stderr matches; rejects when the process exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** The address it serves, from its banner (`http://localhost:<port>/graphql`), on 127.0.0.1. */
  url(): Promise<string>;
  exited: Promise<Exit & { at: number }>;
  /** Sends a signal by pid (if it still runs). */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL if still running; for clean-up after a failed assertion. */
  dispose(): Promise<void>;
}

/** `cli`: node's arguments that start the command line; the TypeScript sources unless a test says (the compiled bin). */
export function spawnServe(
  database: Pick<TestDatabase, 'url' | 'schema'>,
  env: Record<string, string> = {},
  args: string[] = [],
  cli: string[] = CLI_ARGS,
): ServeChild {
  const childEnv = cliEnv(database, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
  delete childEnv.NODE_ENV; // vitest sets it to "test", which hides production behaviour (Apollo's signal handling)
  const child = spawn(process.execPath, [...cli, 'serve', ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  const notify = () => watchers.forEach((watcher) => watcher());
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
    notify();
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
    notify();
  });
  const exited = new Promise<Exit & { at: number }>((resolve) => {
    // 'close' comes after the pipes are drained, so the output is complete; `at` is when the process ended.
    let at = 0;
    child.once('exit', () => {
      at = Date.now();
    });
    child.once('close', (code, signal) => {
      resolve({ code, signal, at });
      notify();
    });
  });
  let running = true;
  void exited.then(() => {
    running = false;
  });
  const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;

  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no ${pattern} within ${timeoutMs} ms\n${output()}`)), timeoutMs);
      const check = () => {
        const match = pattern.exec(stdout) ?? pattern.exec(stderr);
        if (match) return finish(undefined, match);
        if (!running) finish(new Error(`adgraph serve exited before printing ${pattern}\n${output()}`));
      };
      function finish(error?: Error, match?: RegExpExecArray) {
        clearTimeout(timer);
        watchers.delete(check);
        if (error) reject(error);
        else resolve(match!);
      }
      watchers.add(check);
      check();
    });

  return {
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    logs: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    waitFor,
    async url() {
      const [, port] = await waitFor(/serving GraphQL at http:\/\/localhost:(\d+)\/graphql/);
      return `http://127.0.0.1:${port}`;
    },
    exited,
    signal(signal) {
      if (running) process.kill(child.pid!, signal);
    },
    async dispose() {
      if (running) process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
}

/** Resolves true when a new TCP connection is refused (or fails), false when it is accepted. */
export function connectionRefused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

export interface RawResponse {
  status: number;
  body: string;
}

/**
 * A request the server has started on but cannot finish: its headers are sent with `Expect: 100-continue`,
 * and Node answers "100 Continue" only as it hands the request to the application, so once that arrives the
 * request is in flight for certain. The body follows when the test says so.
 */
export interface HeldRequest {
  /** Sends the body; resolves with the final response. */
  finish(): Promise<RawResponse>;
  /** Resolves when the server closes the connection without having answered. */
  closedWithoutAnswer(): Promise<boolean>;
  destroy(): void;
}

export async function holdRequest(url: string, path: string, json: unknown): Promise<HeldRequest> {
  const { hostname, port } = new URL(url);
  const body = Buffer.from(JSON.stringify(json));
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = Buffer.alloc(0);
  let closed = false;
  const waiters = new Set<() => void>();
  socket.on('data', (data: Buffer) => {
    received = Buffer.concat([received, data]);
    waiters.forEach((waiter) => waiter());
  });
  socket.on('error', () => undefined); // a reset shows as a close
  socket.once('close', () => {
    closed = true;
    waiters.forEach((waiter) => waiter());
  });
  const until = <T>(probe: () => T | undefined) =>
    new Promise<T>((resolve) => {
      const check = () => {
        const value = probe();
        if (value === undefined) return;
        waiters.delete(check);
        resolve(value);
      };
      waiters.add(check);
      check();
    });

  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  const interim = await until(() => (received.includes('\r\n\r\n') || closed ? received.toString('latin1') : undefined));
  if (!/^HTTP\/1\.1 100 /.test(interim)) throw new Error(`expected 100 Continue, got: ${interim}`);
  received = received.subarray(received.indexOf('\r\n\r\n') + 4);

  /** The final response, once whole (the server answers with Content-Length). */
  const response = () => {
    const headerEnd = received.indexOf('\r\n\r\n');
    if (headerEnd < 0) return undefined;
    const head = received.subarray(0, headerEnd).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
    const rest = received.subarray(headerEnd + 4);
    if (!(rest.length >= length)) return undefined;
    return { status: Number(head.split(' ')[1]), body: rest.subarray(0, length).toString('utf8') };
  };

  return {
    async finish() {
      socket.write(body);
      const answer = await until(() => response() ?? (closed ? null : undefined));
      if (answer === null) throw new Error(`connection closed before a whole response arrived: ${received.toString('utf8')}`);
      return answer;
    },
    closedWithoutAnswer: () => until(() => (closed ? response() === undefined : undefined)),
    destroy: () => socket.destroy(),
  };
}
