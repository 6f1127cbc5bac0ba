import type { Knex } from 'knex';
import type { AppDeps } from '../context/index.ts';
import { requireObjectOfType } from '../ads/admin.ts';
import { adAccounts, adSetHasIssuesSql, adSets, campaigns, type AdSetRecord, type CampaignRecord } from '../ads/store.ts';
import { lockRow } from '../db/locks.ts';
import { badInput, DomainError } from '../errors/index.ts';
import { FactsAggregator, type AdParents } from './intake/aggregate.ts';
import { AccountCalendar, HISTORY_MONTHS } from './intake/calendar.ts';
import { addFacts } from './facts-store.ts';
import type { Day } from './query.ts';
import { addDays, daysBetween, syntheticDelivery, type SyntheticAdSet, type SyntheticTargeting, type SyntheticWorld } from './synthetic.ts';

/**
 * `adgraph stats generate`: synthetic delivery (src/insights/synthetic.ts) for every live ad of an account over
 * N days ending yesterday in the account's time zone (or --until), aggregated by the intake's FactsAggregator and
 * added by addFacts, in one transaction. A window that already has statistics is refused unless the caller asks
 * to replace it: then everything the account has in those days (generated or imported) is deleted first, in the
 * same transaction, so running the same generation twice never doubles the numbers.
 */

/** 37 months, the most `date_preset=maximum` reads back. */
export const MAX_GENERATE_DAYS = 1130;
export const MAX_SEED = 0xffff_ffff;
export const DEFAULT_SEED = 1;

/** Past this many people added to sketches, the aggregated facts are written and memory starts afresh. */
const PEOPLE_PER_FLUSH = 4_000_000;

export interface GenerateInput {
  /** The ad account: act_<id> or <id>. */
  account: string;
  days: number | string;
  seed?: number | string;
  /** The last day (YYYY-MM-DD, the account's calendar); default yesterday. */
  until?: string;
  /** Delete the account's statistics in the window first, instead of refusing. */
  replace?: boolean;
  /** For tests: the instant "today" is taken from. */
  now?: number;
}

export interface GenerateResult {
  accountId: string;
  since: Day;
  until: Day;
  days: number;
  seed: number;
  liveAds: number;
  impressions: number;
  clicks: number;
  /** Minor units of the account's currency. */
  spend: number;
  currency: string;
  factsWritten: number;
  /** Rows of insight_facts deleted first (--replace). */
  factsReplaced: number;
}

const wholeNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  return typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : undefined;
};

const isCalendarDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && addDays(value, 0) === value;

/** The window and seed of a generation, checked against the account's calendar (pure). */
export function generationWindow(
  input: Pick<GenerateInput, 'days' | 'seed' | 'until'>,
  calendar: Pick<AccountCalendar, 'today' | 'earliest'>,
): { since: Day; until: Day; days: number; seed: number } {
  const days = wholeNumber(input.days);
  if (days === undefined || days < 1 || days > MAX_GENERATE_DAYS) {
    throw badInput('days', `"${String(input.days)}" is not a number of days from 1 to ${MAX_GENERATE_DAYS} (${HISTORY_MONTHS} months).`);
  }
  const seed = input.seed === undefined ? DEFAULT_SEED : wholeNumber(input.seed);
  if (seed === undefined || seed > MAX_SEED) throw badInput('seed', `"${String(input.seed)}" is not a seed (a whole number from 0 to ${MAX_SEED}).`);
  const until = input.until ?? addDays(calendar.today, -1);
  if (!isCalendarDay(until)) throw badInput('until', `"${until}" is not a day (YYYY-MM-DD).`);
  if (until > calendar.today) throw badInput('until', `${until} is in the future (today is ${calendar.today} in the account's time zone).`);
  const since = addDays(until, -(days - 1));
  if (since < calendar.earliest) {
    throw badInput(
      'days',
      `${days} days up to ${until} start on ${since}, more than ${HISTORY_MONTHS} months back (the earliest day is ${calendar.earliest}).`,
    );
  }
  return { since, until, days, seed };
}

/** An ad set's targeting as the model reads it (absent parts: everyone). */
export function syntheticTargeting(targeting: unknown): SyntheticTargeting {
  const t = (typeof targeting === 'object' && targeting !== null ? targeting : {}) as Record<string, unknown>;
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  const geo = (typeof t.geo_locations === 'object' && t.geo_locations !== null ? t.geo_locations : {}) as Record<string, unknown>;
  const genders = Array.isArray(t.genders) ? t.genders : [];
  return {
    countries: strings(geo.countries),
    ageMin: typeof t.age_min === 'number' ? t.age_min : 18,
    ageMax: typeof t.age_max === 'number' ? t.age_max : 65,
    // The platform's codes: 1 men, 2 women.
    genders: [...(genders.includes(1) ? (['male'] as const) : []), ...(genders.includes(2) ? (['female'] as const) : [])],
    publisherPlatforms: strings(t.publisher_platforms),
    devicePlatforms: strings(t.device_platforms),
  };
}

