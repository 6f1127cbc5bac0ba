import { localFolderStorage, type MediaStorage } from '../media/storage.ts';
import type { Config } from '../config/index.ts';
import { createDatabase, type Db } from '../db/index.ts';
import { createLogger, type Logger } from '../logging/index.ts';
import { createMailer, type Mailer } from '../mail/index.ts';
import { createRateLimits, type RateLimits } from '../ratelimit/index.ts';
import { createPasswordHasher, type PasswordHasher } from '../hashing/index.ts';
import { KeyRing } from '../oauth/keys.ts';
import type { Principal } from '../authz/policy.ts';
import { createIdentityLoaders } from '../identity/loaders.ts';
import { createAdsLoaders } from '../ads/loaders.ts';
import { createCommentLoaders } from '../comments/loaders.ts';
import { createDeliveryLoaders } from '../insights/delivery.ts';
import { createOAuthLoaders } from '../oauth/loaders.ts';
import { loaderById, loaderGroup } from '../db/batch.ts';
import { graphObjects } from '../db/objects.ts';
import type { JobRunner } from '../jobs/index.ts';
import { createEventBus, type EventBus } from '../events/bus.ts';
import type { EventRelay } from '../events/relay.ts';
import type { Poller } from '../jobs/poller.ts';
import { noteCaller } from '../telemetry/request-scope.ts';
import { SessionCache } from '../identity/session-cache.ts';
import { generationSource, KeptEntries, type GenerationSource, type Generations } from '../db/generations.ts';
import type { LiveSession } from '../identity/store.ts';
import type { AdAccountRecord } from '../ads/store.ts';
import { generationsReadFor } from '../identity/service.ts';

/** What lives as long as the process: one per server. */
export interface AppDeps {
  db: Db;
  config: Config;
  log: Logger;
  mailer: Mailer;
  rateLimits: RateLimits;
  /** bcrypt off the event loop (worker threads). */
  passwords: PasswordHasher;
  /** The token signing keys, read from the database (shared by every instance). */
  keys: KeyRing;
  /** The background runner of stored jobs (src/jobs), when this process runs one (the server does). */
  jobs?: JobRunner;
  /** Publishes committed events (src/events/relay.ts), when this process runs it (the server does). */
  relay?: EventRelay;
  /** Delivers committed events to webhook subscribers (src/webhooks/delivery.ts), when this process does (the server does). */
  webhooks?: Poller;
  /** Every published event, on this instance: what GraphQL subscriptions listen to (src/events/bus.ts). */
  eventBus: EventBus;
  /** "Now", when something other than the system clock tells it (tests of what depends on today, such as date presets). */
  clock?: () => Date;
  /** Uploaded media (a comment's photo): a local folder unless a deployment gives another store. */
  media: MediaStorage;
  /** The counters the caches below are checked against (src/db/generations.ts). */
  generations: GenerationSource;
  /** Live sessions by token hash, kept while the database's identity generation stands still (src/identity/session-cache.ts). */
  sessions: SessionCache<LiveSession>;
  /** Ad accounts by id, kept while the ad account generation stands still; for HTTP requests' reads (SharedReads). */
  keptAdAccounts: KeptEntries<AdAccountRecord>;
}

/** The time now: the dependencies' clock, else the system's. */
export const timeNow = (deps: Pick<AppDeps, 'clock'>): Date => deps.clock?.() ?? new Date();

