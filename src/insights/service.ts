import type { RequestContext } from '../context/index.ts';
import { findAd, findAdAccount, findAdSet, findCampaign } from '../ads/service.ts';
import type { AdAccountRecord } from '../ads/store.ts';
import { badInput, DomainError, notFound } from '../errors/index.ts';
import type { DayRange, InsightsPage, InsightsPageRequest, InsightsQuery, InsightsRow, InsightsTarget } from './query.ts';
import { actionStats, addFact, addTotals, bucketFinder, compareGroups, emptyTotals, groupFacts, type Group, type Totals } from './rules/accumulate.ts';
import { metricOf, REACH_FIELDS, UNIQUE_CLICK_FIELDS } from './rules/metrics.ts';
import { checkQuery, finer, passesMetric, type CheckedQuery, type MetricFilter, type ObjectFilter } from './rules/params.ts';
import { bucketsOf, reportRanges, todayIn } from './rules/windows.ts';
import { allFacts, dataSpan, factsOfGroups, nextGroups, ownFacts, streamedRows, type FactScope } from './report-store.ts';

/**
 * Statistics (Insights) of an ad account, campaign, ad set or ad: the one service both surfaces call (GET
 * /v24.0/<object>/insights, GraphQL `insights`, and asynchronous reports through allInsights).
 *
 * The caller must be able to read the target (the same check as reading the object: a missing id and another
 * organization's answer alike). Everything a report reads lies within the target's account, whose objects share
 * its organization, so a filter naming another organization's ids matches nothing and reveals nothing.
 */

/** Rows per page: 1 to 500 (the platform pages insights in larger pages than object lists). */
export const MAX_INSIGHTS_PAGE = 500;
export const DEFAULT_INSIGHTS_PAGE = 25;
/** allInsights returns at most this many rows (an asynchronous report's whole result, held in memory). */
export const ALL_INSIGHTS_MAX_ROWS = 100_000;

/** Buckets the database sums days into at most (beyond, it sums by day and the buckets are made in JS). */
const MAX_SUMMED_BUCKETS = 400;
/** Fields that need the actions counted type by type. */
const ACTION_COUNT_FIELDS: ReadonlySet<string> = new Set(['actions', 'cost_per_action_type', 'conversions']);

const KIND_LABEL = { account: 'Ad account', campaign: 'Campaign', adset: 'Ad set', ad: 'Ad' } as const;

interface ResolvedTarget {
  account: AdAccountRecord;
  level: InsightsTarget['kind'];
  id: string;
}

async function resolveTarget(ctx: RequestContext, target: InsightsTarget): Promise<ResolvedTarget> {
  const id = target.kind === 'account' && target.id.startsWith('act_') ? target.id.slice(4) : target.id;
  const finders = { account: findAdAccount, campaign: findCampaign, adset: findAdSet, ad: findAd } as const;
  const record = await finders[target.kind](ctx, id);
  const account =
    record && (target.kind === 'account' ? (record as AdAccountRecord) : await ctx.loaders.ads.adAccountById.load((record as { accountId: string }).accountId));
  if (!account) throw notFound(KIND_LABEL[target.kind], target.id);
  return { account, level: target.kind, id };
}

/** Everything a report needs once its query is checked: the days, the buckets, and what to read. */
interface Plan {
  account: AdAccountRecord;
  query: CheckedQuery;
  ranges: DayRange[];
  buckets: DayRange[];
  bucketsOfDay: ReturnType<typeof bucketFinder>;
  scope: FactScope;
  metricFilters: MetricFilter[];
  today: string;
  /**
   * Pages the database can sum as it reads the facts' index (report-store.ts streamedRows): rows of the report's own
   * objects, all days in one range (its range) or day by day (null), no breakdowns, no people. Otherwise undefined.
   */
  stream?: { range: DayRange | null };
}

/** "Now", injectable for tests through the dependencies' clock. */
const now = (ctx: RequestContext) => ctx.clock?.() ?? new Date();

