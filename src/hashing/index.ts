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

const WORKER = fileURLToPath(new URL('./bcrypt-worker.cjs', import.meta.url));

export function createPasswordHasher(threads = availableParallelism()): PasswordHasher {
  // Started on first use: most command-line runs and many requests never hash, and a worker started only to be
  // destroyed costs a thread start and a module load.
  let pool: Piscina | undefined;
  const workers = () => (pool ??= new Piscina({ filename: WORKER, minThreads: 1, maxThreads: Math.max(1, threads), idleTimeout: 30_000 }));
  // In no registry of its own: the server's /metrics registers it (src/server/health.ts).
  const verifications = new Counter({
    name: 'adgraph_password_verifications_total',
    help: 'bcrypt comparisons of a presented password, passcode or client secret, by result (match, mismatch)',
    labelNames: ['result'],
    registers: [],
  });
  return {
    hash: (plain, cost) => workers().run({ op: 'hash', plain, cost }) as Promise<string>,
    async verify(plain, hash) {
      const matches = (await workers().run({ op: 'verify', plain, hash })) as boolean;
      verifications.inc({ result: matches ? 'match' : 'mismatch' });
      return matches;
    },
    verifications,
    close: async () => {
      await pool?.destroy();
    },
  };
}
