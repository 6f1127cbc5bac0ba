import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { OpenResponses } from './open-responses.ts';

/**
 * How the HTTP side of a server stops without losing a request whose bytes reached the machine:
 *
 *   stop() -> not ready, every response `Connection: close` -> keep accepting for `drainMs` -> take the
 *   connections waiting in the kernel, stop listening -> settle (their requests are read), close the idle
 *   connections -> wait for the requests in flight, closing each connection after its response; whatever is
 *   still open `timeoutMs` after stop() is cut.
 *
 * Node's own `server.close()` would lose requests: it first destroys every connection whose parser has not begun a
 * request, which includes a connection just accepted whose request is still unread in the kernel's buffer, and
 * closing the listener resets the connections the kernel has accepted that the server has not yet picked up.
 */
export interface HttpStop {
  /** True from the first stop() on: /readyz answers 503, and responses carry `Connection: close`. */
  readonly stopping: boolean;
  /** Runs the sequence once (later calls get the same promise); resolves once every connection is closed. */
  stop(): Promise<{ requestsCut: number }>;
}

export interface HttpStopOptions {
  /** Keep accepting connections this long after stop(): load balancers send until they notice the instance is going. */
  drainMs: number;
  /** From stop() to cutting every connection still open, the drain period included. */
  timeoutMs: number;
}

/**
 * The queue of connections the kernel has accepted for the listener and the server has not yet taken, passed to
 * listen() (it is Node's default). The stop relies on it: the queue is first in, first out, so once this many
 * more have been taken, every connection that was waiting when the stop began has been.
 */
export const LISTEN_BACKLOG = 511;

/**
 * Turns of the event loop that let bytes already on the machine reach the server: the poll phase reads every
 * readable socket, and an immediate runs after it. Two, because the first may end the very loop iteration whose
 * poll phase we were called from.
 */
const SETTLE_TURNS = 2;

async function settle(): Promise<void> {
  for (let turn = 0; turn < SETTLE_TURNS; turn++) await nextTurn();
}

export function httpStop(server: Server, options: HttpStopOptions): HttpStop {
  let stopping = false;
  let sweeping = false;
  let sweepScheduled = false;
  let stopped: Promise<{ requestsCut: number }> | undefined;
  const inFlight = new OpenResponses();
  let accepted = 0;
  server.on('connection', () => void accepted++);

  /**
   * Settles until a round passes in which the listener took no connection. libuv takes one connection per turn
   * of the loop however many are waiting (libuv 1.46, Node 20), so a queue of twenty needs twenty turns; bounded
   * by LISTEN_BACKLOG, so that connections that keep arriving cannot hold the listener open.
   */
  const takeWaitingConnections = async () => {
    const enough = accepted + LISTEN_BACKLOG;
    let before: number;
    do {
      before = accepted;
      await settle();
    } while (accepted !== before && accepted < enough);
  };

  const closeAfterResponse = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  // A response whose headers went out before the stop leaves its connection open and idle: closed by the next
  // sweep, once the turns have passed in which a request the client had already sent on it would be read.
  const sweepSoon = () => {
    if (sweepScheduled) return;
    sweepScheduled = true;
    void settle().then(() => {
      sweepScheduled = false;
      server.closeIdleConnections();
    });
  };
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    const open = inFlight.add(res);
    if (stopping) closeAfterResponse(res);
    res.once('close', () => {
      inFlight.delete(open);
      if (sweeping) sweepSoon();
    });
  });

  /** Stops listening only: net's close, since http's would also destroy the connections it takes for idle. */
  const stopListening = () => {
    if (server.listening) NetServer.prototype.close.call(server);
  };

  const run = async () => {
    stopping = true;
    inFlight.forEach(closeAfterResponse);
    // 'close' comes once the listener is closed and the last connection has ended.
    const allClosed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    let requestsCut = 0;
    const deadline = setTimeout(() => {
      requestsCut = inFlight.size;
      stopListening();
      server.closeAllConnections();
    }, options.timeoutMs);
    await sleep(options.drainMs);
    await takeWaitingConnections();
    stopListening();
    await settle();
    sweeping = true;
    server.closeIdleConnections();
    await allClosed;
    clearTimeout(deadline);
    return { requestsCut };
  };

  return {
    get stopping() {
      return stopping;
    },
    stop: () => (stopped ??= run()),
  };
}