async function plan(ctx: RequestContext, target: InsightsTarget, raw: InsightsQuery): Promise<Plan> {
  const resolved = await resolveTarget(ctx, target);
  const { account } = resolved;
  const query = checkQuery(raw, target.kind);
  const today = todayIn(account.timezoneName, now(ctx));
  const createdDay = todayIn(account.timezoneName, account.createdTime);
  // The days with data matter to data_maximum, and to a range ending before the account was created (is it before
  // the first data too?); other reports need not read them.
  const askedRanges = raw.timeRanges ?? (raw.timeRange ? [raw.timeRange] : []);
  const needsSpan =
    askedRanges.length === 0
      ? raw.datePreset === 'data_maximum'
      : askedRanges.some((range) => !(typeof range?.until === 'string' && range.until >= createdDay));
  const span = needsSpan ? await dataSpan(ctx.db, account.id) : null;
  const firstDay = span && span.since < createdDay ? span.since : createdDay;
  const ranges = reportRanges(raw, { today, firstDay, dataSpan: span });
  const several = raw.timeRanges !== undefined;
  const buckets = bucketsOf(ranges, query.increment, several);
  const objectFilters = query.filters.filter((f): f is ObjectFilter => f.kind !== 'metric');
  const metricFilters = query.filters.filter((f): f is MetricFilter => f.kind === 'metric');
  const readLevel = objectFilters.reduce((level, filter) => finer(level, filter.level), query.level);
  const asked = [...query.fields, ...query.sort.map((s) => s.field), ...metricFilters.map((f) => f.field)];
  const sketches = asked.some((field) => REACH_FIELDS.has(field) || UNIQUE_CLICK_FIELDS.has(field));
  return {
    account,
    query,
    ranges,
    buckets,
    bucketsOfDay: bucketFinder(buckets, several),
    scope: {
      accountId: account.id,
      target: { level: resolved.level, id: resolved.id },
      level: query.level,
      readLevel,
      family: query.breakdowns.family,
      ranges,
      objectFilters,
      sketches,
      breakdowns: query.breakdowns.breakdowns,
      // The database sums days into increments' buckets when that is fewer rows than days (a CASE term per bucket).
      sumBuckets: !several && query.increment !== 1 && buckets.length <= MAX_SUMMED_BUCKETS ? buckets : null,
      actions: query.fields.some((field) => ACTION_COUNT_FIELDS.has(field)),
      actionValues: query.fields.includes('action_values'),
    },
    metricFilters,
    today,
    ...(!sketches && query.breakdowns.breakdowns.length === 0 && readLevel === query.level && !several && ranges.length === 1
      ? query.increment === 'all_days'
        ? { stream: { range: ranges[0]! } }
        : query.increment === 1
          ? { stream: { range: null } }
          : {}
      : {}),
  };
}

// --- Rows ------------------------------------------------------------------------------------------------

function rowOf(plan: Plan, dates: DayRange, totals: Totals, group?: Group): InsightsRow {
  return {
    dateStart: dates.since,
    dateStop: dates.until,
    accountId: plan.account.id,
    accountName: plan.account.name,
    accountCurrency: plan.account.currency,
    ...(group?.campaignId ? { campaignId: group.campaignId } : {}),
    ...(group?.adsetId ? { adsetId: group.adsetId } : {}),
    ...(group?.adId ? { adId: group.adId } : {}),
    breakdownValues: group?.breakdownValues ?? {},
    impressions: totals.impressions,
    // Without sketches read (no field needs them) these stay 0; the surfaces print only the fields asked for.
    reach: totals.reachUnknown ? null : totals.reach.estimate(),
    clicks: totals.clicks,
    uniqueClicks: totals.clickersUnknown ? null : totals.clickers.estimate(),
    inlineLinkClicks: totals.inlineLinkClicks,
    spend: totals.spend,
    actions: actionStats(totals.actions),
    actionValues: actionStats(totals.actionValues),
  };
}

/**
 * Names, objective and optimization goal of the objects on one page, those the fields ask for: batched lookups
 * (DataLoader) of the page's objects, nothing else.
 */
async function labelled(ctx: RequestContext, rows: InsightsRow[], fields: readonly string[]): Promise<InsightsRow[]> {
  const loaders = ctx.loaders.ads;
  const asks = (...names: string[]) => names.some((name) => fields.includes(name));
  const [campaigns, adSets, ads] = [asks('campaign_name', 'objective'), asks('adset_name', 'optimization_goal'), asks('ad_name')];
  if (!campaigns && !adSets && !ads) return rows;
  return Promise.all(
    rows.map(async (row) => {
      const [campaign, adSet, ad] = await Promise.all([
        campaigns && row.campaignId ? loaders.campaignById.load(row.campaignId) : null,
        adSets && row.adsetId ? loaders.adSetById.load(row.adsetId) : null,
        ads && row.adId ? loaders.adById.load(row.adId) : null,
      ]);
      return {
        ...row,
        ...(campaign ? { campaignName: campaign.name, objective: campaign.objective } : {}),
        ...(adSet ? { adsetName: adSet.name, ...(adSet.optimizationGoal ? { optimizationGoal: adSet.optimizationGoal } : {}) } : {}),
        ...(ad ? { adName: ad.name } : {}),
      };
    }),
  );
}

