import { can, type Principal } from '../authz/policy.ts';
import { createLoaders, type AppDeps, type Loaders, type RequestContext } from '../context/index.ts';
import { DomainError } from '../errors/index.ts';
import type { EventBus } from './bus.ts';
import type { PublishedEvent } from './types.ts';

/**
 * This instance's GraphQL subscriptions, fed by the bus: each event goes to the subscriptions listening on its
 * page or account (`<topic>:<entry>`) or on its object (`object:<id>`), not to every subscription. A subscription is
 * an async iterator with a bounded queue; it checks each event against the subscriber's permissions as they are
 * when the event is read, in order.
 */

/** Unread events a subscription may hold: a client that stops reading is dropped with a reason, never waited for. */
export const MAX_QUEUED_EVENTS = 1_000;

/** The keys an event is heard on: its page's or account's, and its object's. */
export const eventKeys = (event: PublishedEvent): string[] => [`${event.topic}:${event.entryId}`, `object:${event.objectId}`];

interface Listening {
  keys: readonly string[];
  offer(event: PublishedEvent): void;
}

/** Who is asking, as it is now: a subscription's viewer is looked at again as events arrive (a revoked session ends it). */
export type ViewerNow = () => Promise<Principal>;

export interface ListenOptions {
  keys: readonly string[];
  /** The events of those keys this subscription wants (its post, its object types). */
  wants(event: PublishedEvent): boolean;
  /** The subscriber as it is now, for each event's permission check. */
  viewer: ViewerNow;
  /** Ends after this many events (a job ends once). */
  limit?: number;
  /** Events to hand out first (a job that had already ended when the subscription started). */
  initial?: readonly PublishedEvent[];
  /** Called as each event is handed out (fresh loaders: what a resolver reads for it is read now). */
  delivering?(): void;
}

export class EventHub {
  private readonly byKey = new Map<string, Set<Listening>>();
  private detach: (() => void) | undefined;

  constructor(private readonly bus: EventBus) {}

  private dispatch(event: PublishedEvent): void {
    const reached = new Set<Listening>();
    for (const key of eventKeys(event)) for (const listening of this.byKey.get(key) ?? []) reached.add(listening);
    for (const listening of reached) listening.offer(event);
  }

  private add(listening: Listening): void {
    this.detach ??= this.bus.subscribe((event) => this.dispatch(event));
    for (const key of listening.keys) {
      let set = this.byKey.get(key);
      if (!set) this.byKey.set(key, (set = new Set()));
      set.add(listening);
    }
  }

  private remove(listening: Listening): void {
    for (const key of listening.keys) {
      const set = this.byKey.get(key);
      set?.delete(listening);
      if (set?.size === 0) this.byKey.delete(key);
    }
  }

  /** How many subscriptions listen now (for /metrics and the benchmarks). */
  get size(): number {
    const all = new Set<Listening>();
    for (const set of this.byKey.values()) for (const listening of set) all.add(listening);
    return all.size;
  }

  /** The events a subscription hears, in order, while it lasts. */
  listen(options: ListenOptions): AsyncIterableIterator<PublishedEvent> {
    const queue: PublishedEvent[] = [...(options.initial ?? [])];
    let waiting: ((result: IteratorResult<PublishedEvent>) => void) | undefined;
    let failed: ((error: unknown) => void) | undefined;
    let failure: DomainError | undefined;
    let done = false;
    let delivered = 0;

    const listening: Listening = {
      keys: options.keys,
      offer: (event) => {
        if (done || failure || !options.wants(event)) return;
        if (queue.length >= MAX_QUEUED_EVENTS) {
          failure = new DomainError(
            'RATE_LIMITED',
            `Subscription dropped: ${MAX_QUEUED_EVENTS} events were waiting unread. Read events as they come, or subscribe to fewer.`,
          );
          this.remove(listening);
          failed?.(failure);
          waiting = failed = undefined;
          return;
        }
        queue.push(event);
        if (waiting) pump();
      },
    };
    const finish = (): IteratorResult<PublishedEvent> => {
      done = true;
      queue.length = 0;
      this.remove(listening);
      return { value: undefined, done: true };
    };
    // Hands out the next queued event the subscriber may read now (checked in order, so order is kept).
    const pump = () => {
      const resolve = waiting;
      const reject = failed;
      if (!resolve || !reject) return;
      waiting = failed = undefined;
      next().then(resolve, reject);
    };
    async function next(): Promise<IteratorResult<PublishedEvent>> {
      for (;;) {
        if (done) return { value: undefined, done: true };
        if (failure) {
          const error = failure;
          finish();
          throw error;
        }
        if (options.limit !== undefined && delivered >= options.limit) return finish();
        const event = queue.shift();
        if (!event) {
          return new Promise<IteratorResult<PublishedEvent>>((resolve, reject) => {
            waiting = resolve;
            failed = reject;
          });
        }
        const viewer = await options.viewer();
        if (!can(viewer, 'read', event.subject)) continue;
        delivered += 1;
        options.delivering?.();
        return { value: event, done: false };
      }
    }
    this.add(listening);
    return {
      next,
      async return() {
        const resolve = waiting;
        waiting = failed = undefined;
        const result = finish();
        resolve?.(result);
        return result;
      },
      async throw(error) {
        finish();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}

const hubs = new WeakMap<EventBus, EventHub>();

/** The instance's hub over its bus, made on first use. */
export function eventHub(deps: Pick<AppDeps, 'eventBus'>): EventHub {
  let hub = hubs.get(deps.eventBus);
  if (!hub) hubs.set(deps.eventBus, (hub = new EventHub(deps.eventBus)));
  return hub;
}

/** The viewer of a subscription as it is now: the connection's, refreshed by the subscription server (src/graphql/subscriptions.ts). */
const refreshers = new WeakMap<RequestContext, ViewerNow>();

export function setViewerRefresh(ctx: RequestContext, viewer: ViewerNow): void {
  refreshers.set(ctx, viewer);
}

const viewerNow = (ctx: RequestContext): ViewerNow => refreshers.get(ctx) ?? (async () => ctx.viewer);

/**
 * A GraphQL subscription's events for its resolvers: checked against the subscriber as it is at each event, and
 * resolved with fresh loaders each time (a subscription lives long; what its resolvers read must be read now).
 */
export function subscribeFor(ctx: RequestContext, options: Omit<ListenOptions, 'viewer' | 'delivering'>): AsyncIterableIterator<PublishedEvent> {
  return eventHub(ctx).listen({ ...options, viewer: viewerNow(ctx), delivering: loadersPerEvent(ctx) });
}

/**
 * Makes the context's loaders on first use, and forgets them as each event goes out: an idle subscription holds
 * none, an event whose fields read nothing from the database makes none, and what is read is read now.
 */
function loadersPerEvent(ctx: RequestContext): () => void {
  let loaders: Loaders | undefined;
  Object.defineProperty(ctx, 'loaders', {
    configurable: true,
    enumerable: true,
    get: () => (loaders ??= createLoaders(ctx.db)),
    set: (value: Loaders) => {
      loaders = value;
    },
  });
  return () => {
    loaders = undefined;
  };
}
