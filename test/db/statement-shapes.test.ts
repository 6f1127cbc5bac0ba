import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';
import { campaigns } from '../../src/ads/store.ts';
import { fetchSlice, type Filters } from '../../src/db/batch.ts';
import type { Db } from '../../src/db/index.ts';
import type { PageRequest } from '../../src/db/pagination.ts';
import { keptShapesView, shapedQuery } from '../../src/db/statement-shapes.ts';
import { countStatements, TEST_DB } from '../helpers/database.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * The batched reads' SQL kept by shape (src/db/statement-shapes.ts): a shape's later runs answer what Knex's
 * statement answers with their own values, each kind of filter is its own shape, a caller whose values are not
 * Knex's is refused at the first run, and kept statements run in the caller's transaction. On both databases.
 */
describe('statements kept by shape', () => {
  let server: TestServer;
  let db: Db;
  let accounts: AdAccountRecord[];
  let all: CampaignRecord[];

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    db = server.deps.db;
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    accounts = [await world.adAccount(org.id), await world.adAccount(org.id)];
    all = [];
    for (const account of accounts) {
      all.push(...(await world.campaigns(account, 4)));
      all.push(...(await world.campaigns(account, 3, { status: 'PAUSED' })));
      all.push(...(await world.campaigns(account, 2, { status: 'ARCHIVED', spendCap: '100' })));
    }
  });
  afterAll(() => server?.close());

  /** The ids Knex's own statement answers for the same page (cursor and limit applied here). */
  async function knexIds(filters: Filters, request: PageRequest): Promise<string[]> {
    const query = db('campaigns').select('id');
    for (const [column, value] of Object.entries(filters)) {
      if (value === null) query.whereNull(column);
      else if (Array.isArray(value)) query.whereIn(column, value);
      else query.where(column, value as string);
    }
    const rows = (await query.orderBy('id', request.descending ? 'desc' : 'asc')) as Array<{ id: unknown }>;
    const ids = rows.map((row) => String(row.id));
    const after =
      request.cursorId === undefined
        ? ids
        : ids.filter((id) => (request.descending ? BigInt(id) < BigInt(request.cursorId!) : BigInt(id) > BigInt(request.cursorId!)));
    return after.slice(0, request.limit);
  }

  const shapesNamed = (text: string) => [...keptShapesView().keys()].filter((key) => key.includes(text));

  it("sends a shape's later runs with Knex's SQL and their own values, and answers what Knex's statement answers", async () => {
    const runs: Array<{ filters: Filters; request: PageRequest }> = [];
    for (const account of accounts) {
      for (const cursorId of [undefined, all.find((c) => c.accountId === account.id)!.id]) {
        runs.push({ filters: { account_id: account.id, status: 'PAUSED' }, request: { limit: 2, direction: 'forward', cursorId } });
        runs.push({ filters: { account_id: account.id, status: 'PAUSED' }, request: { limit: 2, direction: 'forward', descending: true, cursorId } });
      }
    }
    const texts = new Map<string, Set<string>>();
    for (const { filters, request } of runs) {
      const { result, statements } = await countStatements(db, () => fetchSlice(db, campaigns, request, filters));
      expect(statements).toHaveLength(1);
      const shape = `${request.descending ? 'desc' : 'asc'} ${request.cursorId !== undefined}`;
      texts.set(shape, (texts.get(shape) ?? new Set()).add(statements[0]!));
      expect(
        result.items.map((c) => c.id),
        JSON.stringify({ filters, request }),
      ).toEqual(await knexIds(filters, request));
    }
    // Four shapes (order, cursor or not), each run with other accounts and cursors, one SQL text each.
    expect([...texts.values()].map((set) => set.size)).toEqual([1, 1, 1, 1]);
    expect(shapesNamed('slice campaigns (*)').length).toBeGreaterThanOrEqual(4);
  });

  it('keeps each kind of filter as a shape of its own: equal, null, a list of each length', async () => {
    const [a] = accounts as [AdAccountRecord];
    const request: PageRequest = { limit: 100, direction: 'forward' };
    const cases: Filters[] = [
      { account_id: a.id, status: 'ACTIVE' },
      { account_id: a.id, status: ['ACTIVE'] },
      { account_id: a.id, status: ['ACTIVE', 'ARCHIVED'] },
      { account_id: a.id, status: [] },
      { account_id: a.id, spend_cap: null },
      { status: 'ARCHIVED', account_id: a.id },
    ];
    // Twice: the first run of each shape is Knex's, the second the kept one.
    for (const round of [1, 2]) {
      for (const filters of cases) {
        const slice = await fetchSlice(db, campaigns, request, filters);
        expect(
          slice.items.map((c) => c.id),
          `round ${round}: ${JSON.stringify(filters)}`,
        ).toEqual(await knexIds(filters, request));
      }
    }
    expect((await fetchSlice(db, campaigns, request, { account_id: a.id, status: [] })).items).toEqual([]);
  });

  it("refuses a shape whose values are not the ones Knex binds in Knex's order, at its first run, and keeps nothing", async () => {
    const [a] = accounts as [AdAccountRecord];
    const build = () => db('campaigns').select('id').where('account_id', a.id).where('status', 'PAUSED');
    expect(() => shapedQuery(db, 'test: values swapped', ['PAUSED', a.id], build)).toThrow(/its values are not the ones Knex binds/);
    expect(() => shapedQuery(db, 'test: a value missing', [a.id], build)).toThrow(/its values are not the ones Knex binds/);
    expect(shapesNamed('test:')).toEqual([]);
    // Right values: kept, and a later run with another account's values answers that account's rows.
    const first = await shapedQuery(db, 'test: right', [a.id, 'PAUSED'], build);
    const [, b] = accounts as [AdAccountRecord, AdAccountRecord];
    const later = await shapedQuery(db, 'test: right', [b.id, 'PAUSED'], build);
    expect(shapesNamed('test: right')).toHaveLength(1);
    const paused = (account: AdAccountRecord) =>
      all
        .filter((c) => c.accountId === account.id && c.status === 'PAUSED')
        .map((c) => c.id)
        .sort();
    expect(first.map((row) => String(row.id)).sort()).toEqual(paused(a));
    expect(later.map((row) => String(row.id)).sort()).toEqual(paused(b));
  });

  it("runs a kept statement in the caller's transaction", async () => {
    const [a] = accounts as [AdAccountRecord];
    const request: PageRequest = { limit: 100, direction: 'forward' };
    const filters = { account_id: a.id, status: 'PAUSED' };
    const before = (await fetchSlice(db, campaigns, request, filters)).items.map((c) => c.id);
    const rolledBack = new Error('rolled back on purpose');
    let inside: string[] = [];
    await expect(
      db.transaction(async (trx) => {
        await trx('campaigns').where('account_id', a.id).where('status', 'ACTIVE').update({ status: 'PAUSED' });
        inside = (await fetchSlice(trx, campaigns, request, filters)).items.map((c) => c.id);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(inside.length).toBe(before.length + all.filter((c) => c.accountId === a.id && c.status === 'ACTIVE').length);
    expect((await fetchSlice(db, campaigns, request, filters)).items.map((c) => c.id)).toEqual(before);
  });

  it("keeps PostgreSQL's placeholders written, and a question mark meant literally for Knex to write", async () => {
    const request: PageRequest = { limit: 10, direction: 'forward' };
    const literal = "campaigns.name not like '%\\?%'";
    const filters: Filters = { account_id: accounts[0]!.id, name: { sql: literal, bindings: [] } };
    const rows = (await db('campaigns').select('id').where('account_id', accounts[0]!.id).whereRaw(literal).orderBy('id').limit(10)) as Array<{ id: unknown }>;
    const expected = rows.map((row) => String(row.id));
    expect(expected.length).toBeGreaterThan(0);
    for (let run = 0; run < 2; run++) expect((await fetchSlice(db, campaigns, request, filters)).items.map((c) => c.id)).toEqual(expected);
    await fetchSlice(db, campaigns, request, { account_id: accounts[0]!.id });
    const kept = [...keptShapesView().values()].map((statement) => statement.sql);
    const questioning = kept.filter((sql) => sql.includes("'%\\?%'"));
    expect(questioning).toHaveLength(1);
    // On PostgreSQL that text is kept as Knex wrote it (its placeholders still `?`), every other with `$n` written.
    if (TEST_DB === 'postgres') {
      expect(questioning[0]).toContain('= ?');
      const others = kept.filter((sql) => !questioning.includes(sql));
      expect(others.filter((sql) => sql.includes('?') || !sql.includes('$1'))).toEqual([]);
    }
  });

  it('leaves a value that is undefined to Knex, which names the column', async () => {
    const request: PageRequest = { limit: 5, direction: 'forward' };
    await expect(fetchSlice(db, campaigns, request, { account_id: undefined as never })).rejects.toThrow(/Undefined binding.*account_id/s);
  });
});