// --- Cursors ---------------------------------------------------------------------------------------------

/** A keyset position (object, bucket, breakdown values of a row) or, for a result sorted by a metric, an offset. */
type Cursor = { g: string; b: number; k: string } | { i: number };

/** Cursors this service writes are far shorter (ids, a bucket, breakdown values); longer input is not one. */
const MAX_CURSOR_LENGTH = 1024;

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

function decodeCursor(value: string, field: string): Cursor {
  try {
    if (value.length > MAX_CURSOR_LENGTH) throw new RangeError('too long');
    const cursor = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof cursor.i === 'number' && Number.isSafeInteger(cursor.i) && cursor.i >= 0) return { i: cursor.i };
    if (typeof cursor.g === 'string' && /^[1-9][0-9]{0,18}$/.test(cursor.g) && Number.isSafeInteger(cursor.b) && typeof cursor.k === 'string') {
      return { g: cursor.g, b: cursor.b as number, k: cursor.k };
    }
  } catch {
    // Falls through to the error below.
  }
  throw badInput(field, `${field} is not a cursor returned by this API.`);
}

function checkPage(page: InsightsPageRequest): { limit: number; cursor?: Cursor; backward: boolean } {
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MAX_INSIGHTS_PAGE)
    throw badInput('limit', `limit must be between 1 and ${MAX_INSIGHTS_PAGE}.`);
  if (page.after !== undefined && page.before !== undefined) throw badInput('before', 'Use after or before, not both.');
  const backward = page.before !== undefined;
  const raw = page.after ?? page.before;
  return { limit: page.limit, cursor: raw === undefined ? undefined : decodeCursor(raw, backward ? 'before' : 'after'), backward };
}

// --- Pages -------------------------------------------------------------------------------------------------

interface GroupPage {
  groups: Group[];
  hasNext: boolean;
  hasPrevious: boolean;
  cursorOf: (group: Group, index: number) => Cursor;
}

/** Largest number of objects read in one step of a walk. */
const MAX_WALK_STEP = 1000;

/**
 * One page of a report in report order, walking its objects in id order from the cursor: the cursor's object
 * from the cursor's bucket on, then the next objects a few at a time until the page is full. Reads grow with the
 * page's rows and the days they cover, never with the objects before the cursor or the rest of the result.
 */
async function walkPage(ctx: RequestContext, plan: Plan, limit: number, cursor: Cursor | undefined, backward: boolean): Promise<GroupPage> {
  const keyset = cursor && 'g' in cursor ? cursor : undefined;
  const rowsOf = (facts: Parameters<typeof groupFacts>[0]) => groupFacts(facts, plan.query.breakdowns.breakdowns, plan.bucketsOfDay);
  const collected: Group[] = [];
  // Without breakdowns a bucket holds one row, so a cursor on an object's last (first) bucket leaves nothing of it.
  const edgeBucket = backward ? 0 : plan.buckets.length - 1;
  if (keyset && !(keyset.b === edgeBucket && plan.query.breakdowns.breakdowns.length === 0)) {
    // Going forward, the rest of the cursor's object lies in its bucket or later ones (their days, at least).
    const fromDay = backward
      ? undefined
      : plan.buckets.slice(keyset.b).reduce<string | undefined>((min, b) => (min === undefined || b.since < min ? b.since : min), undefined);
    const rest = rowsOf(await factsOfGroups(ctx.db, plan.scope, [keyset.g], fromDay)).filter((group) =>
      backward
        ? compareGroups(group, { group: keyset.g, bucket: keyset.b, key: keyset.k }) < 0
        : compareGroups(group, { group: keyset.g, bucket: keyset.b, key: keyset.k }) > 0,
    );
    collected.push(...(backward ? rest.reverse() : rest));
  }
  let last = keyset?.g;
  if (plan.stream) {
    // The database sums, orders and stops after the rows still wanted: one statement for the rest of the page.
    const wanted = limit + 1 - collected.length;
    const rows = wanted > 0 ? rowsOf(await streamedRows(ctx.db, plan.scope, last, wanted, backward, plan.stream.range)) : [];
    collected.push(...(backward ? rows.reverse() : rows));
    return pageOf(collected, limit, backward, keyset !== undefined);
  }
  let step = Math.min(MAX_WALK_STEP, Math.ceil((limit + 1) / Math.max(1, plan.buckets.length)) + 1);
  while (collected.length <= limit) {
    const ids = await nextGroups(ctx.db, plan.scope, last, step, backward);
    if (ids.length === 0) break;
    const groups = rowsOf(await factsOfGroups(ctx.db, plan.scope, ids));
    collected.push(...(backward ? groups.reverse() : groups));
    last = ids.at(-1);
    if (ids.length < step) break;
    // The next step reads as many objects as the rows still wanted need at the rows per object seen so far
    // (breakdowns multiply them), one more for slack.
    const rowsPerObject = Math.max(groups.length / ids.length, 0.1);
    step = Math.min(MAX_WALK_STEP, Math.ceil((limit + 1 - collected.length) / rowsPerObject) + 1);
  }
  return pageOf(collected, limit, backward, keyset !== undefined);
}

