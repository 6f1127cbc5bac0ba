import { DEFAULT_HIGH_INCOME_COUNTRIES, type BudgetSettings } from '../ads/rules/budgets.ts';
import { DEFAULT_RATES_PER_USD, parseRateTable, type RateTable } from '../ads/rules/currencies.ts';
import { AD_SET_LIMIT, AD_SET_LIMIT_BULK, type AdSetLimits } from '../ads/rules/limits.ts';
import { LOG_LEVELS, type LogLevel } from '../logging/levels.ts';
import { parseCorsOrigins, type CorsSettings } from './cors.ts';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.ts';
import { availableParallelism } from 'node:os';

/**
 * Configuration comes from the environment only, parsed once and validated up front so a typo fails at
 * start-up with one clear line instead of misbehaving later. Every variable is listed in the README.
 */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  /**
   * PostgreSQL: statements each connection keeps prepared (src/db/postgres-client.ts); 0 prepares none, for a
   * pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  databasePreparedStatements: number;
  logLevel: LogLevel;
  /** Proxies whose X-Forwarded-For names the client (Express's `trust proxy`); none unless TRUST_PROXY says. */
  trustProxy: TrustProxy;
  /** Browser pages on other origins that may call /graphql, /api/v2, /v24.0 and /oauth2 (none unless CORS_ORIGINS says). */
  cors: CorsSettings;
  seedDemo: boolean;
  /** Where uploaded media (comments' `source`) is stored: a local folder. */
  mediaDir: string;
  /** The largest upload accepted, in bytes. */
  mediaMaxBytes: number;
  sessionTtlSeconds: number;
  /** Live sessions resolved lately, kept while nothing changed who they stand for (src/identity/session-cache.ts). */
  sessionCache: { maxEntries: number; ttlMs: number };
  /** Ad accounts kept by id across requests, used while their generation stands still (src/db/generations.ts). */
  adAccountCache: { maxEntries: number; ttlMs: number };
  tokenTtlSeconds: number;
  /** `iss` of the access tokens: PUBLIC_URL unless TOKEN_ISSUER says otherwise. */
  tokenIssuer: string;
  /** Put the client's scopes in every token (a narrowed token always carries them). */
  tokenScopeClaim: boolean;
  tokenClockToleranceSeconds: number;
  clientAuthCacheSeconds: number;
  bcryptCost: number;
  /** Worker threads hashing and checking bcrypt; the cores this process may use, unless BCRYPT_THREADS says. */
  bcryptThreads: number;
  /** How long the server keeps accepting connections after SIGTERM/SIGINT, while load balancers notice it is going. */
  shutdownDrainMs: number;
  /** The bound on the whole stop, drain included: requests still running then are cut. */
  shutdownTimeoutMs: number;
  /** How long an idle keep-alive connection stays open: longer than the load balancer's own idle timeout. */
  keepAliveTimeoutMs: number;
  redisUrl?: string;
  /** Start of every Redis key, so deployments (or test runs) sharing one Redis keep apart. */
  redisKeyPrefix: string;
  smtpUrl?: string;
  /** The search cluster GraphQL's scan and migration talk to (credentials may be in the URL). */
  searchUrl?: string;
  searchApiKey?: string;
  mailFrom: string;
  otpTtlSeconds: number;
  conversionTtlSeconds: number;
  /** How long an invitation to join an organization may be accepted. */
  invitationTtlSeconds: number;
  rateLimits: Record<RateLimitRule, RateLimitSetting>;
  graphql: {
    maxDepth: number;
    maxAliases: number;
    /** Objects one operation may return, estimated from its `ids` and page sizes (src/graphql/limits.ts). */
    maxObjects: number;
    /** Field values one operation may return, estimated the same way. */
    maxCost: number;
  };
  adSets: {
    limits: AdSetLimits;
    budgets: BudgetSettings;
  };
  asyncJobs: {
    /** Run stored asynchronous requests in this process (the server does unless ASYNC_RUNNER=false). */
    enabled: boolean;
    pollMs: number;
    leaseSeconds: number;
  };
  events: {
    /** How often the relay looks for events committed on other instances (this instance's commits wake it at once). */
    relayPollMs: number;
    /** How long published events stay in the outbox (webhook deliveries read them from there). */
    retentionDays: number;
    /** GraphQL subscriptions one connection may hold at once. */
    subscriptionsPerConnection: number;
    /** GraphQL subscriptions one principal may hold at once on an instance, over all its connections. */
    subscriptionsPerPrincipal: number;
    /** How often a subscription WebSocket is pinged, and how long it has to answer before it is ended. */
    keepAliveMs: number;
  };
  webhooks: {
    /** Let callback URLs reach loopback, private and link-local addresses (tests and development only). */
    allowPrivate: boolean;
    /** The whole call to a receiver: connecting, sending, and reading its answer. */
    timeoutMs: number;
    /** At most this much of a receiver's answer is read. */
    maxResponseBytes: number;
    /** Receivers called at once by one instance: a slow one holds one slot, never the others. */
    concurrency: number;
    pollMs: number;
  };
  insightsReports: {
    /** How long an asynchronous report's result (or failure) stays readable before the runner deletes it. */
    ttlSeconds: number;
  };
  /** OpenTelemetry traces (src/telemetry/tracing.ts): off unless the standard OTEL_* variables ask for them. */
  tracing: TracingConfig;
  /**
   * A traced SQL statement faster than this is no span of its own (it is counted, with its time, on the request's
   * span; a failed one always is a span): 0 makes every statement a span (src/telemetry/spans.ts says why not by default).
   */
  tracedStatementMinMs: number;
}

