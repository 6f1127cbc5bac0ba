import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateIds } from '../../src/db/ids.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// Ids come from one sequence for every type; a bulk write (the demo seed, `adsets fill`, a deep copy) allocates
// many at once, past SQLite's 500-term limit on one multi-row insert.
describe('allocateIds', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.dispose());

  it.each([0, 1, 500, 1201])('allocates %i ids of one type, distinct and in increasing order, in the caller transaction', async (count) => {
    const ids = await database.db.transaction((trx) => allocateIds(trx, 'ad_set', count));
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    expect([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(ids);
    if (count > 0) {
      const rows = await database.db('graph_objects').whereIn('id', ids.slice(0, 100)).select('type');
      expect(rows.every((row: { type: string }) => row.type === 'ad_set')).toBe(true);
    }
  });

  it('leaves no ids behind when the transaction fails', async () => {
    const before = await database.db('graph_objects').count({ n: '*' });
    await expect(
      database.db.transaction(async (trx) => {
        await allocateIds(trx, 'ad', 700);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await database.db('graph_objects').count({ n: '*' })).toEqual(before);
  });
});