/** Rows collected in the direction of travel (one more than the page, when there are more) as a page. */
function pageOf(collected: Group[], limit: number, backward: boolean, fromCursor: boolean): GroupPage {
  const more = collected.length > limit;
  const groups = collected.slice(0, limit);
  if (backward) groups.reverse();
  return {
    groups,
    hasNext: backward ? true : more,
    hasPrevious: backward ? more : fromCursor,
    cursorOf: (group) => ({ g: group.group, b: group.bucket, k: group.key }),
  };
}

/** The whole result, filtered on and sorted by metrics, a page of it by offset. */
function wholeResultPage(plan: Plan, all: Group[], limit: number, cursor: Cursor | undefined, backward: boolean): GroupPage {
  const offset = cursor && 'i' in cursor ? cursor.i : backward ? all.length : -1;
  const start = backward ? Math.max(0, offset - limit) : offset + 1;
  const end = backward ? offset : Math.min(all.length, start + limit);
  return {
    groups: all.slice(start, end),
    hasNext: end < all.length,
    hasPrevious: start > 0,
    cursorOf: (_group, index) => ({ i: start + index }),
  };
}

/** Every group of the result that passes the metric filters, in the order `sort` asks (report order breaking ties). */
async function wholeResult(ctx: RequestContext, plan: Plan): Promise<Group[]> {
  const groups = groupFacts(await allFacts(ctx.db, plan.scope), plan.query.breakdowns.breakdowns, plan.bucketsOfDay);
  const rowFor = (group: Group) => rowOf(plan, plan.buckets[group.bucket]!, group.totals, group);
  const kept = groups.filter((group) => {
    const row = rowFor(group);
    return plan.metricFilters.every((filter) => passesMetric(filter, metricOf(row, filter.field)?.value));
  });
  if (plan.query.sort.length === 0) return kept;
  const keyed = kept.map((group) => {
    const row = rowFor(group);
    return { group, values: plan.query.sort.map((s) => metricOf(row, s.field)?.value) };
  });
  keyed.sort((a, b) => {
    for (const [i, { direction }] of plan.query.sort.entries()) {
      const x = a.values[i];
      const y = b.values[i];
      if (x === y) continue;
      // Rows without the value (a ratio over 0) go last either way.
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return direction === 'ascending' ? x - y : y - x;
    }
    return compareGroups(a.group, b.group);
  });
  return keyed.map((entry) => entry.group);
}

/** Totals over the whole result: the target's own rollup when nothing filters, else the result's facts. */
async function summaryOf(ctx: RequestContext, plan: Plan, whole: Group[] | null): Promise<InsightsRow> {
  const totals = emptyTotals();
  if (plan.metricFilters.length > 0 && whole) {
    for (const group of whole) addTotals(totals, group.totals);
  } else if (plan.ranges.length > 0) {
    const facts =
      plan.scope.objectFilters.length === 0
        ? await ownFacts(ctx.db, plan.account.id, plan.scope.target, plan.ranges, plan.scope.sketches)
        : await allFacts(ctx.db, plan.scope);
    for (const fact of facts) addFact(totals, fact);
  }
  const dates =
    plan.ranges.length === 0
      ? { since: plan.today, until: plan.today }
      : {
          since: plan.ranges.map((r) => r.since).sort()[0]!,
          until: plan.ranges
            .map((r) => r.until)
            .sort()
            .at(-1)!,
        };
  return rowOf(plan, dates, totals);
}

