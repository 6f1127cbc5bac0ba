import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createAppDeps } from '../../src/context/index.ts';
import { createLogger } from '../../src/logging/index.ts';
import { adSets as adSetTable } from '../../src/ads/store.ts';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../helpers/database.ts';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * A crash in the middle of writing (issue 12, "abuse tests"): `adgraph serve` in a child process takes a stream of
 * ad set creates (over /v24.0 and over GraphQL, several at a time), is killed with SIGKILL while some are in flight,
 * and is started again on the same database. Every write it acknowledged must be there, whole, and the database must
 * take new writes. Requests cut off by the kill may or may not have happened, but never in part.
 */

const WRITERS = 4;
/** Acknowledged writes before the kill: enough that writes are in flight on every writer when it lands. */
const ACKNOWLEDGED_BEFORE_KILL = 40;
const ENV = {
  ASYNC_RUNNER: 'false',
  RATE_LIMIT_ACCOUNT_CALLS: '1000000/300',
  RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
  RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
};

interface Acknowledged {
  id: string;
  name: string;
  via: 'graph' | 'graphql';
}

let database: TestDatabase;
let token: string;
let accountId: string;
let campaignId: string;
const running: ServeProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // The world is built in this process over the same database, through the services (the server reads it from there).
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', BCRYPT_COST: '4', PORT: '0' });
  const deps = createAppDeps(config, { db: database.db, log: createLogger('silent') });
  try {
    const world = worldBuilder(deps);
    const org = await world.organization();
    token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
    const account = await world.adAccount(org.id);
    accountId = account.id;
    campaignId = (await world.campaigns(account, 1))[0]!.id;
  } finally {
    // Everything but the database itself, which the test keeps reading.
    deps.mailer.close();
    await deps.rateLimits.close();
    await deps.passwords.close();
  }
});

afterAll(async () => {
  for (const server of running) await server.kill('SIGKILL').catch(() => undefined);
  await database?.dispose();
});

async function serve(): Promise<ServeProcess> {
  const server = await startServeProcess(database, ENV);
  running.push(server);
  return server;
}

/** One ad set create; resolves with the new id when the server acknowledged it, undefined otherwise. */
async function createAdSet(url: string, name: string, via: Acknowledged['via']): Promise<string | undefined> {
  const params = {
    name,
    campaign_id: campaignId,
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'LINK_CLICKS',
    daily_budget: 1000,
    targeting: { geo_locations: { countries: ['US'] } },
    status: 'PAUSED',
  };
  if (via === 'graph') {
    const response = await fetch(`${url}/v24.0/act_${accountId}/adsets?access_token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    const body = (await response.json()) as { id?: string; success?: boolean };
    if (response.status !== 200 || body.success !== true || typeof body.id !== 'string')
      throw new Error(`create answered ${response.status}: ${JSON.stringify(body)}`);
    return body.id;
  }
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-session-token': token },
    body: JSON.stringify({
      query: 'mutation($account: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $account, input: $input) { id name } }',
      variables: {
        account: accountId,
        input: {
          name,
          campaignId,
          billingEvent: 'IMPRESSIONS',
          optimizationGoal: 'LINK_CLICKS',
          dailyBudget: '1000',
          targeting: { geoLocations: { countries: ['US'] } },
          status: 'PAUSED',
        },
      },
    }),
  });
  const body = (await response.json()) as { data?: { createAdSet?: { id: string; name: string } }; errors?: unknown };
  const created = body.data?.createAdSet;
  if (response.status !== 200 || body.errors || created?.name !== name) throw new Error(`createAdSet answered ${response.status}: ${JSON.stringify(body)}`);
  return created.id;
}

describe(`SIGKILL during a stream of writes (${TEST_DB})`, () => {
  it('keeps every acknowledged write, whole, and takes new writes after a restart', async () => {
    const first = await serve();
    const acknowledged: Acknowledged[] = [];
    /** Writes sent and not answered when the kill landed: they prove it landed mid-stream. */
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    let failure: Error | undefined;
    const cutOff: string[] = [];

    const writer = async (index: number) => {
      const via: Acknowledged['via'] = index % 2 === 0 ? 'graph' : 'graphql';
      for (let n = 0; !killed; n++) {
        const name = `crash ${via} ${index}.${n}`;
        inFlight++;
        try {
          const id = await createAdSet(first.url, name, via);
          // An answer that arrives after the kill was still sent by the server: it counts as acknowledged.
          if (id) acknowledged.push({ id, name, via });
        } catch (error) {
          if (killed) cutOff.push(name);
          else failure ??= new Error(`${name} failed before the kill: ${(error as Error).message}\n${first.output()}`);
          return;
        } finally {
          inFlight--;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
    while (acknowledged.length < ACKNOWLEDGED_BEFORE_KILL && !failure) await new Promise((resolve) => setTimeout(resolve, 5));
    if (failure) throw failure;
    inFlightAtKill = inFlight;
    killed = true;
    const exit = await first.kill('SIGKILL');
    await Promise.all(writers);
    expect(exit, first.output()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(inFlightAtKill, 'writes in flight when the kill landed').toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
    expect(new Set(acknowledged.map((write) => write.via))).toEqual(new Set(['graph', 'graphql']));

    const second = await serve();
    // Every acknowledged write, read back over the API from the restarted server.
    const missing: string[] = [];
    for (const write of acknowledged) {
      const response = await fetch(`${second.url}/v24.0/${write.id}?fields=name,status,campaign{id}&access_token=${encodeURIComponent(token)}`);
      const body = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200) missing.push(`${write.name} (${write.id}): ${response.status} ${JSON.stringify(body)}`);
      else expect(body).toEqual({ id: write.id, name: write.name, status: 'PAUSED', campaign: { id: campaignId } });
    }
    expect(missing, second.output()).toEqual([]);

    // Whatever else is stored (writes cut off by the kill may have committed) is whole: readable, in its campaign.
    const stored = (await database.db(adSetTable.table).where({ campaign_id: campaignId })).map((row: Record<string, unknown>) => ({
      id: String(row.id),
      name: String(row.name),
    }));
    expect(stored.length).toBeGreaterThanOrEqual(acknowledged.length);
    expect(stored.length).toBeLessThanOrEqual(acknowledged.length + cutOff.length);
    const storedNames = new Set(stored.map((row) => row.name));
    expect(acknowledged.filter((write) => !storedNames.has(write.name)).map((write) => write.name)).toEqual([]);
    const query = new URLSearchParams({ fields: 'name', limit: '100', effective_status: '["PAUSED"]', summary: 'total_count', access_token: token });
    const listed = await fetch(`${second.url}/v24.0/${campaignId}/adsets?${query}`);
    const page = (await listed.json()) as { data: Array<{ id: string; name: string }>; summary: { total_count: number } };
    expect(listed.status, JSON.stringify(page)).toBe(200);
    expect(page.summary.total_count).toBe(stored.length);
    expect(page.data.map((row) => row.id).sort()).toEqual(stored.map((row) => row.id).sort());

    // The restarted server takes new writes on both surfaces.
    expect(await createAdSet(second.url, 'after the restart (graph)', 'graph')).toMatch(/^\d+$/);
    expect(await createAdSet(second.url, 'after the restart (graphql)', 'graphql')).toMatch(/^\d+$/);
    expect(await second.kill('SIGTERM')).toEqual({ code: expect.any(Number), signal: null });
  }, 120_000); // two server starts on a loaded machine; it takes a few seconds when idle
});
