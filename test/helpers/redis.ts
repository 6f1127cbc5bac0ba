import { Redis } from 'ioredis';

/** Whether a Redis answers PING at `url` within about two seconds (tests that need one skip or fail on false). */
export async function redisReachable(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
