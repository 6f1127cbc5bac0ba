import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAppDeps, type AppDeps } from '../context/index.ts';
import { isConnectionError } from '../db/index.ts';
import { createApp } from './app.ts';
import { startJobRunner } from '../ads/async-runner.ts';

export interface RunningServer {
  url: string;
  server: Server;
  /** Stops accepting connections, lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), then closes the database. */
  close(): Promise<void>;
}

export async function startServer(deps: AppDeps, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const server = createServer();
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
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

/** SIGTERM/SIGINT: finish what is in flight, then exit. A second signal exits at once. */
export function closeOnSignals(running: RunningServer, log: AppDeps['log']): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
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
