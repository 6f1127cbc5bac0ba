/**
 * Statistics at the specification's scale (issue 19): an account of 5,000 ad sets and 20,000 ads with 400 days
 * of history, read through GET /v24.0/<object>/insights. Goals, measured side by side in this run:
 * (a) the account's 30-day daily report (time_increment=1) costs at most 2x the same report of one ad;
 * (b) the 30 days at level=ad (20,000 rows) page through within 3x of paging through as many ads by id;
 * (d) the same report on SQLite and PostgreSQL, both figures printed (and the same answer).
 * (c), the import's speed, is the `import` section's.
 *
 * The world's facts are written in bulk, not through the generator: simulating every person of 20,000 ads over
 * 400 days would take hours. They keep the shape reports read (facts at ad level and rolled up to ad set,
 * campaign and account, with reach sketches merged up the levels) at a grain chosen to fit a benchmark: no
 * breakdown families (the goals read none), each ad delivering on a third of the last 30 days (the one ad of
 * goal (a) on all of them) and on 1 day in 20 of the 370 before, reaching 4 to 10 of its ad set's 16 people a
 * day. The section prints the rows and bytes it wrote; the README says what a full-grain world would weigh.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/index.ts';
import { closeAppDeps, createAppDeps, type AppDeps } from '../src/context/index.ts';
import { createDatabase, dialect } from '../src/db/index.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOrganization, createUser } from '../src/identity/service.ts';
import { createLogger } from '../src/logging/index.ts';
import { ReachSketch } from '../src/insights/sketch.ts';
import { addDays, mix32 } from '../src/insights/synthetic.ts';
import { DEMO_PASSWORD } from '../db/seeds/demo.ts';
import { ads as adsTable } from '../src/ads/store.ts';
import { insertObjects } from '../src/db/objects.ts';
import { accountWithCampaigns, fillCampaign } from './fixtures.ts';
import {
  DEMO_ORGANIZATION,
  DEMO_USER,
  printTable,
  signInAsDemoUser,
  startServerProcess,
  UNLIMITED_ACCOUNT_ALLOWANCE,
  withDemoServer,
  positive,
  type Goal,
  type SectionOutcome,
} from './harness.ts';

const CAMPAIGNS = 50;
const AD_SETS_PER_CAMPAIGN = 100;
const ADS_PER_AD_SET = 4;
const HISTORY_DAYS = 400;
const WINDOW_DAYS = 30;
const PEOPLE_PER_AD_SET = 16;
/** Times each small report is read (medians compared), and times the 20,000 rows are paged through. */
const REPEATS = Math.round(positive('BENCH_INSIGHTS_REPEATS', 15));
const WALKS = 3;
const PAGE = 100;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface World {
  accountId: string;
  /** The ad that delivers on every day of the window. */
  oneAdId: string;
  ads: number;
  since: string;
  until: string;
  rows: number;
  sketchBytes: number;
  seconds: number;
}

const yesterday = () => addDays(new Date().toISOString().slice(0, 10), -1);

/** One fact row as insight_facts holds it ('' family: no breakdown values). */
interface Row {
  level: string;
  object_id: string;
  account_id: string;
  campaign_id: string | null;
  adset_id: string | null;
  ad_id: string | null;
  day: string;
  family: string;
  impressions: number;
  clicks: number;
  inline_link_clicks: number;
  spend: number;
  actions: string;
  action_values: string;
  reach_sketch: Buffer;
  clicker_sketch: Buffer;
}

/** A rollup being summed in memory: counts and the people reached. */
interface Rollup {
  impressions: number;
  clicks: number;
  spend: number;
  reach: ReachSketch;
}
const emptyRollup = (): Rollup => ({ impressions: 0, clicks: 0, spend: 0, reach: new ReachSketch() });
const add = (into: Rollup, from: Rollup) => {
  into.impressions += from.impressions;
  into.clicks += from.clicks;
  into.spend += from.spend;
  into.reach.merge(from.reach);
};

/**
 * The account, its objects and its facts, written in bulk. The organization and the demo user are made when the
 * database has none (the PostgreSQL copy), so the same user reads both.
 */
