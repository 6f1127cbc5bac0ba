import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { Counter } from 'prom-client';

/** bcrypt hashing and checking in a pool of worker threads sized to the cores. */
export interface PasswordHasher {
  hash(plain: string, cost: number): Promise<string>;
  verify(plain: string, hash: string): Promise<boolean>;
  /** Every bcrypt comparison this process made, by result: what guessing costs, for /metrics. */
  verifications: Counter<'result'>;
  close(): Promise<void>;
}

const WORKER = fileURLToPath(new URL('./bcrypt-worker.mjs', import.meta.url));

export function createPasswordHasher(threads = availableParallelism()): PasswordHasher {
  const pool = new Piscina({ filename: WORKER, minThreads: 1, maxThreads: Math.max(1, threads), idleTimeout: 30_000 });
  // In no registry of its own: the server's /metrics registers it (src/server/health.ts).
  const verifications = new Counter({
    name: 'adgraph_password_verifications_total',
    help: 'bcrypt comparisons of a presented password, passcode or client secret, by result (match, mismatch)',
    labelNames: ['result'],
    registers: [],
  });
  return {
    hash: (plain, cost) => pool.run({ op: 'hash', plain, cost }) as Promise<string>,
    async verify(plain, hash) {
      const matches = (await pool.run({ op: 'verify', plain, hash })) as boolean;
      verifications.inc({ result: matches ? 'match' : 'mismatch' });
      return matches;
    },
    verifications,
    close: () => pool.destroy(),
  };
}
