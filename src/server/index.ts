import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { closeAppDeps, type AppDeps } from '../context/index.ts';
import { isConnectionError } from '../db/index.ts';
import { learnColumnParsers } from '../db/child-pages.ts';
import { createApp } from './app.ts';
import { answerClientError, MAX_HEADER_BYTES } from './client-errors.ts';
import { startJobRunner } from '../jobs/index.ts';
import { startRelay } from '../events/relay.ts';
import { startWebhookDelivery } from '../webhooks/delivery.ts';
import { attachWebSocketSubscriptions } from '../graphql/subscriptions.ts';
import { JOB_KINDS, SWEEPERS } from './jobs.ts';
import { httpStop, LISTEN_BACKLOG } from './shutdown.ts';
import { startTracing, tracingActive } from '../telemetry/tracing.ts';

export interface RunningServer {
  url: string;
  server: Server;
  /**
   * Stops as src/server/shutdown.ts says (drain, then answer every request already received, within
   * SHUTDOWN_TIMEOUT_MS), then stops Apollo, the background jobs and the database. Resolves with the number of
   * requests cut because they were still running when the timeout passed.
   */
  close(): Promise<{ requestsCut: number }>;
}

export async function startServer(deps: AppDeps, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  server.on('clientError', answerClientError);
  // A slow client must not hold a connection forever; these are Node's knobs for it.
  server.headersTimeout = 30_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = deps.config.keepAliveTimeoutMs;
  // The first start creates the token signing key; every instance then signs with the one in the database.
  // A database that is down must not keep the server from starting: /readyz says so, and the key loads later.
  await deps.keys.active().catch((error: unknown) => {
    if (!isConnectionError(error)) throw error;
    deps.log.warn({ err: { message: (error as Error).message } }, 'database unreachable at start: signing keys load on first use');
  });
  // The column types a read of children with their parents needs (src/db/child-pages.ts), before any request.
  await learnColumnParsers(deps.db).catch((error: unknown) => {
    if (!isConnectionError(error)) throw error;
  });
  await deps.rateLimits.ready();
  // Before the app is built: its hooks for spans are installed only when tracing is on. A process that traces
  // already (a test's own exporter) keeps its provider.
  const tracing = tracingActive() ? undefined : await startTracing(deps.config.tracing, deps.log);
  const http = httpStop(server, { drainMs: deps.config.shutdownDrainMs, timeoutMs: deps.config.shutdownTimeoutMs });
  const app = await createApp(deps, { stopping: () => http.stopping });
  server.on('request', app.express);
  const subscriptions = attachWebSocketSubscriptions(server, deps, app.schema);
  const port = options.port ?? deps.config.port;
  const host = options.host ?? deps.config.host;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        // Later errors (accept failing for want of file descriptors, say) are logged, not fatal.
        server.on('error', (error) => deps.log.error({ err: error }, 'HTTP server error'));
        resolve();
      });
    });
  } catch (error) {
    // Apollo has started; stopping it lets the caller release everything else and the process end.
    await app.apollo.stop();
    await tracing?.shutdown();
    throw new ListenError(host, port, error);
  }
  // Stored jobs (ad set copies, insights reports) run in the background of every serving instance.
  if (deps.config.asyncJobs.enabled && !deps.jobs) {
    deps.jobs = startJobRunner(deps, JOB_KINDS, {
      pollMs: deps.config.asyncJobs.pollMs,
      leaseSeconds: deps.config.asyncJobs.leaseSeconds,
      sweepers: SWEEPERS,
    });
  }
  // Committed events go out to subscribers and webhooks from every serving instance (one publishes at a time).
  deps.relay ??= startRelay(deps, { pollMs: deps.config.events.relayPollMs });
  deps.webhooks ??= startWebhookDelivery(deps);
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<{ requestsCut: number }> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // The runner takes no new work from now on (what is stored meanwhile waits in the database for the next
      // instance); the request in hand finishes while the HTTP side stops.
      const jobsStopped = deps.jobs?.stop();
      // Subscriptions last as long as their clients: they are closed (1001, streams ended) so clients reconnect to
      // an instance that stays, while ordinary requests drain.
      await subscriptions.close();
      await app.closeStreams();
      const { requestsCut } = await http.stop();
      await app.apollo.stop();
      await jobsStopped;
      // After the last request and job: what they committed goes out before the process does.
      await deps.relay?.stop();
      await deps.webhooks?.stop();
      await closeAppDeps(deps);
      // Last: the spans of the requests and jobs that just ended are exported before the process goes.
      await tracing?.shutdown();
      return { requestsCut };
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
const RELAYED_SIGNAL_MS = 200;

/**
 * What may still hold the process once SHUTDOWN_TIMEOUT_MS has passed and the requests still running were cut:
 * stopping Apollo and closing the database take milliseconds, but a background job in hand or a database that
 * does not answer could take any time. Past this the process exits 1 without them (a job's transaction rolls
 * back, and its request runs again when its lease expires).
 */
const CLOSE_GRACE_MS = 1_000;

/**
 * SIGTERM/SIGINT: not ready, keep accepting for SHUTDOWN_DRAIN_MS, answer every request received, close the
 * database, exit 0; all within SHUTDOWN_TIMEOUT_MS (then the requests still running are cut). A second signal
 * while draining exits at once with 128 + the signal's number, as a shell reports a process the signal killed,
 * unless it is the first one relayed (RELAYED_SIGNAL_MS).
 */
export function closeOnSignals(running: RunningServer, deps: Pick<AppDeps, 'config' | 'log'>): void {
  const { log, config } = deps;
  let stopping: { signal: NodeJS.Signals; at: number } | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === stopping.signal && performance.now() - stopping.at < RELAYED_SIGNAL_MS) return;
      log.warn({ signal }, `${signal} while shutting down: exiting now, without waiting for requests in flight`);
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    stopping = { signal, at: performance.now() };
    log.info({ signal, drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      log.error(`not shut down ${CLOSE_GRACE_MS} ms after SHUTDOWN_TIMEOUT_MS: exiting without waiting any longer`);
      process.exit(1);
    }, config.shutdownTimeoutMs + CLOSE_GRACE_MS);
    running.close().then(
      ({ requestsCut }) => {
        if (requestsCut > 0) log.warn({ requestsCut }, `shut down, cutting ${requestsCut} request(s) still running after SHUTDOWN_TIMEOUT_MS`);
        else log.info('shut down cleanly');
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