export async function buildWorld(deps: AppDeps, until: string): Promise<World> {
  const started = Date.now();
  if (!(await deps.db('organizations').where({ name: DEMO_ORGANIZATION }).first())) {
    const organization = await createOrganization(deps, DEMO_ORGANIZATION);
    await createUser(deps, { email: DEMO_USER, password: DEMO_PASSWORD, name: 'Avery Advertiser', organization: organization.id, role: 'advertiser' });
  }
  const { account, campaignIds } = await accountWithCampaigns(deps, { name: 'Statistics at scale', campaigns: CAMPAIGNS });
  const firstDay = addDays(until, -(HISTORY_DAYS - 1));
  const windowStart = addDays(until, -(WINDOW_DAYS - 1));
  const days = Array.from({ length: HISTORY_DAYS }, (_, d) => addDays(firstDay, d));
  const accountDays = days.map(emptyRollup);
  let rows = 0;
  let sketchBytes = 0;
  let adIndex = 0;
  let oneAdId = '';
  const write = async (batch: Row[]) => {
    for (const row of batch) sketchBytes += row.reach_sketch.length + row.clicker_sketch.length;
    rows += batch.length;
    await deps.db.transaction(async (trx) => {
      for (let i = 0; i < batch.length; i += 400) await trx('insight_facts').insert(batch.slice(i, i + 400));
    });
  };
  const row = (
    level: string,
    objectId: string,
    parents: { campaign: string | null; adset: string | null; ad: string | null },
    day: string,
    r: Rollup,
  ): Row => ({
    level,
    object_id: objectId,
    account_id: account.id,
    campaign_id: parents.campaign,
    adset_id: parents.adset,
    ad_id: parents.ad,
    day,
    family: '',
    impressions: r.impressions,
    clicks: r.clicks,
    inline_link_clicks: Math.floor(r.clicks * 0.7),
    spend: r.spend,
    actions: JSON.stringify({ link_click: Math.floor(r.clicks * 0.7) }),
    action_values: '{}',
    reach_sketch: r.reach.serialize(),
    clicker_sketch: new ReachSketch().serialize(),
  });

  for (const campaign of campaignIds) {
    const adSetIds = await fillCampaign(deps, campaign, AD_SETS_PER_CAMPAIGN);
    const adRecords = await deps.db.transaction((trx) =>
      insertObjects(
        trx,
        'ad',
        adsTable,
        adSetIds.flatMap((adsetId) =>
          Array.from({ length: ADS_PER_AD_SET }, (_, k) => ({
            organizationId: account.organizationId,
            accountId: account.id,
            campaignId: campaign,
            adsetId,
            name: `Ad ${k + 1} of ${adsetId}`,
            status: 'ACTIVE' as const,
            creativeId: null,
            sourceAdId: null,
          })),
        ),
      ),
    );
    const campaignDays = days.map(emptyRollup);
    const batch: Row[] = [];
    for (const [s, adsetId] of adSetIds.entries()) {
      const adSetDays = days.map(emptyRollup);
      for (const ad of adRecords.slice(s * ADS_PER_AD_SET, (s + 1) * ADS_PER_AD_SET)) {
        const index = adIndex++;
        if (index === 0) oneAdId = ad.id;
        for (const [d, day] of days.entries()) {
          const inWindow = day >= windowStart;
          const delivers = index === 0 ? inWindow || d % 20 === 0 : inWindow ? (index + d) % 3 === 0 : mix32(index * 512 + d) % 20 === 0;
          if (!delivers) continue;
          const h = mix32(index * 7919 + d);
          const impressions = 100 + (h % 900);
          const fact: Rollup = { impressions, clicks: Math.round(impressions * 0.015), spend: Math.round(impressions * 0.6), reach: new ReachSketch() };
          for (let p = 0; p < 4 + (h % 7); p++) fact.reach.add(mix32(index >>> 2) ^ mix32((h >>> p) % PEOPLE_PER_AD_SET));
          batch.push(row('ad', ad.id, { campaign, adset: adsetId, ad: ad.id }, day, fact));
          add(adSetDays[d]!, fact);
        }
      }
      for (const [d, rollup] of adSetDays.entries()) {
        if (rollup.impressions === 0) continue;
        batch.push(row('adset', adsetId, { campaign, adset: adsetId, ad: null }, days[d]!, rollup));
        add(campaignDays[d]!, rollup);
      }
    }
    for (const [d, rollup] of campaignDays.entries()) {
      if (rollup.impressions === 0) continue;
      batch.push(row('campaign', campaign, { campaign, adset: null, ad: null }, days[d]!, rollup));
      add(accountDays[d]!, rollup);
    }
    await write(batch);
  }
  await write(
    accountDays.flatMap((rollup, d) =>
      rollup.impressions === 0 ? [] : [row('account', account.id, { campaign: null, adset: null, ad: null }, days[d]!, rollup)],
    ),
  );
  return { accountId: account.id, oneAdId, ads: adIndex, since: windowStart, until, rows, sketchBytes, seconds: (Date.now() - started) / 1000 };
}