/** `sampleRatio`: the share of the traces starting here that are recorded (1: all). */
export type TracingConfig =
  | { exporter: 'none' }
  | { exporter: 'console'; serviceName: string; sampleRatio: number }
  /** `endpoint` is the full URL spans are POSTed to (OTLP over HTTP, protobuf). */
  | { exporter: 'otlp'; serviceName: string; sampleRatio: number; endpoint: string };

const TRACES_SAMPLERS = ['parentbased_always_on', 'parentbased_traceidratio'] as const;

/** OTEL_TRACES_SAMPLER: the two parent-based samplers (a caller's `sampled` flag is always followed). */
function sampleRatio(env: Env): number {
  const sampler = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  if (!TRACES_SAMPLERS.some((known) => known === sampler)) {
    throw new ConfigError(`OTEL_TRACES_SAMPLER must be one of ${TRACES_SAMPLERS.join(', ')}, got "${env.OTEL_TRACES_SAMPLER}"`);
  }
  if (sampler === 'parentbased_always_on') return 1;
  const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim() || '1';
  const ratio = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || ratio > 1)
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (0.1 records one trace in ten), got "${raw}"`);
  return ratio;
}

const TRACES_EXPORTERS = ['otlp', 'console', 'none'] as const;
/** Where an OTLP/HTTP collector listens by default (the OpenTelemetry specification's default). */
const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';

/**
 * The OpenTelemetry SDK's standard variables, read here like every other so a typo fails at start-up. Unlike the
 * specification's default (otlp), nothing is exported unless OTEL_TRACES_EXPORTER or an OTLP endpoint is set:
 * a server started without them must not try to reach a collector nobody runs.
 */
function tracing(env: Env): TracingConfig {
  if (boolean(env, 'OTEL_SDK_DISABLED', false)) return { exporter: 'none' };
  const tracesEndpoint = url(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', undefined, ['http:', 'https:']);
  const baseEndpoint = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', undefined, ['http:', 'https:']);
  const raw = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  const exporter = raw ? TRACES_EXPORTERS.find((known) => known === raw) : tracesEndpoint || baseEndpoint ? 'otlp' : 'none';
  if (!exporter) throw new ConfigError(`OTEL_TRACES_EXPORTER must be one of ${TRACES_EXPORTERS.join(', ')}, got "${env.OTEL_TRACES_EXPORTER}"`);
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = env[name];
    if (protocol && protocol !== 'http/protobuf')
      throw new ConfigError(`${name} must be http/protobuf (the only protocol this server exports), got "${protocol}"`);
  }
  if (exporter === 'none') return { exporter };
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'adgraph';
  if (exporter === 'console') return { exporter, serviceName, sampleRatio: sampleRatio(env) };
  // The signal's own endpoint is used as it is; the base endpoint gets the traces path (the specification's rule).
  const endpoint = tracesEndpoint ?? `${(baseEndpoint ?? DEFAULT_OTLP_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  return { exporter, serviceName, sampleRatio: sampleRatio(env), endpoint };
}

function list(env: Env, name: string, fallback: readonly string[], pattern: RegExp, what: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [...fallback];
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const bad = items.find((item) => !pattern.test(item));
  if (bad !== undefined) throw new ConfigError(`${name} must be a comma list of ${what}, got "${bad}"`);
  return items;
}

/** The brute-force limits: at most `points` counted events per key in `durationSeconds`. */
export type RateLimitRule =
  | 'loginFailuresByEmail'
  | 'loginFailuresByIp'
  | 'otpRequestsByEmail'
  | 'otpAttemptsByEmail'
  | 'tokenFailuresByClient'
  | 'tokenFailuresByIp'
  // Graph-style calls per ad account: calls, and milliseconds of wall time and CPU time spent on them.
  | 'graphCallsByAccount'
  | 'graphTimeByAccount'
  | 'graphCpuByAccount';
export interface RateLimitSetting {
  points: number;
  durationSeconds: number;
}

const RATE_LIMIT_DEFAULTS: Record<RateLimitRule, [env: string, setting: RateLimitSetting]> = {
  loginFailuresByEmail: ['RATE_LIMIT_LOGIN_EMAIL', { points: 10, durationSeconds: 900 }],
  loginFailuresByIp: ['RATE_LIMIT_LOGIN_IP', { points: 100, durationSeconds: 900 }],
  otpRequestsByEmail: ['RATE_LIMIT_OTP_REQUEST', { points: 3, durationSeconds: 900 }],
  otpAttemptsByEmail: ['RATE_LIMIT_OTP_ATTEMPT', { points: 10, durationSeconds: 900 }],
  tokenFailuresByClient: ['RATE_LIMIT_TOKEN_CLIENT', { points: 20, durationSeconds: 900 }],
  tokenFailuresByIp: ['RATE_LIMIT_TOKEN_IP', { points: 100, durationSeconds: 900 }],
  graphCallsByAccount: ['RATE_LIMIT_ACCOUNT_CALLS', { points: 600, durationSeconds: 300 }],
  graphTimeByAccount: ['RATE_LIMIT_ACCOUNT_TIME_MS', { points: 120_000, durationSeconds: 300 }],
  graphCpuByAccount: ['RATE_LIMIT_ACCOUNT_CPU_MS', { points: 60_000, durationSeconds: 300 }],
};

/** `10/900` means 10 per 900 seconds. */
function rateLimit(env: Env, name: string, fallback: RateLimitSetting): RateLimitSetting {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new ConfigError(`${name} must look like 10/900 (events per seconds), got "${raw}"`);
  return { points: Number(match[1]), durationSeconds: Number(match[2]) };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function logLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((known) => known === raw.toLowerCase());
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

function trustProxy(env: Env): TrustProxy {
  const parsed = parseTrustProxy(env.TRUST_PROXY);
  if (typeof parsed === 'object' && 'problem' in parsed) throw new ConfigError(`TRUST_PROXY ${parsed.problem}`);
  return parsed;
}

function cors(env: Env): CorsSettings {
  const credentials = boolean(env, 'CORS_CREDENTIALS', false);
  const origins = parseCorsOrigins(env.CORS_ORIGINS, credentials);
  if (typeof origins === 'object' && 'problem' in origins) throw new ConfigError(`CORS_ORIGINS ${origins.problem}`);
  // 600 s: a changed list reaches browsers within ten minutes. Chromium caps it at 7200 s whatever is sent.
  return { origins, credentials, maxAgeSeconds: integer(env, 'CORS_MAX_AGE_SECONDS', 600, 0, 86_400) };
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

function currencyRates(env: Env): RateTable {
  const raw = env.BUDGET_CURRENCY_RATES;
  if (raw === undefined || raw.trim() === '') return { ...DEFAULT_RATES_PER_USD };
  const parsed = parseRateTable(raw);
  if (typeof parsed === 'string') throw new ConfigError(`BUDGET_CURRENCY_RATES: ${parsed}`);
  return parsed;
}

/** The drain period is part of the timeout, and must leave time in it for the requests accepted while draining. */
function shutdownPeriods(env: Env): Pick<Config, 'shutdownDrainMs' | 'shutdownTimeoutMs'> {
  const shutdownTimeoutMs = integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000);
  const shutdownDrainMs = integer(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 600_000);
  if (shutdownDrainMs > 0 && shutdownDrainMs >= shutdownTimeoutMs) {
    throw new ConfigError(
      `SHUTDOWN_DRAIN_MS must be less than SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs}), which bounds the whole shutdown, got ${shutdownDrainMs}`,
    );
  }
  return { shutdownDrainMs, shutdownTimeoutMs };
}

export const DEFAULT_DATABASE_URL = 'sqlite:data/adgraph.sqlite';

/** A database URL as given (by DATABASE_URL, or the CLI's --database-url: `name` says which in the error). */
export function checkDatabaseUrl(url: string, name = 'DATABASE_URL'): string {
  // The value itself is never repeated: it may hold a password.
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(url)) throw new ConfigError(`${name} must start with sqlite: or postgres://`);
  return url;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 4000, 0, 65535);
  const databaseUrl = checkDatabaseUrl(env.DATABASE_URL || DEFAULT_DATABASE_URL);
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:'])!.replace(/\/+$/, '');
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl,
    databaseUrl,
    databasePreparedStatements: integer(env, 'DATABASE_PREPARED_STATEMENTS', 500, 0, 10_000),
    logLevel: logLevel(env),
    trustProxy: trustProxy(env),
    cors: cors(env),
    seedDemo: boolean(env, 'SEED_DEMO', true),
    mediaDir: env.MEDIA_DIR || 'data/media',
    mediaMaxBytes: integer(env, 'MEDIA_MAX_BYTES', 4 * 1024 * 1024, 1_024, 100 * 1024 * 1024),
    sessionTtlSeconds: integer(env, 'SESSION_TTL_SECONDS', 86_400, 60, 31_536_000),
    sessionCache: {
      maxEntries: integer(env, 'SESSION_CACHE_MAX', 10_000, 0, 1_000_000),
      ttlMs: integer(env, 'SESSION_CACHE_TTL_MS', 60_000, 0, 3_600_000),
    },
    adAccountCache: {
      maxEntries: integer(env, 'AD_ACCOUNT_CACHE_MAX', 10_000, 0, 1_000_000),
      ttlMs: integer(env, 'AD_ACCOUNT_CACHE_TTL_MS', 60_000, 0, 3_600_000),
    },
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 300, 10, 86_400),
    tokenIssuer: url(env, 'TOKEN_ISSUER', publicUrl, ['http:', 'https:'])!,
    tokenScopeClaim: boolean(env, 'TOKEN_SCOPE_CLAIM', false),
    tokenClockToleranceSeconds: integer(env, 'TOKEN_CLOCK_TOLERANCE_SECONDS', 30, 0, 300),
    clientAuthCacheSeconds: integer(env, 'CLIENT_AUTH_CACHE_SECONDS', 60, 0, 3_600),
    bcryptCost: integer(env, 'BCRYPT_COST', 10, 4, 15),
    bcryptThreads: integer(env, 'BCRYPT_THREADS', availableParallelism(), 1, 256),
    ...shutdownPeriods(env),
    // Node's 5 s is shorter than load balancers' idle timeouts (60 s for AWS ALB and nginx): the server would close
    // connections just as the balancer reuses them, and the request it sent then becomes a 502.
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 1_000, 3_600_000),
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'adgraph',
    smtpUrl: url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']),
    searchUrl: url(env, 'SEARCH_URL', undefined, ['http:', 'https:']),
    searchApiKey: env.SEARCH_API_KEY || undefined,
    mailFrom: env.MAIL_FROM || 'adgraph <no-reply@adgraph.localhost>',
    otpTtlSeconds: integer(env, 'OTP_TTL_SECONDS', 900, 60, 86_400),
    conversionTtlSeconds: integer(env, 'LOGIN_CONVERSION_TTL_SECONDS', 300, 60, 3_600),
    invitationTtlSeconds: integer(env, 'INVITATION_TTL_SECONDS', 604_800, 60, 2_592_000),
    rateLimits: Object.fromEntries(Object.entries(RATE_LIMIT_DEFAULTS).map(([rule, [name, fallback]]) => [rule, rateLimit(env, name, fallback)])) as Record<
      RateLimitRule,
      RateLimitSetting
    >,
    adSets: {
      limits: {
        perAccount: integer(env, 'AD_SET_LIMIT', AD_SET_LIMIT, 1, 1_000_000),
        perBulkAccount: integer(env, 'AD_SET_LIMIT_BULK', AD_SET_LIMIT_BULK, 1, 1_000_000),
      },
      budgets: {
        rates: currencyRates(env),
        highIncomeCountries: list(env, 'BUDGET_HIGH_INCOME_COUNTRIES', DEFAULT_HIGH_INCOME_COUNTRIES, /^[A-Z]{2}$/, 'two-letter country codes in upper case'),
      },
    },
    asyncJobs: {
      enabled: boolean(env, 'ASYNC_RUNNER', true),
      pollMs: integer(env, 'ASYNC_POLL_MS', 1_000, 10, 600_000),
      leaseSeconds: integer(env, 'ASYNC_LEASE_SECONDS', 300, 5, 86_400),
    },
    events: {
      relayPollMs: integer(env, 'EVENT_RELAY_POLL_MS', 250, 10, 60_000),
      retentionDays: integer(env, 'EVENT_RETENTION_DAYS', 7, 1, 366),
      subscriptionsPerConnection: integer(env, 'SUBSCRIPTIONS_PER_CONNECTION', 20, 1, 1_000),
      subscriptionsPerPrincipal: integer(env, 'SUBSCRIPTIONS_PER_PRINCIPAL', 100, 1, 100_000),
      keepAliveMs: integer(env, 'SUBSCRIPTION_KEEP_ALIVE_MS', 12_000, 100, 600_000),
    },
    webhooks: {
      allowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      maxResponseBytes: integer(env, 'WEBHOOK_MAX_RESPONSE_BYTES', 65_536, 1_024, 10_485_760),
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 4, 1, 64),
      pollMs: integer(env, 'WEBHOOK_POLL_MS', 1_000, 10, 600_000),
    },
    insightsReports: {
      ttlSeconds: integer(env, 'INSIGHTS_REPORT_TTL_SECONDS', 7 * 86_400, 1, 366 * 86_400),
    },
    tracing: tracing(env),
    tracedStatementMinMs: integer(env, 'TRACE_SQL_MIN_MS', 1, 0, 60_000),
    graphql: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 12, 2, 100),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 30, 1, 1000),
      maxObjects: integer(env, 'GRAPHQL_MAX_OBJECTS', 2_000, 10, 1_000_000),
      maxCost: integer(env, 'GRAPHQL_MAX_COST', 10_000, 100, 10_000_000),
    },
  };
}
