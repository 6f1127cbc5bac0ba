import type { Redis } from 'ioredis';
import { connectRedis } from '../redis/index.ts';
import type { Config } from '../config/index.ts';
import type { Logger } from '../logging/index.ts';
import type { PublishedEvent } from './types.ts';

/**
 * Carries published events to every instance's subscribers, in the order the relay published them. In memory for
 * one instance; through a Redis stream when REDIS_URL is set, so each instance's subscribers hear every instance's
 * writes. The outbox is what makes events durable: the bus only has to be there when the relay publishes (a publish
 * that fails leaves the rows unpublished, and the relay tries again).
 */
export interface EventBus {
  /** Sends events, in order; rejects when they could not be sent (the relay keeps them for its next try). */
  publish(published: readonly PublishedEvent[]): Promise<void>;
  /** Every event published from now on, once each (a republished event, same id, is not heard twice). */
  subscribe(listener: (event: PublishedEvent) => void): () => void;
  close(): Promise<void>;
}

/** How many recent event ids an instance remembers to drop a republished event (a relay that died after sending). */
const REMEMBERED_IDS = 10_000;
/** How many events the Redis stream keeps for instances that lost their connection a moment (approximately). */
const STREAM_LENGTH = 100_000;

/** Hands each event to the listeners once, whatever the transport delivered twice. */
function fanOut(log: Logger) {
  const listeners = new Set<(event: PublishedEvent) => void>();
  const seen = new Set<string>();
  const order: string[] = [];
  return {
    listeners,
    deliver(event: PublishedEvent) {
      if (seen.has(event.id)) return;
      seen.add(event.id);
      order.push(event.id);
      if (order.length > REMEMBERED_IDS) seen.delete(order.shift()!);
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          log.error({ err: error }, 'event listener failed');
        }
      }
    },
    subscribe(listener: (event: PublishedEvent) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export function memoryEventBus(log: Logger): EventBus {
  const fan = fanOut(log);
  return {
    async publish(published) {
      for (const event of published) fan.deliver(event);
    },
    subscribe: fan.subscribe,
    async close() {
      fan.listeners.clear();
    },
  };
}

/** How far the clocks of this instance and Redis may drift apart: a reader that started with Redis away reads that much earlier. */
const CLOCK_MARGIN_MS = 5_000;

/** Events as the stream carries them: JSON, with the time as text. */
const encode = (event: PublishedEvent) => JSON.stringify(event);
function decode(text: string): PublishedEvent {
  const parsed = JSON.parse(text) as PublishedEvent & { createdTime: string };
  return { ...parsed, createdTime: new Date(parsed.createdTime) };
}

/**
 * A Redis stream: the relay appends (XADD, capped), every instance reads from where it was (XREAD BLOCK), so an
 * instance whose connection dropped for a moment catches up on what it missed instead of losing it.
 */
export function redisEventBus(url: string, keyPrefix: string, log: Logger): EventBus {
  const key = `${keyPrefix}:events`;
  const fan = fanOut(log);
  // The publisher fails fast when Redis is away (the relay retries); the reader waits for it to come back.
  const publisher = connectRedis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  let reader: Redis | undefined;
  let closed = false;
  let reading: Promise<void> | undefined;
  publisher.on('error', () => undefined); // reported where it matters: the relay's publish rejects

  const read = async () => {
    const listeningSince = Date.now();
    reader = connectRedis(url, { maxRetriesPerRequest: null, lazyConnect: false });
    // Whether the connection failed (Redis away) before this reader settled where it starts.
    let wasAway = false;
    reader.on('error', () => {
      wasAway = true;
    });
    // Where "from now on" starts, as an entry id, settled once: XREAD from `$` means "after whatever is last when
    // this XREAD arrives", so every read from `$` (each block that timed out, the one resent after a dropped
    // connection) would skip what was added in between, such as the outbox's backlog published the moment Redis
    // came back. With Redis there, that is the last entry now. With Redis away, the last entry once it is back may
    // already be that backlog (the relay can publish before this reader asks), so the start is the moment this
    // instance began listening, as a stream id (Redis's clock in ms), less a margin for the two clocks.
    let lastId: string | undefined;
    while (!closed) {
      try {
        if (lastId === undefined) {
          const [last] = wasAway ? [] : ((await reader.xrevrange(key, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>);
          // Asked again after the answer: a connection that failed while the question waited makes it untrustworthy.
          lastId = wasAway ? `${Math.max(0, listeningSince - CLOCK_MARGIN_MS)}-0` : (last?.[0] ?? '0-0');
          continue;
        }
        const answer = (await reader.xread('COUNT', 500, 'BLOCK', 1_000, 'STREAMS', key, lastId)) as Array<[string, Array<[string, string[]]>]> | null;
        for (const [, entries] of answer ?? []) {
          for (const [id, fields] of entries) {
            lastId = id;
            const text = fields[1];
            if (typeof text === 'string') fan.deliver(decode(text));
          }
        }
      } catch (error) {
        if (closed) return;
        log.warn({ err: { message: (error as Error).message } }, 'event stream unreadable: retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };

  return {
    async publish(published) {
      if (published.length === 0) return;
      const pipeline = publisher.pipeline();
      for (const event of published) pipeline.xadd(key, 'MAXLEN', '~', STREAM_LENGTH, '*', 'e', encode(event));
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('event stream unreachable');
    },
    subscribe(listener) {
      // Read only while someone listens: an instance that runs no subscriptions keeps no blocked connection.
      reading ??= read();
      return fan.subscribe(listener);
    },
    async close() {
      closed = true;
      fan.listeners.clear();
      reader?.disconnect();
      publisher.disconnect();
      await reading;
    },
  };
}

export function createEventBus(config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>, log: Logger): EventBus {
  return config.redisUrl ? redisEventBus(config.redisUrl, config.redisKeyPrefix, log) : memoryEventBus(log);
}
