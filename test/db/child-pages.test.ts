import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusFilters } from '../../src/ads/edges.ts';
import { adSetEdges } from '../../src/ads/edges.ts';
import { ads, adSets, type AdAccountRecord, type AdRecord, type AdSetRecord, type CampaignRecord } from '../../src/ads/store.ts';
import { createLoaders, createRequestContext } from '../../src/context/index.ts';
import { keptChildPage, readsChildPagesWithParents, type ChildPages } from '../../src/db/child-pages.ts';
import { dialect } from '../../src/db/index.ts';
import type { PageRequest } from '../../src/db/pagination.ts';
import { ANONYMOUS } from '../../src/authz/policy.ts';
import { countStatements } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * Children's first pages read in the statement that lists their parents (src/db/child-pages.ts): on PostgreSQL,
 * the records read that way are the records their own statement reads, every column of every type (the text of
 * each value read by node-postgres' parser of its column); a page is taken only by a request for that very page;
 * cursors and backward pages are read as their own statement reads them; SQLite reads them by their own statement.
 */
describe('child pages read with their parents', () => {
  let server: TestServer;
  let account: AdAccountRecord;
  let campaign: CampaignRecord;
  let sets: AdSetRecord[];
  const adsOf = new Map<string, AdRecord[]>();

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    account = await world.adAccount(org.id);
    [campaign] = (await world.campaigns(account, 1)) as [CampaignRecord];
    // Values of every kind: budgets or none, JSON targeting, statuses, bid amounts, dates; an ad set without ads.
    sets = await world.adSets(campaign, 5, (i) => ({
      status: (['ACTIVE', 'PAUSED', 'ACTIVE', 'ARCHIVED', 'ACTIVE'] as const)[i]!,
      dailyBudget: i % 2 === 0 ? String(1000 + i) : null,
      lifetimeBudget: i % 2 === 1 ? String(90000 + i) : null,
      bidAmount: i === 2 ? '250' : null,
      targeting: { geo_locations: { countries: i === 1 ? ['US', 'CA'] : ['FR'] }, age_min: 18 + i },
      startTime: new Date(Date.UTC(2026, 10, 1, 12, 30, 15, 123 + i)),
    }));
    for (const [i, adSet] of sets.entries()) if (i !== 4) adsOf.set(adSet.id, await world.ads(adSet, 3 + i));
  });
  afterAll(() => server?.close());

  /** A request's loaders, as a request has them. */
  const freshLoaders = () => createLoaders(server.deps.db);
  const EVERY = statusFilters('ads', {
    effectiveStatus: ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED', 'ADSET_PAUSED', 'CAMPAIGN_PAUSED', 'IN_PROCESS', 'WITH_ISSUES'],
  });
  const ALL_SETS = statusFilters('ad_sets', { effectiveStatus: ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED', 'CAMPAIGN_PAUSED', 'IN_PROCESS', 'WITH_ISSUES'] });
  const forward = (limit: number, cursorId?: string): PageRequest => ({ direction: 'forward', limit, cursorId });
  /** Every column of a table, as a plan names them. */
  const everyColumn = (mapping: { columns: Record<string, unknown> }) => ({ columns: Object.freeze(Object.keys(mapping.columns)) });

  /** The ad sets of the campaign with each one's page of ads read with them, and the same pages read alone. */
  async function readBothWays(request: PageRequest, plan: { columns: readonly string[] }) {
    const loaders = freshLoaders();
    const child: ChildPages = { list: loaders.ads.adsOfAdSet, request, filters: EVERY, plan };
    const { result: parents, statements } = await countStatements(server.deps.db, () =>
      loaders.ads.adSetsOfCampaign.page(campaign.id, forward(25), ALL_SETS, everyColumn(adSets), undefined, child),
    );
    const alone = freshLoaders();
    const pairs = await Promise.all(
      parents.items.map(async (parent) => ({
        parent,
        kept: keptChildPage<AdRecord>(parent, loaders.ads.adsOfAdSet.keyOf(request, EVERY, plan)),
        taken: await loaders.ads.adsOfAdSet.page(parent.id, request, EVERY, plan, parent),
        read: await alone.ads.adsOfAdSet.page(parent.id, request, EVERY, plan),
      })),
    );
    return { parents, pairs, statements };
  }

  it('reads every column of every kind as the children’s own statement does (PostgreSQL), in one statement', async () => {
    const { parents, pairs, statements } = await readBothWays(forward(10), everyColumn(ads));
    expect(parents.items).toHaveLength(sets.length);
    for (const { parent, kept, taken, read } of pairs) {
      expect(read.items.map((ad) => ad.id)).toEqual((adsOf.get(parent.id) ?? []).map((ad) => ad.id));
      // Deep equality: Dates, JSON, booleans, numbers and nulls as the row read them.
      expect(taken).toEqual(read);
      if (readsChildPagesWithParents(server.deps.db)) expect(kept).toEqual(read);
      else expect(kept).toBeUndefined();
    }
    const adsReads = statements.filter((sql) => /from [`"]ads[`"]/.test(sql));
    if (dialect(server.deps.db) === 'postgres') {
      expect(statements).toHaveLength(1);
      expect(adsReads).toEqual(statements);
    } else {
      expect(adsReads).toEqual([]);
    }
  });

  it('reads ad sets, with JSON, dates and budgets, as children of campaigns the same way', async () => {
    const loaders = freshLoaders();
    const plan = everyColumn(adSets);
    const request = forward(3);
    const child: ChildPages = { list: loaders.ads.adSetsOfCampaign, request, filters: ALL_SETS, plan };
    const campaigns = await loaders.ads.campaignsOfAccount.page(account.id, forward(5), statusFilters('campaigns', {}), undefined, undefined, child);
    expect(campaigns.items.map((c) => c.id)).toEqual([campaign.id]);
    const taken = await loaders.ads.adSetsOfCampaign.page(campaign.id, request, ALL_SETS, plan, campaigns.items[0]);
    const read = await freshLoaders().ads.adSetsOfCampaign.page(campaign.id, request, ALL_SETS, plan);
    expect(read.items.map((s) => s.id)).toEqual(sets.slice(0, 3).map((s) => s.id));
    expect(read.hasNextPage).toBe(true);
    expect(taken).toEqual(read);
    expect(taken.items[1]!.targeting).toEqual({ geo_locations: { countries: ['US', 'CA'] }, age_min: 19 });
  });

  it('reads pages from a cursor, and backward pages, as their own statement does', async () => {
    const narrowed = { columns: Object.freeze(['id', 'name']) };
    const second = adsOf.get(sets[3]!.id)![1]!;
    for (const request of [
      forward(2, second.id),
      { direction: 'backward', limit: 2 } as PageRequest,
      { direction: 'backward', limit: 2, cursorId: second.id } as PageRequest,
    ]) {
      const { pairs } = await readBothWays(request, narrowed);
      for (const { taken, read } of pairs) expect(taken).toEqual(read);
      const third = pairs.find(({ parent }) => parent.id === sets[3]!.id)!;
      expect(third.read.items.length).toBeGreaterThan(0);
    }
  });

  it('keeps a page only for a request of that very page: another size, filter or column set is read by itself', async () => {
    const narrowed = { columns: Object.freeze(['id', 'name']) };
    const loaders = freshLoaders();
    const request = forward(2);
    const child: ChildPages = { list: loaders.ads.adsOfAdSet, request, filters: EVERY, plan: narrowed };
    const parents = await loaders.ads.adSetsOfCampaign.page(campaign.id, forward(25), ALL_SETS, undefined, undefined, child);
    const parent = parents.items.find((s) => s.id === sets[3]!.id)!;
    const others: Array<[PageRequest, typeof EVERY, { columns: readonly string[] }]> = [
      [forward(3), EVERY, narrowed],
      [request, statusFilters('ads', {}), narrowed],
      [request, EVERY, { columns: Object.freeze(['id', 'name', 'status']) }],
    ];
    for (const [otherRequest, filters, plan] of others) {
      const { result, statements } = await countStatements(server.deps.db, () => loaders.ads.adsOfAdSet.page(parent.id, otherRequest, filters, plan, parent));
      expect(statements.length).toBe(1);
      expect(result).toEqual(await freshLoaders().ads.adsOfAdSet.page(parent.id, otherRequest, filters, plan));
    }
  });

  it("is asked of an edge that decides who may read its items: nobody's page for a caller who may not", () => {
    const loaders = freshLoaders();
    const outsider = createRequestContext(server.deps, { requestId: 'test', viewer: ANONYMOUS });
    expect(adSetEdges.ads.pagesWithParents!(outsider, account.organizationId, forward(2), undefined, { columns: ['id'] })).toBeUndefined();
    const admin = createRequestContext(server.deps, {
      requestId: 'test',
      viewer: { kind: 'user', userId: 'u', siteAdmin: false, roles: new Map([[account.organizationId, 'admin']]) },
    });
    const pages = adSetEdges.ads.pagesWithParents!(admin, account.organizationId, forward(2), undefined, { columns: ['id'] })!;
    expect(pages.request).toEqual(forward(2));
    expect(pages.list.mapping.table).toBe(loaders.ads.adsOfAdSet.mapping.table);
    // The filter the edge's own list would refuse is refused here too (the list then answers the error in its place).
    expect(() => adSetEdges.ads.pagesWithParents!(admin, account.organizationId, forward(2), { effectiveStatus: ['NOPE'] }, { columns: ['id'] })).toThrow(
      /effective_status/,
    );
  });
});
