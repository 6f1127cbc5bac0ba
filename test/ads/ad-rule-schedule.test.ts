import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAppDeps, createRequestContext, type AppDeps, type RequestContext } from '../../src/context/index.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createDatabase } from '../../src/db/index.ts';
import { createLogger } from '../../src/logging/index.ts';
import { restorePrincipal } from '../../src/identity/principals.ts';
import { startJobRunner, type JobRunner } from '../../src/jobs/index.ts';
import { adRuleRunJobs } from '../../src/ads/ad-rule-runs.ts';
import { createAdRule, updateAdRule } from '../../src/ads/writes/ad-rules.ts';
import type { AdSetRecord } from '../../src/ads/store.ts';
import { createTestDatabase, POSTGRES_URL, TEST_DB, type TestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/api.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * The schedule of automated rules (issue 21) with two instances on one database (TEST_DB's; CI runs it on
 * PostgreSQL too): each instance has its own connection pool and background runner, and both see the same clock
 * (a test clock, moved across the rule's half hours). Each period is evaluated once and its action lands once,
 * however many instances look; a rule missed while every instance was down runs once on restart, for its latest
 * period, not once per missed period.
 */

let database: TestDatabase;
let instances: AppDeps[];
let runners: JobRunner[] = [];
let adSet: AdSetRecord;
let ruleId: string;
let ctx: RequestContext;
let now = new Date('2026-11-26T10:10:00Z');

const config = loadConfig({ LOG_LEVEL: 'warn', BCRYPT_COST: '4', DATABASE_URL: 'sqlite::memory:' });
const instance = (db: AppDeps['db']): AppDeps => {
  const deps = createAppDeps(config, { db, log: createLogger('warn') });
  deps.clock = () => now;
  return deps;
};
const startRunners = (which: AppDeps[]) => {
  runners = which.map((deps) => startJobRunner(deps, [adRuleRunJobs], { pollMs: 25, leaseSeconds: 30 }));
};
const stopRunners = async () => {
  await Promise.all(runners.map((runner) => runner.stop()));
  runners = [];
};

async function runs(): Promise<Array<{ period: Date | null; status: string }>> {
  const rows: Array<Record<string, unknown>> = await database.db('ad_rule_runs').where({ rule_id: ruleId }).orderBy('id');
  return rows.map((row) => ({ period: row.period === null ? null : new Date(row.period as string | number | Date), status: String(row.status) }));
}
const budget = async () => String((await database.db('ad_sets').where({ id: adSet.id }).first('daily_budget')).daily_budget);
/** The runners keep polling (every 25 ms) for a while: nothing more may happen. */
const settle = () => sleep(400);

beforeAll(async () => {
  database = await createTestDatabase();
  const second = createDatabase(TEST_DB === 'postgres' ? POSTGRES_URL : database.url, { schema: database.schema });
  instances = [instance(database.db), instance(second)];
  const world = worldBuilder(instances[0]!);
  const org = await world.organization();
  const { user } = await world.user({ organizationId: org.id, role: 'advertiser' });
  const account = await world.adAccount(org.id, { timezoneName: 'America/New_York' });
  const [campaign] = await world.campaigns(account, 1, { dailyBudget: null });
  [adSet] = (await world.adSets(campaign!, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '10000' }))) as [AdSetRecord];
  const viewer = (await restorePrincipal(instances[0]!, { kind: 'user', userId: user.id }))!;
  ctx = createRequestContext(instances[0]!, { requestId: 'test', viewer });
  const rule = await createAdRule(ctx, account.id, {
    name: 'Grow every half hour',
    evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [{ field: 'entity_type', value: 'ADSET', operator: 'EQUAL' }] },
    execution_spec: {
      execution_type: 'CHANGE_BUDGET',
      execution_options: [{ field: 'change_spec', value: { amount: 10, unit: 'PERCENTAGE' }, operator: 'EQUAL' }],
    },
    schedule_spec: { schedule_type: 'SEMI_HOURLY' },
  });
  ruleId = rule!.id;
});
afterAll(async () => {
  await stopRunners();
  await instances?.[1]?.db.destroy();
  await database?.dispose();
});

