import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config, RateLimitRule } from '../config/index.ts';
import { DomainError } from '../errors/index.ts';
import type { Logger } from '../logging/index.ts';

/**
 * Brute-force limits (rate-limiter-flexible). In memory by default; with REDIS_URL every instance counts in
 * Redis, and falls back to memory while Redis is unreachable rather than failing requests.
 */
export interface RateLimits {
  /** Refuses (RATE_LIMITED) when the key has used up its allowance, without counting this call. */
  check(rule: RateLimitRule, key: string): Promise<void>;
  /** Counts one event (or `points`); refuses when this goes over the allowance. */
  consume(rule: RateLimitRule, key: string, points?: number): Promise<void>;
  /** How much of the allowance the key has used (0 to 100) and when it is whole again. */
  usage(rule: RateLimitRule, key: string): Promise<{ percent: number; msBeforeNext: number }>;
  /** Forgets the key (a successful login clears its failures). */
  reset(rule: RateLimitRule, key: string): Promise<void>;
  /** Resolves once Redis is connected (or at once without it, or after a short wait when it is down). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const rateLimited = (msBeforeNext: number) =>
  new DomainError('RATE_LIMITED', 'Too many attempts. Try again later.', {
    retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
    graph: { code: 4, type: 'OAuthException', isTransient: true },
  });

const READY_TIMEOUT_MS = 3_000;

export function createRateLimits(config: Config, log: Logger, options: { keyPrefix?: string } = {}): RateLimits {
  const prefix = options.keyPrefix ?? config.redisKeyPrefix;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
  redis?.on('error', (error: Error) => log.warn({ err: { message: error.message } }, 'redis unavailable: rate limits fall back to memory'));

  const limiters = Object.fromEntries(
    (Object.keys(config.rateLimits) as RateLimitRule[]).map((rule) => {
      const { points, durationSeconds } = config.rateLimits[rule];
      const common = { points, duration: durationSeconds, keyPrefix: `${prefix}:rl:${rule}` };
      const memory = new RateLimiterMemory(common);
      const limiter: RateLimiterAbstract = redis ? new RateLimiterRedis({ ...common, storeClient: redis, insuranceLimiter: memory }) : memory;
      return [rule, limiter];
    }),
  ) as Record<RateLimitRule, RateLimiterAbstract>;

  // Keys hold e-mail addresses: normalize so case does not buy extra attempts.
  const normalize = (key: string) => key.trim().toLowerCase();

  return {
    async check(rule, key) {
      const state = await limiters[rule].get(normalize(key));
      if (state && state.consumedPoints >= config.rateLimits[rule].points) throw rateLimited(state.msBeforeNext);
    },
    async usage(rule, key) {
      const state = await limiters[rule].get(normalize(key));
      const percent = state ? Math.min(100, Math.round((state.consumedPoints / config.rateLimits[rule].points) * 100)) : 0;
      return { percent, msBeforeNext: state?.msBeforeNext ?? 0 };
    },
    async consume(rule, key, points = 1) {
      try {
        await limiters[rule].consume(normalize(key), points);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw rateLimited(error.msBeforeNext);
        throw error;
      }
    },
    async reset(rule, key) {
      await limiters[rule].delete(normalize(key));
    },
    async ready() {
      if (!redis || redis.status === 'ready') return;
      // Until connected every count would go to the memory fallback, so instances would not share limits.
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve();
        };
        const timer = setTimeout(done, READY_TIMEOUT_MS);
        redis.once('ready', done);
      });
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
