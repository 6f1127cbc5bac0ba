import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusFilters } from '../../src/ads/edges.ts';
import { adSetEffectiveStatus } from '../../src/ads/rules/effective-status.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord, ObjectStatus } from '../../src/ads/store.ts';
import { adSets } from '../../src/ads/store.ts';
import { pagedChildren, type Filters } from '../../src/db/batch.ts';
import type { PageRequest, Slice } from '../../src/db/pagination.ts';
import { countStatements } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * Pages of many parents' children in one statement (src/db/batch.ts pagedChildren), checked against a plain
 * reading of the rows: every direction, cursors before, inside, between and after the parents' lists (ids of
 * hidden rows and of other parents' rows among them), with the effective-status filters, on both databases.
 */
const STATUSES: ObjectStatus[] = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'ACTIVE'];

const byId = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);

/** The page a request should get of `list` (every child of one parent the filter keeps). */
function expectedSlice(list: AdSetRecord[], request: PageRequest): { ids: string[]; hasNextPage: boolean; hasPreviousPage: boolean } {
  const shown = [...list].sort(byId);
  if (request.descending) shown.reverse();
  const cursor = request.cursorId === undefined ? undefined : BigInt(request.cursorId);
  // "Before" the cursor in the order shown: smaller ids, or larger ones when newest first.
  const before = (id: string) => (request.descending ? BigInt(id) > cursor! : BigInt(id) < cursor!);
  if (request.direction === 'forward') {
    const rest = cursor === undefined ? shown : shown.filter((s) => s.id !== request.cursorId && !before(s.id));
    return { ids: rest.slice(0, request.limit).map((s) => s.id), hasNextPage: rest.length > request.limit, hasPreviousPage: cursor !== undefined };
  }
  const rest = cursor === undefined ? shown : shown.filter((s) => before(s.id));
  return {
    ids: rest.slice(Math.max(0, rest.length - request.limit)).map((s) => s.id),
    hasNextPage: cursor !== undefined,
    hasPreviousPage: rest.length > request.limit,
  };
}

const idsOf = (slice: Slice<AdSetRecord>) => ({ ids: slice.items.map((s) => s.id), hasNextPage: slice.hasNextPage, hasPreviousPage: slice.hasPreviousPage });

describe('paging many parents at once', () => {
  let server: TestServer;
  let accounts: AdAccountRecord[];
  let campaignOf: Map<string, CampaignRecord>;
  let all: AdSetRecord[];

  beforeAll(async () => {
    // The background runner's polling would be counted with the statements.
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    // A: a large account, one of whose campaigns is archived; B: a small one under a paused campaign; C: empty.
    accounts = [await world.adAccount(org.id), await world.adAccount(org.id), await world.adAccount(org.id)];
    const [a, b] = accounts as [AdAccountRecord, AdAccountRecord];
    const [active] = await world.campaigns(a, 1);
    const [archived] = await world.campaigns(a, 1, { status: 'ARCHIVED' });
    const [paused] = await world.campaigns(b, 1, { status: 'PAUSED' });
    campaignOf = new Map([active!, archived!, paused!].map((c) => [c.id, c]));
    all = [];
    // In rounds, so the parents' ids interleave and one cursor falls inside several lists.
    for (let round = 0; round < 4; round++) {
      all.push(...(await world.adSets(active!, 20, (i) => ({ status: STATUSES[i % STATUSES.length]! }))));
      all.push(...(await world.adSets(archived!, 3)));
      all.push(...(await world.adSets(paused!, 5, (i) => ({ status: STATUSES[(i + round) % STATUSES.length]! }))));
    }
  });
  afterAll(() => server?.close());

  const FILTERS: Array<{ name: string; filters: Filters; keeps: (s: AdSetRecord) => boolean }> = [
    {
      name: 'default (not DELETED or ARCHIVED)',
      filters: statusFilters('ad_sets'),
      keeps: (s) =>
        !['DELETED', 'ARCHIVED'].includes(adSetEffectiveStatus({ own: s.status, campaign: campaignOf.get(s.campaignId)!.status, hasIssues: false })),
    },
    { name: 'status PAUSED', filters: statusFilters('ad_sets', { status: ['PAUSED'] }), keeps: (s) => s.status === 'PAUSED' },
    {
      name: 'effective status CAMPAIGN_PAUSED or ARCHIVED',
      filters: statusFilters('ad_sets', { effectiveStatus: ['CAMPAIGN_PAUSED', 'ARCHIVED'] }),
      keeps: (s) =>
        ['CAMPAIGN_PAUSED', 'ARCHIVED'].includes(adSetEffectiveStatus({ own: s.status, campaign: campaignOf.get(s.campaignId)!.status, hasIssues: false })),
    },
  ];

  it('gives each parent its own page, in one statement, for every direction and cursor', async () => {
    const sorted = [...all].sort(byId);
    const cursors = [
      undefined,
      String(BigInt(sorted[0]!.id) - 1n),
      ...sorted.filter((_, i) => i % 9 === 4).map((s) => s.id),
      String(BigInt(sorted.at(-1)!.id) + 1n),
    ];
    let batches = 0;
    for (const { name, filters, keeps } of FILTERS) {
      for (const direction of ['forward', 'backward'] as const) {
        for (const descending of [false, true]) {
          for (const limit of [1, 7, 100]) {
            for (const cursorId of cursors) {
              const request: PageRequest = { limit, direction, descending, cursorId };
              const paged = pagedChildren(server.deps.db, adSets, 'account_id');
              const { result, statements } = await countStatements(server.deps.db, () =>
                Promise.all(accounts.map((account) => paged.page(account.id, request, filters))),
              );
              expect(statements, `${name} ${JSON.stringify(request)}`).toHaveLength(1);
              accounts.forEach((account, i) => {
                const list = all.filter((s) => s.accountId === account.id && keeps(s));
                expect(idsOf(result[i]!), `${name}, account ${i}, ${JSON.stringify(request)}`).toEqual(expectedSlice(list, request));
              });
              batches++;
            }
          }
        }
      }
    }
    expect(batches).toBe(FILTERS.length * 2 * 2 * 3 * cursors.length);
  });

  it('walks to the last page and back, alone and batched with other parents', async () => {
    const [a, b] = accounts as [AdAccountRecord, AdAccountRecord];
    const { filters, keeps } = FILTERS[0]!;
    const expected = all
      .filter((s) => s.accountId === a.id && keeps(s))
      .sort(byId)
      .map((s) => s.id);
    expect(expected.length).toBeGreaterThan(40);
    for (const together of [[], [b.id]]) {
      const walk = async (direction: 'forward' | 'backward') => {
        const seen: string[] = [];
        let cursorId: string | undefined;
        for (;;) {
          const paged = pagedChildren(server.deps.db, adSets, 'account_id');
          const request: PageRequest = { limit: 6, direction, cursorId };
          const [slice] = await Promise.all([a.id, ...together].map((id) => paged.page(id, request, filters)));
          const ids = slice!.items.map((s) => s.id);
          if (direction === 'forward') seen.push(...ids);
          else seen.unshift(...ids);
          const more = direction === 'forward' ? slice!.hasNextPage : slice!.hasPreviousPage;
          if (!more) return seen;
          cursorId = direction === 'forward' ? ids.at(-1) : ids[0];
        }
      };
      expect(await walk('forward'), `with ${together.length} other parents`).toEqual(expected);
      expect(await walk('backward'), `with ${together.length} other parents`).toEqual(expected);
    }
  });
});