/** Builds the process-wide dependencies from the configuration; callers may pass their own database or logger. */
export function createAppDeps(config: Config, parts: { db?: Db; log?: Logger; rateLimitPrefix?: string } = {}): AppDeps {
  const log = parts.log ?? createLogger(config.logLevel);
  const db = parts.db ?? createDatabase(config.databaseUrl, { preparedStatements: config.databasePreparedStatements });
  const generations = generationSource(db);
  return {
    config,
    db,
    log,
    mailer: createMailer(config, db, log),
    rateLimits: createRateLimits(config, log, { keyPrefix: parts.rateLimitPrefix }),
    passwords: createPasswordHasher(config.bcryptThreads),
    keys: new KeyRing(db),
    media: localFolderStorage(config.mediaDir),
    generations,
    sessions: new SessionCache<LiveSession>(generations, config.sessionCache),
    keptAdAccounts: new KeptEntries<AdAccountRecord>(config.adAccountCache),
    // Tests give each server its own prefix (as for rate limits); instances of one deployment share the configured one.
    eventBus: createEventBus({ ...config, redisKeyPrefix: parts.rateLimitPrefix ?? config.redisKeyPrefix }, log),
  };
}

/** Releases what createAppDeps opened. */
export async function closeAppDeps(deps: AppDeps): Promise<void> {
  await deps.jobs?.stop();
  await deps.relay?.stop();
  await deps.webhooks?.stop();
  await deps.eventBus.close();
  deps.mailer.close();
  await deps.rateLimits.close();
  await deps.passwords.close();
  deps.sessions.close();
  deps.keptAdAccounts.clear();
  await deps.generations.close();
  await deps.db.destroy();
}

const objectTypeLoader = (db: Db) => loaderById(db, graphObjects);

/**
 * One request's loaders, in one group (their batches are sent together: src/db/batch.ts). Each domain's are built
 * on the request's first use of them: most requests read one or two domains, and building every DataLoader of
 * all six was a twentieth of a small request's time.
 */
export function createLoaders(db: Db, shared?: SharedReads): Loaders {
  return new RequestLoaders(db, shared);
}

/**
 * What a request's loaders may answer from beyond the request: records kept across requests (ad accounts by id),
 * each used only when the request's own read of its generation finds the one it was read under. Only requests
 * that arrived over HTTP have it (`sharedCaches` below): their generations are read after they arrived, once. A
 * long-lived context (a subscription's, a job's) reads everything itself.
 */
export interface SharedReads {
  /** The request's generations: read once, on first use, or those its session's lookup read. */
  generations(): Promise<Generations | null>;
  adAccounts: KeptEntries<AdAccountRecord>;
}

/**
 * A class rather than an object literal with getters: a literal's getters are an accessor pair made for every
 * request, which V8 keeps in its old generation, so each request stayed reachable through every young-generation
 * collection until a full one (docs: decisions, "Apollo Server is patched"; 8% fewer bytes promoted this way).
 */
class RequestLoaders {
  readonly #db: Db;
  readonly #shared: SharedReads | undefined;
  readonly #inGroup = loaderGroup();
  #objectTypes: ReturnType<typeof objectTypeLoader> | undefined;
  #identity: ReturnType<typeof createIdentityLoaders> | undefined;
  #ads: ReturnType<typeof createAdsLoaders> | undefined;
  #comments: ReturnType<typeof createCommentLoaders> | undefined;
  #delivery: ReturnType<typeof createDeliveryLoaders> | undefined;
  #oauth: ReturnType<typeof createOAuthLoaders> | undefined;

  constructor(db: Db, shared: SharedReads | undefined) {
    this.#db = db;
    this.#shared = shared;
  }