const minor = (value: string | null) => (value === null ? null : Number(value));

/** The account's live ads (effective status ACTIVE: they, their ad set and campaign active, no issues) and their parents. */
async function liveWorld(trx: Knex, account: { id: string; currency: string; country: string }, calendar: AccountCalendar): Promise<SyntheticWorld> {
  const adRows: Array<{ id: unknown; adset_id: unknown }> = await trx('ads')
    .join('ad_sets', 'ad_sets.id', 'ads.adset_id')
    .join('campaigns', 'campaigns.id', 'ads.campaign_id')
    .where({ 'ads.account_id': account.id, 'ads.status': 'ACTIVE', 'ad_sets.status': 'ACTIVE', 'campaigns.status': 'ACTIVE' })
    .whereRaw(`not ${adSetHasIssuesSql('ad_sets.id')}`)
    .select('ads.id', 'ads.adset_id');
  const adSetIds = [...new Set(adRows.map((row) => String(row.adset_id)))];
  const adSetRecords: AdSetRecord[] = [];
  for (let i = 0; i < adSetIds.length; i += 500) {
    adSetRecords.push(...(await trx(adSets.table).whereIn('id', adSetIds.slice(i, i + 500))).map((row) => adSets.fromRow(row)));
  }
  const campaignIds = [...new Set(adSetRecords.map((s) => s.campaignId))];
  const campaignRecords: CampaignRecord[] = [];
  for (let i = 0; i < campaignIds.length; i += 500) {
    campaignRecords.push(...(await trx(campaigns.table).whereIn('id', campaignIds.slice(i, i + 500))).map((row) => campaigns.fromRow(row)));
  }
  const dayOf = (time: Date | null) => (time === null ? null : calendar.dayOf(time.getTime()));
  return {
    account,
    campaigns: campaignRecords.map((c) => ({
      id: c.id,
      objective: c.objective,
      dailyBudget: minor(c.dailyBudget),
      lifetimeBudget: minor(c.lifetimeBudget),
      startDay: dayOf(c.startTime),
      stopDay: dayOf(c.stopTime),
    })),
    adSets: adSetRecords.map((s): SyntheticAdSet => ({
      id: s.id,
      campaignId: s.campaignId,
      dailyBudget: minor(s.dailyBudget),
      lifetimeBudget: minor(s.lifetimeBudget),
      startDay: dayOf(s.startTime),
      endDay: dayOf(s.endTime),
      targeting: syntheticTargeting(s.targeting),
    })),
    ads: adRows.map((row) => ({ id: String(row.id), adsetId: String(row.adset_id) })),
  };
}

/**
 * Generates and writes the delivery of an account's live ads over a window, in one transaction (in the caller's
 * when `trx` is given: the demo seed writes its world and its statistics together).
 */
export async function generateDelivery(deps: Pick<AppDeps, 'db'>, input: GenerateInput, trx?: Knex.Transaction): Promise<GenerateResult> {
  if (!trx) return deps.db.transaction((own) => generateDelivery(deps, input, own));
  const accountId = input.account.startsWith('act_') ? input.account.slice(4) : input.account;
  await requireObjectOfType(trx, accountId, 'ad_account', 'account');
  const account = adAccounts.fromRow((await lockRow(trx, trx, adAccounts.table, accountId))!);
  const calendar = new AccountCalendar(account.timezoneName, input.now);
  const { since, until, days, seed } = generationWindow(input, calendar);

  const existing = trx('insight_facts').where({ account_id: accountId }).whereBetween('day', [since, until]);
  let factsReplaced = 0;
  if (input.replace) {
    factsReplaced = await existing.delete();
  } else if (await existing.clone().first('id')) {
    throw new DomainError(
      'CONFLICT',
      `act_${accountId} already has statistics between ${since} and ${until}; give --replace to delete them and generate anew.`,
      {
        field: 'account',
      },
    );
  }

  const world = await liveWorld(trx, account, calendar);
  const parents = new Map<string, AdParents>();
  const adSetCampaign = new Map(world.adSets.map((s) => [s.id, s.campaignId]));
  for (const ad of world.ads) parents.set(ad.id, { adsetId: ad.adsetId, campaignId: adSetCampaign.get(ad.adsetId)!, accountId });

  const result: GenerateResult = {
    accountId,
    since,
    until,
    days,
    seed,
    liveAds: world.ads.length,
    impressions: 0,
    clicks: 0,
    spend: 0,
    currency: account.currency,
    factsWritten: 0,
    factsReplaced,
  };
  const aggregator = new FactsAggregator();
  const flush = async () => {
    if (aggregator.size > 0)
      result.factsWritten += await addFacts(
        trx,
        aggregator.drain((adId) => parents.get(adId)),
      );
  };
  for (const cell of syntheticDelivery(world, { seed, days: daysBetween(since, until) })) {
    result.impressions += cell.impressions;
    result.clicks += cell.clicks;
    result.spend += cell.spend;
    aggregator.add(cell);
    if (aggregator.people >= PEOPLE_PER_FLUSH) await flush();
  }
  await flush();
  return result;
}