export interface InsightsReportOptions {
  /** Totals over the whole result too (default_summary / summary). */
  summary?: boolean;
}

/** One page of a report on an account, campaign, ad set or ad. */
export async function insightsReport(
  ctx: RequestContext,
  target: InsightsTarget,
  query: InsightsQuery,
  page: InsightsPageRequest,
  options: InsightsReportOptions = {},
): Promise<InsightsPage> {
  const { limit, cursor, backward } = checkPage(page);
  const planned = await plan(ctx, target, query);
  // Sorting by a metric or filtering on one needs every row before the first page: the whole result is read.
  const needsWhole = planned.query.sort.length > 0 || planned.metricFilters.length > 0;
  if (cursor && needsWhole !== 'i' in cursor) throw badInput(backward ? 'before' : 'after', `${backward ? 'before' : 'after'} is not a cursor of this report.`);
  const whole = needsWhole && planned.ranges.length > 0 ? await wholeResult(ctx, planned) : needsWhole ? [] : null;
  const groupPage =
    planned.ranges.length === 0
      ? { groups: [], hasNext: false, hasPrevious: false, cursorOf: () => ({ i: 0 }) }
      : whole
        ? wholeResultPage(planned, whole, limit, cursor, backward)
        : await walkPage(ctx, planned, limit, cursor, backward);
  const rows = await labelled(
    ctx,
    groupPage.groups.map((group) => rowOf(planned, planned.buckets[group.bucket]!, group.totals, group)),
    planned.query.fields,
  );
  const first = groupPage.groups[0];
  const last = groupPage.groups.at(-1);
  return {
    rows,
    ...(options.summary ? { summary: await summaryOf(ctx, planned, whole) } : {}),
    ...(first ? { before: encodeCursor(groupPage.cursorOf(first, 0)) } : {}),
    ...(last ? { after: encodeCursor(groupPage.cursorOf(last, groupPage.groups.length - 1)) } : {}),
    cursors: groupPage.groups.map((group, index) => encodeCursor(groupPage.cursorOf(group, index))),
    hasNext: groupPage.hasNext,
    hasPrevious: groupPage.hasPrevious,
  };
}

/**
 * A report's every row (asynchronous reports), planned once and read a page at a time; more than
 * ALL_INSIGHTS_MAX_ROWS rows is refused (LIMIT_EXCEEDED): narrow the report by days, level or filtering.
 */
export async function allInsights(ctx: RequestContext, target: InsightsTarget, query: InsightsQuery): Promise<InsightsRow[]> {
  const planned = await plan(ctx, target, query);
  if (planned.ranges.length === 0) return [];
  const tooMany = () =>
    new DomainError('LIMIT_EXCEEDED', `The report has more than ${ALL_INSIGHTS_MAX_ROWS} rows: ask for fewer days, a coarser level or filtering.`, {
      graph: { code: 100 },
    });
  const rowsOf = (groups: Group[]) =>
    labelled(
      ctx,
      groups.map((group) => rowOf(planned, planned.buckets[group.bucket]!, group.totals, group)),
      planned.query.fields,
    );
  if (planned.query.sort.length > 0 || planned.metricFilters.length > 0) {
    const whole = await wholeResult(ctx, planned);
    if (whole.length > ALL_INSIGHTS_MAX_ROWS) throw tooMany();
    return rowsOf(whole);
  }
  const rows: InsightsRow[] = [];
  let cursor: Cursor | undefined;
  for (;;) {
    const page = await walkPage(ctx, planned, MAX_INSIGHTS_PAGE, cursor, false);
    rows.push(...(await rowsOf(page.groups)));
    if (rows.length > ALL_INSIGHTS_MAX_ROWS) throw tooMany();
    const last = page.groups.at(-1);
    if (!page.hasNext || !last) return rows;
    cursor = page.cursorOf(last, page.groups.length - 1);
  }
}