/** What the database holds on disk: the SQLite file, or PostgreSQL's insight_facts with its indexes. */
async function storedBytes(deps: AppDeps, sqliteFile?: string): Promise<number> {
  if (dialect(deps.db) === 'sqlite') return statSync(sqliteFile!).size;
  const result = await deps.db.raw("select pg_total_relation_size('insight_facts') as bytes");
  return Number((result.rows as Array<{ bytes: string }>)[0]!.bytes);
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** GET of a Graph path with the session, its JSON checked to be a 200. */
async function getJson(url: string): Promise<{ data: unknown[]; paging?: { cursors?: { after?: string }; next?: string } }> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url.replace(/access_token=[^&]+/, 'access_token=…')}: status ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Every page of a Graph list, following cursors.after while there is a next page: the rows' count and the time. */
async function walk(firstPage: string): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  let rows = 0;
  let url: string | undefined = firstPage;
  while (url) {
    const page = await getJson(url);
    rows += page.data.length;
    const after = page.paging?.cursors?.after;
    url = page.paging?.next && after ? `${firstPage}&after=${encodeURIComponent(after)}` : undefined;
  }
  return { rows, ms: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Times each URL `repeats` times, interleaved (in order, then reversed, ...), so the machine's load weighs on each alike. */
async function timeReads(urls: string[], repeats: number): Promise<number[]> {
  const times = urls.map(() => [] as number[]);
  for (let r = 0; r < repeats; r++) {
    const order = urls.map((_, i) => i);
    for (const i of r % 2 === 0 ? order : order.reverse()) {
      const started = performance.now();
      await getJson(urls[i]!);
      times[i]!.push(performance.now() - started);
    }
  }
  return times.map(median);
}

function reports(url: string, token: string, world: World) {
  const range = encodeURIComponent(JSON.stringify({ since: world.since, until: world.until }));
  const common = `access_token=${token}&time_range=${range}&limit=${PAGE}`;
  return {
    accountDaily: `${url}/v24.0/act_${world.accountId}/insights?fields=impressions,reach,clicks,spend&time_increment=1&${common}`,
    /** The same without reach: what merging and counting the people costs, beside it. */
    accountDailyCounts: `${url}/v24.0/act_${world.accountId}/insights?fields=impressions,clicks,spend&time_increment=1&${common}`,
    adDaily: `${url}/v24.0/${world.oneAdId}/insights?fields=impressions,reach,clicks,spend&time_increment=1&${common}`,
    byAd: `${url}/v24.0/act_${world.accountId}/insights?level=ad&fields=ad_id,impressions,clicks,spend&${common}`,
    adsById: `${url}/v24.0/act_${world.accountId}/ads?fields=id,name&limit=${PAGE}&access_token=${token}`,
  };
}

async function checkDaily(label: string, url: string, world: World): Promise<unknown[]> {
  const { data } = await getJson(url);
  if (data.length !== WINDOW_DAYS) throw new Error(`${label}: ${data.length} rows, not one per day of the ${WINDOW_DAYS}`);
  const first = data[0] as { date_start?: string };
  if (first.date_start !== world.since) throw new Error(`${label}: the first row is ${first.date_start}, not ${world.since}`);
  return data;
}

/** The PostgreSQL copy: the same world in a fresh schema, a server on it, and the account's daily report timed. */
async function onPostgres(until: string, sameAs: unknown[]): Promise<{ ms: number; world: World; bytes: number; same: boolean }> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = createDatabase(POSTGRES_URL);
  await admin.raw('create schema ??', [schema]);
  await admin.destroy();
  const env = {
    ...process.env,
    ...UNLIMITED_ACCOUNT_ALLOWANCE,
    DATABASE_URL: POSTGRES_URL,
    PGOPTIONS: `-c search_path=${schema}`,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  };
  const db = createDatabase(POSTGRES_URL, { schema });
  const deps = createAppDeps(loadConfig({ ...env, PORT: '0', BCRYPT_COST: '4' }), { db, log: createLogger('silent') });
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    await migrateToLatest(deps.db);
    const world = await buildWorld(deps, until);
    await deps.db.raw('analyze insight_facts');
    const bytes = await storedBytes(deps);
    server = await startServerProcess(env, false);
    const token = await signInAsDemoUser(server.url);
    const { accountDaily } = reports(server.url, token, world);
    const answer = await checkDaily('PostgreSQL daily report', accountDaily, world);
    const [ms] = await timeReads([accountDaily], REPEATS);
    await server.child.stop();
    return { ms: ms!, world, bytes, same: JSON.stringify(answer) === JSON.stringify(sameAs) };
  } finally {
    await server?.child.stop().catch(() => undefined);
    await closeAppDeps(deps).catch(() => undefined);
    const cleanup = createDatabase(POSTGRES_URL);
    await cleanup.raw('drop schema if exists ?? cascade', [schema]).catch(() => undefined);
    await cleanup.destroy();
  }
}

