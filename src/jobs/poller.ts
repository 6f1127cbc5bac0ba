import { outsideRequestScope } from '../telemetry/request-scope.ts';

export interface Poller {
  /** Run a pass now (work was just stored); during a pass, one more runs right after it. */
  wake(): void;
  /** Stops polling and waits for the pass in hand. */
  stop(): Promise<void>;
  /** Whether stop() was called: a long pass checks it between steps. */
  readonly stopped: boolean;
}

/**
 * The loop of the server's background work (the job runner, the event relay): a pass now, then every pollMs
 * after the last one ended, and at once when woken. Passes never overlap. A pass that answers false (it failed:
 * the database is away) waits for the next poll instead of running again on a wake that came meanwhile. Passes run
 * outside any request: a request that wakes the loop does not own its work (statements, trace).
 */
export function startPoller(pass: () => Promise<boolean | void>, pollMs: number): Poller {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const loop = async () => {
    do {
      again = false;
      if ((await pass()) === false) return;
    } while (again && !stopped);
  };
  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(kick, pollMs);
    timer.unref();
  };
  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = outsideRequestScope(loop).finally(() => {
      running = undefined;
      schedule();
    });
  }
  // After the caller has the poller in hand (its pass may ask whether it was stopped).
  queueMicrotask(kick);
  return {
    wake: kick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    get stopped() {
      return stopped;
    },
  };
}
