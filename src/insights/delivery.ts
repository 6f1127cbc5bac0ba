import { timeNow, type RequestContext } from '../context/index.ts';
import type { Db } from '../db/index.ts';
import { loaderMaker } from '../db/batch.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../ads/store.ts';
import type { RecentDelivery } from '../ads/rules/delivery-estimate.ts';
import { presetRange, todayIn } from './rules/windows.ts';
import type { DayRange, InsightsLevel } from './query.ts';
import { budgetPeriod, budgetRemaining, type BudgetHolder } from './rules/budget-period.ts';
import { campaignActiveSeconds } from './rules/active-time.ts';
import {
  attributionWindows,
  countEvents,
  learningDays,
  learningStatus,
  optimizationEventOf,
  type LearningDay,
  type LearningStageInfo,
} from './rules/learning-stage.ts';

/**
 * The object fields that depend on delivery (issue 19): budget_remaining of ad sets and campaigns, amount_spent of
 * ad accounts, learning_stage_info and campaign_active_time of ad sets. They read the statistics' rollups
 * (insight_facts, no breakdown, at the object's own level) through per-request loaders, so a page of objects
 * costs a constant number of statements. The callers hand in objects they have already read (and so may see):
 * statistics follow the objects' read permission. Amounts are minor units, as numeric strings like every money
 * field; the rules live in rules/budget-period.ts, rules/learning-stage.ts and rules/active-time.ts.
 */

/** Every day there is: an account's spend of all time. */
const ALL_DAYS: DayRange = { since: '0000-01-01', until: '9999-12-31' };
/** Objects per statement: a UNION ALL of this many indexed reads stays within SQLite's compound-select limit (500). */
const CHUNK = 200;

type Key = string;
const keyOf = (level: InsightsLevel, objectId: string, days: DayRange): Key => `${level}|${objectId}|${days.since}|${days.until}`;
function partsOf(key: Key): [InsightsLevel, string, string, string] {
  const [level, objectId, since, until] = key.split('|');
  return [level as InsightsLevel, objectId!, since!, until!];
}

/**
 * One statement per CHUNK keys: each key's rows (its object at its level, no breakdown, its days) read through the
 * facts' unique index, tagged with the key's position. `select` names what each key's part returns.
 */
async function perKey(db: Db, keys: readonly Key[], select: string): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  for (let start = 0; start < keys.length; start += CHUNK) {
    const parts: string[] = [];
    const bindings: string[] = [];
    keys.slice(start, start + CHUNK).forEach((key, i) => {
      // The position is ours, an integer: written into the statement, since PostgreSQL cannot type a bound one there.
      parts.push(`select ${start + i} as k, ${select} from insight_facts where level = ? and object_id = ? and family = '' and day >= ? and day <= ?`);
      bindings.push(...partsOf(key));
    });
    // Selected from as a derived table, so both databases' drivers answer a plain list of rows.
    rows.push(...((await db.select('*').from(db.raw(`(${parts.join(' union all ')}) as wanted`, bindings))) as Array<Record<string, unknown>>));
  }
  return rows;
}

const json = (value: unknown): Record<string, number> => (typeof value === 'string' ? JSON.parse(value) : (value ?? {})) as Record<string, number>;

/** Per-request loaders of delivery: sums and days of the rollups, keyed by level, object and days. */
export function createDeliveryLoaders(db: Db) {
  const make = loaderMaker();
  return {
    /** Spend in minor units (0 without statistics). */
    spend: make<Key, number>('delivery.spend', async (keys) => {
      const sums = new Array<number>(keys.length).fill(0);
      for (const row of await perKey(db, keys, 'spend')) sums[Number(row.k)]! += Number(row.spend);
      return sums;
    }),
    /** Totals of the days (impressions, clicks, spend, actions): what an account's recent delivery was. */
    totals: make<Key, RecentDelivery>('delivery.totals', async (keys) => {
      const totals = keys.map((): RecentDelivery => ({ impressions: 0, clicks: 0, spend: 0, actions: {} }));
      for (const row of await perKey(db, keys, 'impressions, clicks, spend, actions')) {
        const total = totals[Number(row.k)]!;
        total.impressions += Number(row.impressions);
        total.clicks += Number(row.clicks);
        total.spend += Number(row.spend);
        for (const [type, count] of Object.entries(json(row.actions))) total.actions[type] = (total.actions[type] ?? 0) + count;
      }
      return totals;
    }),
    /** The days of statistics (impressions and actions), for what learning counts. */
    days: make<Key, LearningDay[]>('delivery.days', async (keys) => {
      const days = keys.map((): LearningDay[] => []);
      for (const row of await perKey(db, keys, 'impressions, actions'))
        days[Number(row.k)]!.push({ impressions: Number(row.impressions), actions: json(row.actions) });
      return days;
    }),
  };
}

