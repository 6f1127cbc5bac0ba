import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { TestDatabase } from './database.ts';
import { spawnServe } from './serve-child.ts';

export interface ServeProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** Everything the process printed so far, for failure messages. */
  output(): string;
  /** Sends `signal` to this process (by its pid) and resolves with how it exited. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `adgraph serve` in a child process over a test database (a SQLite file, or the test's PostgreSQL schema through
 * PGOPTIONS), on a free loopback port, without demo data, logging at info (its `adgraph is listening` line gives the port). Resolves once it listens.
 */
export async function startServeProcess(database: Pick<TestDatabase, 'url' | 'schema'>, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawnServe(database, { SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env });
  const output = () => `stdout: ${child.stdout()}\nstderr: ${child.stderr()}`;
  let url: string;
  try {
    url = await child.url();
  } catch (error) {
    await child.dispose();
    throw error;
  }
  return {
    url,
    pid: child.pid,
    output,
    async kill(signal) {
      child.signal(signal);
      const { code, signal: by } = await child.exited;
      return { code, signal: by };
    },
  };
}

/** Stops instances as an operator would (SIGTERM), and kills one that has not exited 15 s later. */
export async function stopInstances(instances: ReadonlyArray<ServeProcess | undefined>): Promise<void> {
  await Promise.all(
    instances.map(async (instance) => {
      if (!instance) return;
      const exited = instance.kill('SIGTERM');
      if ((await Promise.race([exited, sleep(15_000, 'stuck', { ref: false })])) === 'stuck') await instance.kill('SIGKILL');
    }),
  );
}

/** Deletes a test's keys (its prefix) from a shared Redis. */
export async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}