  /** Numeric id -> object type, for node(id:) and GET /v24.0/<id>. */
  get objectTypes() {
    return (this.#objectTypes ??= this.#inGroup(() => objectTypeLoader(this.#db)));
  }
  get identity() {
    return (this.#identity ??= this.#inGroup(() => createIdentityLoaders(this.#db)));
  }
  get ads() {
    return (this.#ads ??= this.#inGroup(() => createAdsLoaders(this.#db, this.#shared)));
  }
  get comments() {
    return (this.#comments ??= this.#inGroup(() => createCommentLoaders(this.#db)));
  }
  get delivery() {
    return (this.#delivery ??= this.#inGroup(() => createDeliveryLoaders(this.#db)));
  }
  get oauth() {
    return (this.#oauth ??= this.#inGroup(() => createOAuthLoaders(this.#db)));
  }
}

export type Loaders = RequestLoaders;

/**
 * The one per-request context, shared by GraphQL resolvers and REST routes: who is asking, and fresh
 * DataLoaders so nothing cached leaks from one request (or one caller) to another.
 */
/** Where a request comes from, as the change history names it: the surface, or the job acting for someone. */
export interface RequestOrigin {
  /** `GraphQL`, `Graph API`, `Identity API`, `Asynchronous requests` ... */
  application: string;
  /** A background job acting for the principal (an asynchronous copy): the history's actor. */
  job?: { id: string; label: string };
}

export interface RequestContext extends AppDeps {
  requestId: string;
  viewer: Principal;
  loaders: Loaders;
  ip?: string;
  origin?: RequestOrigin;
}

/** A request's SharedReads: the generations its session's lookup read, else one read on first use. */
function sharedReads(deps: AppDeps, viewer: Principal): SharedReads {
  const known = generationsReadFor(viewer);
  let read: Promise<Generations | null> | undefined = known ? Promise.resolve(known) : undefined;
  return { generations: () => (read ??= deps.generations.read()), adAccounts: deps.keptAdAccounts };
}

/** Where a context keeps how to make its logger, and the logger once made (see createRequestContext). */
const MAKE_LOG = Symbol('makeLog');
const MADE_LOG = Symbol('madeLog');
type LazyLog = { [MAKE_LOG]?: () => Logger; [MADE_LOG]?: Logger };

/** The prototype of each process's request contexts, per dependencies (see contextPrototype). */
const contextPrototypes = new WeakMap<AppDeps, object>();

/**
 * A request context inherits the process's dependencies instead of holding a copy of each: it has its own few
 * fields (the request's id, viewer, loaders, address, origin and logger) and reads `db`, `config` and the rest
 * through its prototype, which is `deps` itself, so what is set on `deps` later (the job runner, a test's clock)
 * is seen at once. Apollo copies a context's own fields for every operation (Object.assign onto an object of the
 * same prototype): with the thirty dependencies copied into each context, and copied again there, that was a
 * twentieth of `{ __typename }`. Between the context and `deps` sits the logger's getter, which makes an HTTP
 * request's logger on its first use (src/server/http-logging.ts): on the prototype, so Apollo's copy does not call
 * it, and the symbols it copies carry the maker and what was made.
 */
function contextPrototype(deps: AppDeps): object {
  let prototype = contextPrototypes.get(deps);
  if (!prototype) {
    prototype = Object.create(deps, {
      log: {
        get(this: LazyLog) {
          const made = this[MADE_LOG];
          if (made) return made;
          const make = this[MAKE_LOG];
          return make ? (this[MADE_LOG] = make()) : deps.log;
        },
        set(this: LazyLog, value: Logger) {
          this[MADE_LOG] = value;
        },
      },
    }) as object;
    contextPrototypes.set(deps, prototype);
  }
  return prototype;
}

/**
 * `log` may be given as a function, called on the context's first use of it: an HTTP request's logger is made
 * only when something logs (src/server/http-logging.ts).
 */
export function createRequestContext(
  deps: AppDeps,
  fields: {
    requestId: string;
    viewer: Principal;
    ip?: string;
    log?: Logger | (() => Logger);
    origin?: RequestOrigin;
    /** A request that arrived over HTTP, just now: its loaders may answer from what is kept across requests. */
    sharedCaches?: boolean;
  },
): RequestContext {
  noteCaller(fields.viewer);
  const { log, sharedCaches, ...rest } = fields;
  const loaders = createLoaders(deps.db, sharedCaches && deps.config.adAccountCache.maxEntries > 0 ? sharedReads(deps, fields.viewer) : undefined);
  const ctx = Object.assign(Object.create(contextPrototype(deps)) as RequestContext & LazyLog, rest, { loaders });
  if (typeof log === 'function') ctx[MAKE_LOG] = log;
  else if (log) ctx[MADE_LOG] = log;
  return ctx;
}
