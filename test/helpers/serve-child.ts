import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
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
  /** The address it serves, from its `adgraph is listening` log line (so LOG_LEVEL must be info or lower). */
  url(timeoutMs?: number): Promise<string>;
  exited: Promise<Exit & { at: number }>;
  /** Sends a signal (if it still runs): to its pid, or to `npm start`'s whole process group as a terminal does. */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL if still running; for clean-up after a failed assertion. */
  dispose(): Promise<void>;
}

/** The log line saying where the server listens (over a pipe there is no banner): its `url` field. */
export const LISTENING_LINE = /^\{.*"url":"(http:\/\/[^"]+)".*"msg":"adgraph is listening"\}$/m;

/** `cli`: node's arguments that start the command line; the TypeScript sources unless a test says (the compiled bin). */
export function spawnServe(
  database: Pick<TestDatabase, 'url' | 'schema'>,
  env: Record<string, string> = {},
  args: string[] = [],
  cli: string[] = CLI_ARGS,
): ServeChild {
  const child = spawn(process.execPath, [...cli, 'serve', ...args], { cwd: ROOT, env: serveEnv(database, env), stdio: ['ignore', 'pipe', 'pipe'] });
  return watchServe(child, (signal) => process.kill(child.pid!, signal));
}

/**
 * `npm start` in the package root (the build in dist/) as a terminal runs it: in a process group of its own, which
 * signals go to (Ctrl-C), so npm, the shell it starts and the server all receive them.
 */
export function spawnNpmStart(database: Pick<TestDatabase, 'url' | 'schema'>, env: Record<string, string> = {}): ServeChild {
  const child = spawn('npm', ['start'], { cwd: ROOT, env: serveEnv(database, env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return watchServe(child, (signal) => process.kill(-child.pid!, signal));
}

function serveEnv(database: Pick<TestDatabase, 'url' | 'schema'>, env: Record<string, string>): NodeJS.ProcessEnv {
  const childEnv = cliEnv(database, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
  delete childEnv.NODE_ENV; // vitest sets it to "test", which hides production behaviour (Apollo's signal handling)
  return childEnv;
}

function watchServe(child: ChildProcessByStdio<null, Readable, Readable>, kill: (signal: NodeJS.Signals) => void): ServeChild {
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
    async url(timeoutMs?: number) {
      const [, url] = await waitFor(LISTENING_LINE, timeoutMs);
      return url!;
    },
    exited,
    signal(signal) {
      if (running) kill(signal);
    },
    async dispose() {
      if (running) kill('SIGKILL');
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
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One TCP connection speaking HTTP/1.1 by hand, so a test controls exactly when each byte is sent and sees how
 * the server ends the connection: with a FIN after its answers, or with a reset.
 */
export interface RawConnection {
  /** Writes bytes; resolves once they are handed to the kernel (the write callback), so they are on the machine. */
  send(bytes: string | Buffer): Promise<void>;
  /** The next whole response (interim ones such as 100 Continue included); rejects if the connection closes first. */
  nextResponse(): Promise<RawResponse>;
  /** Every whole response so far that nextResponse() has not returned. */
  unread(): RawResponse[];
  /** Resolves when the connection has closed: `error` is the socket's error code if the server reset it (ECONNRESET). */
  closed: Promise<{ error?: string }>;
  destroy(): void;
}

export async function openConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = Buffer.alloc(0);
  let error: string | undefined;
  let ended = false;
  const responses: RawResponse[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((waiter) => waiter());
  socket.on('data', (data: Buffer) => {
    received = Buffer.concat([received, data]);
    for (let response = takeResponse(); response; response = takeResponse()) responses.push(response);
    notify();
  });
  socket.on('error', (cause: NodeJS.ErrnoException) => {
    error = cause.code ?? cause.message;
  });
  const closed = new Promise<{ error?: string }>((resolve) =>
    socket.once('close', () => {
      ended = true;
      resolve(error === undefined ? {} : { error });
      notify();
    }),
  );

  /** Removes one whole response from the front of what was received (bodies are sent with Content-Length). */
  function takeResponse(): RawResponse | undefined {
    const headerEnd = received.indexOf('\r\n\r\n');
    if (headerEnd < 0) return undefined;
    const [statusLine, ...lines] = received.subarray(0, headerEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    if (received.length < headerEnd + 4 + length) return undefined;
    const body = received.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    received = received.subarray(headerEnd + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }

  return {
    send: (bytes) => new Promise((resolve, reject) => socket.write(bytes, (cause) => (cause ? reject(cause) : resolve()))),
    nextResponse: () =>
      new Promise((resolve, reject) => {
        const check = () => {
          const response = responses.shift();
          if (!response && !ended) return;
          waiters.delete(check);
          if (response) resolve(response);
          else reject(new Error(`connection closed (${error ?? 'by the server'}) before a whole response; received: ${received.toString('utf8')}`));
        };
        waiters.add(check);
        check();
      }),
    unread: () => [...responses],
    closed,
    destroy: () => socket.destroy(),
  };
}

/** An HTTP/1.1 request as a client writes it: JSON body, Content-Length, and any more headers. */
export function httpRequest(url: string, method: string, path: string, json?: unknown, headers: Record<string, string> = {}): string {
  const { host } = new URL(url);
  const body = json === undefined ? '' : JSON.stringify(json);
  const fields = {
    Host: host,
    ...(json === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }),
    ...headers,
  };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;
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
  const connection = await openConnection(url);
  const request = httpRequest(url, 'POST', path, json, { Expect: '100-continue' });
  const [head, body] = [request.slice(0, request.indexOf('\r\n\r\n') + 4), request.slice(request.indexOf('\r\n\r\n') + 4)];
  await connection.send(head);
  const interim = await connection.nextResponse();
  if (interim.status !== 100) throw new Error(`expected 100 Continue, got: ${interim.status} ${interim.body}`);
  return {
    async finish() {
      await connection.send(body);
      return connection.nextResponse();
    },
    closedWithoutAnswer: async () => {
      await connection.closed;
      return connection.unread().length === 0;
    },
    destroy: () => connection.destroy(),
  };
}