export type DeliveryLoaders = ReturnType<typeof createDeliveryLoaders>;

const accountOf = async (ctx: RequestContext, accountId: string) => (await ctx.loaders.ads.adAccountById.load(accountId))!;
const spendOf = (ctx: RequestContext, level: InsightsLevel, objectId: string, days: DayRange) => ctx.loaders.delivery.spend.load(keyOf(level, objectId, days));

/** What is left of the budget the object holds; "0" when it holds none (the other level holds it), as the platform reads. */
async function remainingOf(ctx: RequestContext, level: 'adset' | 'campaign', object: BudgetHolder & { id: string; accountId: string }): Promise<string> {
  const account = await accountOf(ctx, object.accountId);
  const period = budgetPeriod(object, timeNow(ctx), account.timezoneName);
  if (period === null) return '0';
  return String(budgetRemaining(period, await spendOf(ctx, level, object.id, period.days)));
}

export const adSetBudgetRemaining = (ctx: RequestContext, adSet: AdSetRecord) => remainingOf(ctx, 'adset', adSet);
export const campaignBudgetRemaining = (ctx: RequestContext, campaign: CampaignRecord) => remainingOf(ctx, 'campaign', campaign);

/** Everything the account's ads have spent, of all time. */
export async function accountAmountSpent(ctx: RequestContext, account: AdAccountRecord): Promise<string> {
  return String(await spendOf(ctx, 'account', account.id, ALL_DAYS));
}

/** The running length of the ad set's campaign, in seconds. */
export async function campaignActiveTime(ctx: RequestContext, adSet: AdSetRecord): Promise<string> {
  const campaign = await ctx.loaders.ads.campaignById.load(adSet.campaignId);
  return String(campaign ? campaignActiveSeconds(campaign, timeNow(ctx)) : 0);
}

/** Where the ad set is in learning; null when its optimization goal has no event to learn from (NONE). */
export async function learningStageInfo(ctx: RequestContext, adSet: AdSetRecord): Promise<LearningStageInfo | null> {
  const event = optimizationEventOf(adSet.optimizationGoal, adSet.promotedObject);
  if (event === null) return null;
  const account = await accountOf(ctx, adSet.accountId);
  const editedAt = adSet.lastSignificantEditTime ?? adSet.createdTime;
  const days = await ctx.loaders.delivery.days.load(keyOf('adset', adSet.id, learningDays(editedAt, account.timezoneName)));
  const conversions = countEvents(event, days);
  return {
    status: learningStatus(conversions, editedAt, timeNow(ctx)),
    conversions,
    lastSignificantEdit: editedAt,
    attributionWindows: attributionWindows(adSet.attributionSpec),
  };
}

/** What an object delivered over some days (its rollup at its level, no breakdown): totals of a study's cell. */
export const objectDelivery = (ctx: RequestContext, level: InsightsLevel, objectId: string, days: DayRange): Promise<RecentDelivery> =>
  ctx.loaders.delivery.totals.load(keyOf(level, objectId, days));

/** What the account delivered in its last 28 complete days (its own time zone, to yesterday): what estimates price from. */
export async function recentAccountDelivery(ctx: RequestContext, account: AdAccountRecord): Promise<RecentDelivery> {
  const days = presetRange('last_28d', todayIn(account.timezoneName, timeNow(ctx)), null)!;
  return ctx.loaders.delivery.totals.load(keyOf('account', account.id, days));
}