export async function benchInsights(): Promise<SectionOutcome> {
  const until = yesterday();
  const prepare = async (deps: AppDeps) => buildWorld(deps, until);
  return withDemoServer({ env: UNLIMITED_ACCOUNT_ALLOWANCE, prepare }, async ({ url, sessionToken, deps, config, prepared: world }) => {
    const sqliteBytes = await storedBytes(deps, join(config.databaseUrl.replace(/^sqlite:/, '')));
    const urls = reports(url, sessionToken, world);
    const accountAnswer = await checkDaily('account daily report', urls.accountDaily, world);
    await checkDaily('one ad daily report', urls.adDaily, world);

    await checkDaily('account daily report without reach', urls.accountDailyCounts, world);
    const [accountMs, adMs, countsMs] = await timeReads([urls.accountDaily, urls.adDaily, urls.accountDailyCounts], REPEATS);
    const walks: Array<{ report: number; ads: number }> = [];
    for (let w = 0; w < WALKS; w++) {
      // Alternating which goes first.
      const first = await walk(w % 2 === 0 ? urls.byAd : urls.adsById);
      const second = await walk(w % 2 === 0 ? urls.adsById : urls.byAd);
      const [report, ads] = w % 2 === 0 ? [first, second] : [second, first];
      if (report.rows !== world.ads || ads.rows !== world.ads) throw new Error(`paging read ${report.rows} report rows and ${ads.rows} ads, not ${world.ads}`);
      walks.push({ report: report.ms, ads: ads.ms });
    }
    const reportWalk = median(walks.map((w) => w.report));
    const adsWalk = median(walks.map((w) => w.ads));

    let postgres: Awaited<ReturnType<typeof onPostgres>> | { error: string };
    try {
      postgres = await onPostgres(until, accountAnswer);
    } catch (error) {
      postgres = { error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
    }

    console.log(
      `An account of ${CAMPAIGNS * AD_SETS_PER_CAMPAIGN} ad sets and ${world.ads} ads with ${HISTORY_DAYS} days of history (${world.since} to ${world.until} the last ${WINDOW_DAYS}): ` +
        `${world.rows.toLocaleString('en-US')} fact rows, ${mb(world.sketchBytes)} of reach sketches, the SQLite file ${mb(sqliteBytes)}, written in ${world.seconds.toFixed(0)}s` +
        ('error' in postgres ? '' : `; PostgreSQL's insight_facts ${mb(postgres.bytes)}, written in ${postgres.world.seconds.toFixed(0)}s`) +
        `. Medians of ${REPEATS} reads each, and of ${WALKS} walks of ${world.ads.toLocaleString('en-US')} rows in pages of ${PAGE}.\n`,
    );
    const table = [
      { scenario: `(a) account, ${WINDOW_DAYS} days daily (SQLite)`, ms: accountMs!.toFixed(1) },
      { scenario: `(a) one ad, ${WINDOW_DAYS} days daily (SQLite)`, ms: adMs!.toFixed(1) },
      { scenario: `    account, ${WINDOW_DAYS} days daily without reach (SQLite)`, ms: countsMs!.toFixed(1) },
      { scenario: `(b) level=ad, ${WINDOW_DAYS} days, every page`, ms: reportWalk.toFixed(0) },
      { scenario: `(b) the account's ads by id, every page`, ms: adsWalk.toFixed(0) },
      {
        scenario: `(d) account, ${WINDOW_DAYS} days daily (PostgreSQL)`,
        ms: 'error' in postgres ? `not measured: ${postgres.error}` : postgres.ms.toFixed(1),
      },
    ];
    printTable(table);
    const ratio = (value: number, target: number, label: string, comparison: '<=' = '<='): Goal => ({
      label,
      measured: `${value.toFixed(2)}x`,
      target: `${comparison} ${target}x`,
      pass: value <= target,
    });
    const goals: Goal[] = [
      ratio(accountMs! / adMs!, 2, `insights (a): ${WINDOW_DAYS}-day daily report, account of ${world.ads} ads vs one ad`),
      ratio(reportWalk / adsWalk, 3, `insights (b): ${world.ads} rows at level=ad paged vs as many ads by id`),
      'error' in postgres
        ? { label: 'insights (d): the daily report on PostgreSQL', measured: 'none', target: 'measured, same answer', pass: false }
        : {
            label: `insights (d): the daily report on PostgreSQL vs SQLite (${postgres.ms.toFixed(1)} ms vs ${accountMs!.toFixed(1)} ms)`,
            measured: `${(postgres.ms / accountMs!).toFixed(2)}x`,
            target: 'measured, same answer',
            pass: postgres.same,
          },
    ];
    // PostgreSQL out of reach is a missed goal; a different answer there is a wrong answer, which fails the run.
    return { ok: 'error' in postgres || postgres.same, goals };
  });
}
