// PostgreSQL only: answers with and without the named statements of its client.
/**
 * Named statements (src/db/postgres-client.ts) change how PostgreSQL is asked, never what is answered: the nested
 * read of issue 27's benchmark (ad sets with their campaign and ads), through GraphQL and /v24.0, gives the same
 * bytes from a server whose connections prepare their statements and from one, over the same schema, whose
 * connections prepare none (DATABASE_PREPARED_STATEMENTS=0). Each is asked often enough for PostgreSQL to switch a
 * kept statement to its generic plan (after five runs).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createAppDeps } from '../../src/context/index.ts';
import { createDatabase, type Db } from '../../src/db/index.ts';
import { keptStatements } from '../../src/db/postgres-client.ts';
import { createLogger } from '../../src/logging/index.ts';
import { startServer, type RunningServer } from '../../src/server/index.ts';
import { POSTGRES_URL } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

const RUNS = 7;

describe('answers with and without prepared statements (PostgreSQL)', () => {
  let prepared: TestServer;
  let unprepared: RunningServer;
  let unpreparedDb: Db;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    prepared = await startTestServer();
    const world = worldBuilder(prepared.deps);
    const org = await world.organization();
    const admin = await world.user({ organizationId: org.id, role: 'admin' });
    token = admin.token;
    const account = await world.adAccount(org.id);
    accountId = account.id;
    for (const campaign of await world.campaigns(account, 3)) {
      const adSets = await world.adSets(campaign, 4, (i) => ({ status: (['ACTIVE', 'PAUSED', 'ARCHIVED', 'ACTIVE'] as const)[i]! }));
      for (const [i, adSet] of adSets.entries()) await world.ads(adSet, i + 1);
    }
    const config = loadConfig({
      ...process.env,
      LOG_LEVEL: 'silent',
      BCRYPT_COST: '4',
      PORT: '0',
      DATABASE_URL: prepared.database.url,
      DATABASE_PREPARED_STATEMENTS: '0',
    });
    unpreparedDb = createDatabase(POSTGRES_URL, { schema: prepared.database.schema, preparedStatements: config.databasePreparedStatements });
    unprepared = await startServer(createAppDeps(config, { db: unpreparedDb, log: createLogger('silent'), rateLimitPrefix: `test-${randomUUID()}` }), {
      port: 0,
      host: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await unprepared?.close();
    await prepared?.close();
  });

  const STATUSES = 'ACTIVE, PAUSED, DELETED, CAMPAIGN_PAUSED, ARCHIVED, IN_PROCESS, WITH_ISSUES';
  const nested = () =>
    `{ adAccount(id: "${accountId}") { adSets(first: 25, effectiveStatus: [${STATUSES}]) { totalCount nodes { id name dailyBudget effectiveStatus campaign { name } ads(first: 5, effectiveStatus: [${STATUSES}, ADSET_PAUSED]) { nodes { id name } } } } } }`;
  const restPath = () =>
    `/v24.0/act_${accountId}/adsets?limit=25&effective_status=${STATUSES.replaceAll(' ', '')}&fields=${encodeURIComponent('id,name,daily_budget,effective_status,campaign{name},ads.limit(5){id,name}')}`;

  async function bytes(base: string, path: string, init: RequestInit = {}): Promise<string> {
    const response = await fetch(`${base}${path}`, init);
    expect(response.status).toBe(200);
    return response.text();
  }
  const graphqlRequest = (): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-session-token': token },
    body: JSON.stringify({ query: nested() }),
  });

  it('gives the same bytes through GraphQL and /v24.0, run after run', async () => {
    const answers = { graphql: new Set<string>(), rest: new Set<string>() };
    for (let run = 0; run < RUNS; run++) {
      for (const base of [prepared.url, unprepared.url]) {
        answers.graphql.add(await bytes(base, '/graphql', graphqlRequest()));
        answers.rest.add(await bytes(base, restPath(), { headers: { authorization: `Bearer ${token}` } }));
      }
    }
    expect(answers.graphql.size).toBe(1);
    expect(answers.rest.size).toBe(1);
    const [graphql] = answers.graphql;
    const sets = (JSON.parse(graphql!) as { data: { adAccount: { adSets: { totalCount: number; nodes: Array<{ ads: { nodes: unknown[] } }> } } } }).data
      .adAccount.adSets;
    expect(sets.totalCount).toBe(12);
    expect(sets.nodes.map((set) => set.ads.nodes.length).sort()).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    const [rest] = answers.rest;
    expect((JSON.parse(rest!) as { data: unknown[] }).data).toHaveLength(12);
  });

  it('the preparing server kept the statements it ran; the other prepared none', async () => {
    // The connections the pool holds now: the read above ran on them.
    const idle = (db: Db) => (db.client.pool as { free: Array<{ resource: object }> }).free.map((entry) => entry.resource);
    const keptNow = idle(prepared.deps.db).map((connection) => keptStatements(connection)?.size ?? 0);
    expect(Math.max(...keptNow)).toBeGreaterThanOrEqual(3);
    expect(idle(unpreparedDb).map((connection) => keptStatements(connection))).toEqual(idle(unpreparedDb).map(() => undefined));
    const onServer = (await unpreparedDb.raw('select count(*)::int as n from pg_prepared_statements')) as { rows: Array<{ n: number }> };
    expect(onServer.rows[0]!.n).toBe(0);
  });
});
