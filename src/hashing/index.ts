import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/** bcrypt hashing and checking in a pool of worker threads sized to the cores. */
export interface PasswordHasher {
  hash(plain: string, cost: number): Promise<string>;
  verify(plain: string, hash: string): Promise<boolean>;
  close(): Promise<void>;
}

const WORKER = fileURLToPath(new URL('./bcrypt-worker.mjs', import.meta.url));

export function createPasswordHasher(threads = availableParallelism()): PasswordHasher {
  const pool = new Piscina({ filename: WORKER, minThreads: 1, maxThreads: Math.max(1, threads), idleTimeout: 30_000 });
  return {
    hash: (plain, cost) => pool.run({ op: 'hash', plain, cost }) as Promise<string>,
    verify: (plain, hash) => pool.run({ op: 'verify', plain, hash }) as Promise<boolean>,
    close: () => pool.destroy(),
  };
}
