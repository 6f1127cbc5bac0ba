import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';

/**
 * A Redis connection, with ioredis loaded on the first one: a process without REDIS_URL (the embedded default,
 * and every command of the command line) never loads it, a tenth of a second less at each start. Synchronous,
 * because the rate limits and the event bus are built synchronously with the application's dependencies.
 */
const requireFromHere = createRequire(import.meta.url);

export function connectRedis(url: string, options: RedisOptions): Redis {
  const { Redis: Client } = requireFromHere('ioredis') as typeof import('ioredis');
  return new Client(url, options);
}
