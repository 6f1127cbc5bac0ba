import { connectRedis } from '../redis/index.ts';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config, RateLimitRule } from '../config/index.ts';
import { DomainError } from '../errors/index.ts';
import type { Logger } from '../logging/index.ts';

/**
 * Brute-force limits (rate-limiter-flexible). In memory by default; with REDIS_URL every instance counts in
 * Redis, and falls back to memory while Redis is unreachable rather than failing requests.
 */
export interface RateLimits {
  /**
   * Refuses (RATE_LIMITED) when the key has used up its allowance, without counting this call. A read: calls
   * sent together all pass it, so it only guards what costs nothing to let through (see `reserve`).
   */
  check(rule: RateLimitRule, key: string): Promise<void>;
  /** Counts one event (or `points`); refuses when this goes over the allowance. Answers the usage it leaves. */
  consume(rule: RateLimitRule, key: string, points?: number): Promise<Usage>;
  /**
   * Takes one point of each rule's allowance for its key before the work it limits, each atomically (in memory
   * and in Redis), so however many calls arrive together at most the allowance gets through. Over any allowance
   * it refuses (RATE_LIMITED) and gives back what it took of the others.
   */
  reserve(...claims: Claim[]): Promise<Reservation>;
  /** How much of the allowance the key has used (0 to 100) and when it is whole again. */
  usage(rule: RateLimitRule, key: string): Promise<Usage>;
  /** Resolves once Redis is connected (or at once without it, or after a short wait when it is down). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** How much of an allowance a key has used (0 to 100), and the milliseconds until it is whole again. */
export interface Usage {
  percent: number;
  msBeforeNext: number;
}

/** A rule and the key it counts (an address, a client id, an IP). */
export type Claim = readonly [rule: RateLimitRule, key: string];

/** Points taken by `reserve`: kept unless the outcome gives them back. */
export interface Reservation {
  /** Gives the points back (once; later calls do nothing). */
  refund(): Promise<void>;
}

/**
 * A guess (a password, a client secret) under brute-force limits: the allowances are reserved before `guess`
 * runs, so over them nothing is compared and the answer is RATE_LIMITED whether the guess was right or wrong. A
 * wrong guess (undefined) keeps its points; a right one, or one that failed before answering, gives back only
 * its own, so a success frees none of the guesses still in flight.
 */
export async function limitGuess<T>(limits: RateLimits, claims: Claim[], guess: () => Promise<T | undefined>): Promise<T | undefined> {
  const reservation = await limits.reserve(...claims);
  let found: T | undefined;
  try {
    found = await guess();
  } catch (error) {
    await reservation.refund();
    throw error;
  }
  if (found !== undefined) await reservation.refund();
  return found;
}

export const rateLimited = (msBeforeNext: number) =>
  new DomainError('RATE_LIMITED', 'Too many attempts. Try again later.', {
    retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
    graph: { code: 4, type: 'OAuthException', isTransient: true },
  });

const READY_TIMEOUT_MS = 3_000;

export function createRateLimits(config: Config, log: Logger, options: { keyPrefix?: string } = {}): RateLimits {
  const prefix = options.keyPrefix ?? config.redisKeyPrefix;
  const redis = config.redisUrl ? connectRedis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
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

  const usageOf = (rule: RateLimitRule, state: RateLimiterRes | null): Usage => ({
    percent: state ? Math.min(100, Math.round((state.consumedPoints / config.rateLimits[rule].points) * 100)) : 0,
    msBeforeNext: state?.msBeforeNext ?? 0,
  });

  const consume = async (rule: RateLimitRule, key: string, points = 1): Promise<Usage> => {
    try {
      return usageOf(rule, await limiters[rule].consume(normalize(key), points));
    } catch (error) {
      if (error instanceof RateLimiterRes) throw rateLimited(error.msBeforeNext);
      throw error;
    }
  };
  const giveBack = (claims: Claim[]) =>
    Promise.all(
      claims.map(([rule, key]) =>
        // A refund that fails leaves a point counted until the window ends: worth a warning, not a failed request.
        limiters[rule].reward(normalize(key)).catch((error: unknown) => log.warn({ err: { message: String(error) }, rule }, 'rate limit refund failed')),
      ),
    );

  return {
    async check(rule, key) {
      const state = await limiters[rule].get(normalize(key));
      if (state && state.consumedPoints >= config.rateLimits[rule].points) throw rateLimited(state.msBeforeNext);
    },
    async usage(rule, key) {
      return usageOf(rule, await limiters[rule].get(normalize(key)));
    },
    consume,
    async reserve(...claims) {
      const taken: Claim[] = [];
      for (const [rule, key] of claims) {
        try {
          await consume(rule, key);
        } catch (error) {
          await giveBack(taken);
          throw error;
        }
        taken.push([rule, key]);
      }
      let refunded = false;
      return {
        async refund() {
          if (refunded) return;
          refunded = true;
          await giveBack(taken);
        },
      };
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
