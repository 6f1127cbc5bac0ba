import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { closeAppDeps, type AppDeps } from '../context/index.ts';
import { isConnectionError } from '../db/index.ts';
import { createApp } from './app.ts';
import { answerClientError, MAX_HEADER_BYTES } from './client-errors.ts';
import { startJobRunner } from '../ads/async-runner.ts';

export interface RunningServer {
  url: string;
  server: Server;
  /** Stops accepting connections, lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), then closes the database. */
  close(): Promise<void>;
}

export async function startServer(deps: AppDeps, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  server.on('clientError', answerClientError);
  // A slow client must not hold a connection forever; these are Node's knobs for it.
  server.headersTimeout = 30_000;
  server.requestTimeout = 60_000;
  // The first start creates the token signing key; every instance then signs with the one in the database.
  // A database that is down must not keep the server from starting: /readyz says so, and the key loads later.
  await deps.keys.active().catch((error: unknown) => {
    if (!isConnectionError(error)) throw error;
    deps.log.warn({ err: { message: (error as Error).message } }, 'database unreachable at start: signing keys load on first use');
  });
  await deps.rateLimits.ready();
  const app = await createApp(deps, server);
  server.on('request', app.express);
  const port = options.port ?? deps.config.port;
  const host = options.host ?? deps.config.host;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        // Later errors (accept failing for want of file descriptors, say) are logged, not fatal.
        server.on('error', (error) => deps.log.error({ err: error }, 'HTTP server error'));
        resolve();
      });
    });
  } catch (error) {
    // Apollo has started; stopping it lets the caller release everything else and the process end.
    await app.apollo.stop();
    throw new ListenError(host, port, error);
  }
  // Stored asynchronous requests (ad set copies) run in the background of every serving instance.
  if (deps.config.asyncJobs.enabled && !deps.jobs) {
    deps.jobs = startJobRunner(deps, { pollMs: deps.config.asyncJobs.pollMs, leaseSeconds: deps.config.asyncJobs.leaseSeconds });
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Apollo's drain plugin stops the HTTP server: no new connections, idle ones closed, in-flight ones
      // finished within the grace period, then the rest cut.
      await app.apollo.stop();
      await closeAppDeps(deps);
    })());
  return { url: `http://${shownHost}:${address.port}`, server, close };
}

/** The server could not take its port: one line that names the address and, where it helps, what to do. */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(host: string, port: number, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const address = `${host}:${port}`;
    super(
      code === 'EADDRINUSE'
        ? `port ${port} is already in use on ${host} (choose another with PORT or --port)`
        : code === 'EACCES'
          ? `not allowed to listen on ${address} (a port below 1024 needs privileges)`
          : code === 'EADDRNOTAVAIL'
            ? `cannot listen on ${address}: ${host} is not an address of this machine (HOST)`
            : `cannot listen on ${address}: ${(cause as Error | undefined)?.message ?? String(cause)}`,
      { cause },
    );
  }
}

/**
 * How soon after the first a repeat of the same signal is the same stop. Ctrl-C under `npm start` arrives twice:
 * from the terminal (to the whole process group) and relayed by npm to its child, milliseconds apart; a person
 * pressing Ctrl-C again to cut the drain short is far slower than this.
 */
const RELAYED_SIGNAL_MS = 100;

/**
 * SIGTERM/SIGINT: stop accepting connections, finish what is in flight (up to SHUTDOWN_TIMEOUT_MS), close the
 * database, exit 0. A second signal while draining exits at once with 128 + the signal's number, as a shell
 * reports a process the signal killed, unless it is the first one relayed (RELAYED_SIGNAL_MS).
 */
export function closeOnSignals(running: RunningServer, log: AppDeps['log']): void {
  let stopping: { signal: NodeJS.Signals; at: number } | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === stopping.signal && performance.now() - stopping.at < RELAYED_SIGNAL_MS) return;
      log.warn({ signal }, `${signal} while shutting down: exiting now, without waiting for requests in flight`);
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    stopping = { signal, at: performance.now() };
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    running.close().then(
      () => {
        log.info('shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
