import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { DEMO_PASSWORD, DEMO_STATISTICS_DAYS, isDatabaseEmpty, seedDemo, type DemoSummary } from '../db/seeds/demo.ts';
import { createRequestContext } from '../src/context/index.ts';
import { restorePrincipal } from '../src/identity/principals.ts';
import type { InsightsQuery } from '../src/insights/query.ts';
import { insightsReport } from '../src/insights/service.ts';

/** The demo world, as the seed leaves it in a real database (SQLite or PostgreSQL). */
const EU = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);
const ROLES = ['owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member'];
const POST_KINDS = ['page_post', 'visitor_post', 'photo', 'video', 'event', 'group_post', 'review'];

/** JSON columns come back parsed from PostgreSQL and as text from SQLite. */
const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

describe('demo seed', () => {
  let server: TestServer;
  let summary: DemoSummary;
  const db = () => server.deps.db;

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'warn' });
    expect(await isDatabaseEmpty(db())).toBe(true);
    summary = await seedDemo(server.deps);
    // 90 days of statistics are most of the seed's work: seconds, more on a loaded machine.
  }, 180_000);
  afterAll(() => server?.close());

  it('creates two organizations with a user in every role of each, and a site admin', async () => {
    const organizations = await db()('organizations').select('id', 'name');
    expect(organizations).toHaveLength(2);
    expect(await isDatabaseEmpty(db())).toBe(false);
    const members = await db()('organization_members').select('organization_id', 'role');
    for (const organization of organizations) {
      const roles = members.filter((m) => m.organization_id === organization.id).map((m) => m.role);
      expect(new Set(roles), organization.name).toEqual(new Set(ROLES));
    }
    const siteAdmins = await db()('users').where('site_admin', true).select('email');
    expect(siteAdmins.length).toBeGreaterThanOrEqual(1);
    // What the summary tells the operator matches the database.
    const emails = (await db()('users').select('email')).map((u) => u.email);
    expect(new Set(summary.users.map((u) => u.email))).toEqual(new Set(emails));
    expect(emails).toContain('ads@northwind.example');
  });

  it('creates ad accounts in USD, EUR and JPY', async () => {
    const currencies = new Set((await db()('ad_accounts').select('currency')).map((a) => a.currency));
    for (const currency of ['USD', 'EUR', 'JPY']) expect(currencies).toContain(currency);
  });

  it('registers two applications with their store URLs, for app-promotion ad sets to name', async () => {
    const apps: Array<Record<string, unknown>> = await db()('applications').orderBy('id');
    expect(apps.map((app) => [String(app.id), app.name])).toEqual([
      ['1203948576612345', 'Northwind Trails'],
      ['1203948576612346', 'Northwind Rewards'],
    ]);
    for (const app of apps) {
      const urls = (typeof app.store_urls === 'string' ? JSON.parse(app.store_urls) : app.store_urls) as Record<string, string>;
      expect(Object.values(urls).length).toBeGreaterThan(0);
      for (const url of Object.values(urls)) expect(url).toMatch(/^https:\/\//);
    }
  });

  it("gives every account an enabled and a disabled automated rule, acting as its organization's advertiser, first due at the next midnight", async () => {
    const accounts: Array<{ id: unknown; organization_id: string }> = await db()('ad_accounts').select('id', 'organization_id');
    const rules: Array<Record<string, unknown>> = await db()('ad_rules').select('account_id', 'status', 'principal', 'last_period', 'organization_id');
    expect(rules).toHaveLength(2 * accounts.length);
    for (const account of accounts) {
      const own = rules.filter((rule) => String(rule.account_id) === String(account.id));
      expect(own.map((rule) => rule.status).sort()).toEqual(['DISABLED', 'ENABLED']);
      for (const rule of own) {
        const principal = (typeof rule.principal === 'string' ? JSON.parse(rule.principal) : rule.principal) as { userId: string };
        const membership = await db()('organization_members').where({ user_id: principal.userId, organization_id: account.organization_id }).first('role');
        expect(membership).toEqual({ role: 'advertiser' });
        const lastPeriod = new Date(rule.last_period as string);
        expect(lastPeriod.getTime()).toBeLessThanOrEqual(Date.now());
        expect(Date.now() - lastPeriod.getTime()).toBeLessThan(86_400_000);
      }
    }
  });

  it('creates 40 to 60 ad sets, EU-targeted ones with DSA payor and beneficiary and non-EU ones, each with an ad', async () => {
    const adSets = await db()('ad_sets').select('id', 'targeting', 'dsa_payor', 'dsa_beneficiary');
    expect(adSets.length).toBeGreaterThanOrEqual(40);
    expect(adSets.length).toBeLessThanOrEqual(60);
    expect(summary.counts.adSets).toBe(adSets.length);

    const countriesOf = (adSet: { targeting: unknown }) =>
      (json(adSet.targeting) as { geo_locations?: { countries?: string[] } }).geo_locations?.countries ?? [];
    const euTargeted = adSets.filter((s) => countriesOf(s).some((c) => EU.has(c)));
    const nonEu = adSets.filter((s) => countriesOf(s).length > 0 && !countriesOf(s).some((c) => EU.has(c)));
    expect(euTargeted.length).toBeGreaterThan(0);
    expect(nonEu.length).toBeGreaterThan(0);
    for (const adSet of euTargeted) {
      expect(adSet.dsa_payor, `ad set ${adSet.id}`).toEqual(expect.stringMatching(/\S/));
      expect(adSet.dsa_beneficiary, `ad set ${adSet.id}`).toEqual(expect.stringMatching(/\S/));
    }

    const adCounts = (await db()('ads').select('adset_id').count({ n: '*' }).groupBy('adset_id')) as Array<{ adset_id: string | number; n: string | number }>;
    const withAds = new Map(adCounts.map((row) => [String(row.adset_id), Number(row.n)]));
    for (const adSet of adSets) expect(withAds.get(String(adSet.id)) ?? 0, `ads of ad set ${adSet.id}`).toBeGreaterThanOrEqual(1);
    expect(summary.counts.ads).toBe([...withAds.values()].reduce((a, b) => a + b, 0));
  });

  it('creates flagged and clean audiences, a restricted lookalike and a flagged conversion', async () => {
    const audiences = await db()('custom_audiences').select('subtype', 'flagged_reason', 'operation_status_code');
    const reasons = new Set(audiences.map((a) => a.flagged_reason));
    expect(reasons).toContain('health');
    expect(reasons).toContain('financial');
    expect(audiences.some((a) => a.flagged_reason === null && a.subtype !== 'LOOKALIKE')).toBe(true);
    expect(audiences.some((a) => a.subtype === 'LOOKALIKE' && Number(a.operation_status_code) === 471)).toBe(true);

    const conversions = await db()('custom_conversions').select('flagged_reason');
    expect(conversions.some((c) => c.flagged_reason !== null)).toBe(true);
    expect(conversions.some((c) => c.flagged_reason === null)).toBe(true);
  });

  it('creates posts of every kind, comments and replies, with like counts that match their likes', async () => {
    const kinds = new Set((await db()('posts').select('kind')).map((p) => p.kind));
    expect(kinds).toEqual(new Set(POST_KINDS));

    const comments = await db()('comments').select('id', 'parent_id', 'like_count', 'message', 'message_tags');
    const replies = comments.filter((c) => c.parent_id !== null);
    expect(comments.length - replies.length).toBeGreaterThan(0);
    expect(replies.length).toBeGreaterThan(0);
    const likes = await db()('comment_likes').select('comment_id');
    expect(likes.length).toBeGreaterThan(0);
    const likesOf = new Map<string, number>();
    for (const like of likes) likesOf.set(String(like.comment_id), (likesOf.get(String(like.comment_id)) ?? 0) + 1);
    for (const comment of comments) {
      expect(Number(comment.like_count), `like_count of comment ${comment.id}`).toBe(likesOf.get(String(comment.id)) ?? 0);
    }
    // The mentions (of the page, and of the organization's group in group post threads) are kept beside the tags,
    // and every tag names what it points at, where it says it stands.
    const mentionRows = await db()('comment_mentions').select('comment_id', 'object_id', 'type');
    expect(new Set(mentionRows.map((row: { type: string }) => row.type))).toEqual(new Set(['page', 'group']));
    const names = new Map<string, string>();
    for (const row of await db()('pages').select('id', 'name')) names.set(String(row.id), row.name);
    for (const row of await db()('groups').select('id', 'name')) names.set(String(row.id), row.name);
    for (const comment of comments) {
      const tags = (typeof comment.message_tags === 'string' ? JSON.parse(comment.message_tags) : comment.message_tags) as Array<{
        id: string;
        name: string;
        offset: number;
        length: number;
      }>;
      for (const tag of tags) {
        expect(tag.name).toBe(names.get(tag.id));
        expect([...comment.message].slice(tag.offset, tag.offset + tag.length).join('')).toBe(tag.name);
        expect(mentionRows).toContainEqual({ comment_id: comment.id, object_id: tag.id, type: expect.any(String) });
      }
    }
  });

  it('has 90 days of statistics of its live ads, read through the reports service as a demo advertiser reads them', async () => {
    const user = await db()('users').where({ email: 'ads@northwind.example' }).first();
    const viewer = (await restorePrincipal(server.deps, { kind: 'user', userId: String(user.id) }))!;
    const ctx = createRequestContext(server.deps, { requestId: 'seed-test', viewer });
    const report = (id: string, query: Partial<InsightsQuery>) =>
      insightsReport(
        ctx,
        { kind: 'account', id },
        {
          fields: ['spend', 'impressions', 'reach', 'clicks', 'actions'],
          datePreset: 'last_90d',
          breakdowns: [],
          actionBreakdowns: [],
          filtering: [],
          sort: [],
          ...query,
        },
        { limit: 500 },
      );
    const membership = await db()('organization_members').where({ user_id: user.id }).first();
    const accounts = await db()('ad_accounts').where({ organization_id: membership.organization_id });
    expect(accounts.length).toBeGreaterThan(0);
    for (const account of accounts) {
      const id = String(account.id);
      const daily = (await report(id, { timeIncrement: 1 })).rows;
      expect(daily, account.name).toHaveLength(DEMO_STATISTICS_DAYS);
      for (const row of daily) {
        expect(row.spend, `${account.name} ${row.dateStart}`).toBeGreaterThan(0);
        expect(row.reach).toBeGreaterThan(0);
        expect(row.reach).toBeLessThan(row.impressions);
        expect(row.clicks).toBeLessThan(row.impressions);
      }
      const [whole] = (await report(id, {})).rows;
      expect(whole!.spend).toBe(daily.reduce((sum, row) => sum + row.spend, 0));
      expect(whole!.impressions).toBe(daily.reduce((sum, row) => sum + row.impressions, 0));
      expect(whole!.reach).toBeLessThan(daily.reduce((sum, row) => sum + row.reach!, 0));
      expect(whole!.actions.map((a) => a.actionType)).toContain('link_click');
      const byAge = (await report(id, { breakdowns: ['age'] })).rows;
      expect(byAge.length).toBeGreaterThan(3);
      expect(byAge.reduce((sum, row) => sum + row.impressions, 0)).toBe(whole!.impressions);

      // The ads with statistics are the live ones: they, their ad set and their campaign active.
      const byAd = (await report(id, { level: 'ad', fields: ['ad_id', 'spend'] })).rows;
      const live = await db()('ads')
        .join('ad_sets', 'ad_sets.id', 'ads.adset_id')
        .join('campaigns', 'campaigns.id', 'ads.campaign_id')
        .where({ 'ads.account_id': account.id, 'ads.status': 'ACTIVE', 'ad_sets.status': 'ACTIVE', 'campaigns.status': 'ACTIVE' })
        .select('ads.id');
      const withStatistics = new Set(byAd.map((row) => row.adId));
      expect(withStatistics.size).toBeGreaterThan(0);
      for (const adId of withStatistics) expect(live.map((ad) => String(ad.id))).toContain(adId);
    }
  });

  it('lets a demo user log in over HTTP and read me over GraphQL', async () => {
    const response = await server.login('ads@northwind.example', DEMO_PASSWORD);
    expect(response.status).toBe(201);
    const { session_token: token } = (await response.json()) as { session_token: string };
    expect(token).toEqual(expect.any(String));

    const { status, body } = await server.graphql('{ me { email } }', {}, token);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.me).toEqual({ email: 'ads@northwind.example' });

    const wrong = await server.login('ads@northwind.example', `${DEMO_PASSWORD}x`);
    expect(wrong.status).toBe(401);
  });
});
