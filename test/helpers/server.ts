import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config/index.ts';
import { createAppDeps, type AppDeps } from '../../src/context/index.ts';
import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/logging/index.ts';
import { startServer } from '../../src/server/index.ts';
import { createDatabase, type Db } from '../../src/db/index.ts';
import { createTestDatabase, POSTGRES_URL, TEST_DB, type TestDatabase } from './database.ts';

export interface TestServer {
  url: string;
  deps: AppDeps;
  database: TestDatabase;
  /** Every log line the server wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** POST a GraphQL operation; returns the HTTP status and the parsed body. */
  graphql(query: string, variables?: Record<string, unknown>, token?: string, operationName?: string): Promise<{ status: number; body: GraphQLBody }>;
  /** POST /api/v2/users/login over HTTP; the raw response, for status and headers. */
  login(email: string, password: string): Promise<Response>;
  close(): Promise<void>;
}

export interface GraphQLBody {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, any> }>;
}

/** A real server on a free loopback port, over a fresh database, logging into memory. */
export async function startTestServer(env: Record<string, string> = {}, options: { rateLimitPrefix?: string } = {}): Promise<TestServer> {
  const database = await createTestDatabase();
  const config: Config = loadConfig({ LOG_LEVEL: 'info', BCRYPT_COST: '4', ...env, PORT: '0', DATABASE_URL: database.url });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  // Rate-limit keys get a per-server prefix, so servers sharing a Redis do not share counters by accident.
  const deps: AppDeps = createAppDeps(config, {
    db: database.db,
    log: createLogger(config.logLevel, sink),
    rateLimitPrefix: options.rateLimitPrefix ?? `test-${randomUUID()}`,
  });
  const running = await startServer(deps, { port: 0, host: '127.0.0.1' });
  // PUBLIC_URL is the address callers use (paging links, permalinks); a test server's is known only once it listens.
  if (env.PUBLIC_URL === undefined) deps.config.publicUrl = running.url;
  return {
    url: running.url,
    deps,
    database,
    logs,
    async graphql(query, variables, token, operationName) {
      const response = await fetch(`${running.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'service-session-token': token } : {}) },
        body: JSON.stringify({ query, variables, operationName }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLBody };
    },
    login(email, password) {
      return fetch(`${running.url}/api/v2/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    },
    async close() {
      await running.close(); // also destroys the database connection
      await database.dispose().catch(() => undefined);
    },
  };
}

/** Another instance on a test server's database: a server of its own, with a pool of its own, as another process runs. */
export interface SecondInstance {
  url: string;
  deps: AppDeps;
  db: Db;
  close(): Promise<void>;
}

export async function startSecondInstance(first: TestServer): Promise<SecondInstance> {
  const db = createDatabase(TEST_DB === 'postgres' ? POSTGRES_URL : first.database.url, { schema: first.database.schema });
  const deps = createAppDeps(loadConfig({ DATABASE_URL: first.database.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent', ASYNC_RUNNER: 'false' }), {
    db,
    log: createLogger('silent'),
  });
  const running = await startServer(deps, { port: 0, host: '127.0.0.1' });
  return {
    url: running.url,
    deps,
    db,
    async close() {
      await running.close();
    },
  };
}