describe(`automated rules on a schedule, two instances on one database (${TEST_DB})`, () => {
  it('starts at the next half hour: created at 10:10, nothing runs before 10:30', async () => {
    startRunners(instances);
    await settle();
    expect(await runs()).toEqual([]);
    expect(await budget()).toBe('10000');
  });

  it('evaluates each period once and its action lands once, whichever instance runs it', async () => {
    now = new Date('2026-11-26T10:31:00Z');
    await eventually(async () => (await runs()).some((run) => run.status === 'DONE'));
    await settle();
    expect(await runs()).toEqual([{ period: new Date('2026-11-26T10:30:00Z'), status: 'DONE' }]);
    expect(await budget()).toBe('11000');

    now = new Date('2026-11-26T11:02:00Z');
    await eventually(async () => (await runs()).filter((run) => run.status === 'DONE').length === 2);
    await settle();
    expect((await runs()).map((run) => run.period)).toEqual([new Date('2026-11-26T10:30:00Z'), new Date('2026-11-26T11:00:00Z')]);
    expect(await budget()).toBe('12100');
    // Each run acted once: the ad set's history holds one budget change per period, the rule as the actor.
    const changes: Array<Record<string, unknown>> = await database.db('activities').where({ object_id: adSet.id, event_type: 'update_ad_set_budget' });
    expect(changes).toHaveLength(2);
    expect(changes.every((change) => change.actor_kind === 'job' && change.application_name === 'Automated rules')).toBe(true);
  });

  it('runs a rule missed while every instance was down once on restart, for its latest period', async () => {
    await stopRunners();
    // Down from 11:02 to 14:47: the periods 11:30 to 14:30 (eight) were missed.
    now = new Date('2026-11-26T14:47:00Z');
    startRunners(instances.slice(1));
    await eventually(async () => (await runs()).filter((run) => run.status === 'DONE').length === 3);
    await settle();
    expect((await runs()).map((run) => run.period)).toEqual([
      new Date('2026-11-26T10:30:00Z'),
      new Date('2026-11-26T11:00:00Z'),
      new Date('2026-11-26T14:30:00Z'),
    ]);
    expect(await budget()).toBe('13310');
  });

  it('a disabled rule is not scheduled; enabled again, it starts from the next period, not the ones it missed', async () => {
    await updateAdRule(ctx, ruleId, { status: 'DISABLED' });
    now = new Date('2026-11-26T15:05:00Z');
    await settle();
    expect(await runs()).toHaveLength(3);
    // Enabled at 15:10: the 15:00 period passed while it was disabled and does not run; 15:30 does.
    now = new Date('2026-11-26T15:10:00Z');
    await updateAdRule(ctx, ruleId, { status: 'ENABLED' });
    await settle();
    expect(await runs()).toHaveLength(3);
    now = new Date('2026-11-26T15:30:00Z');
    await eventually(async () => (await runs()).filter((run) => run.status === 'DONE').length === 4);
    expect((await runs())[3]!.period).toEqual(new Date('2026-11-26T15:30:00Z'));
    expect(await budget()).toBe('14641');
  });
  it('keeps the history as long as the change history (37 months), then the idle runner deletes it', async () => {
    await stopRunners();
    expect(await adRuleRunJobs.sweep!(instances[0]!, new Date('2029-12-01T00:00:00Z'))).toBe(0);
    // An hour later, 37 months after the runs finished (their times are the real clock's, today).
    const later = new Date(Date.now() + 38 * 31 * 86_400_000);
    expect(await adRuleRunJobs.sweep!(instances[0]!, later)).toBe(4);
    expect(await runs()).toEqual([]);
  });
});
