import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../../src/db/index.ts';
import { keepPreparedStatements, keptStatements, KEPT_STATEMENTS, type PreparingConnection } from '../../src/db/statement-cache.ts';

// The cache belongs to the better-sqlite3 client, so this file uses SQLite whatever TEST_DB says.
describe('prepared statements kept by SQL text (better-sqlite3)', () => {
  let dir: string;
  let db: Db;
  let kept: ReadonlyMap<string, unknown>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adgraph-statements-'));
    db = createDatabase(`sqlite:${join(dir, 'cache.sqlite')}`);
    await db.schema.createTable('things', (t) => {
      t.integer('id').primary();
      t.string('name').notNullable();
    });
    await db('things').insert([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
      { id: 3, name: 'three' },
    ]);
    // The pool holds one connection: every query below runs on it.
    const connection = (await db.client.acquireConnection()) as PreparingConnection;
    db.client.releaseConnection(connection);
    kept = keptStatements(connection)!;
  });

  afterAll(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const byId = (id: number) => db('things').select('name').where({ id });
  const sqlOf = (query: { toSQL(): { sql: string } }) => query.toSQL().sql;

  it('prepares a statement once and runs it again with other bindings', async () => {
    expect(await byId(1)).toEqual([{ name: 'one' }]);
    const statement = kept.get(sqlOf(byId(1)));
    expect(statement).toBeDefined();
    expect(await byId(2)).toEqual([{ name: 'two' }]);
    expect(await byId(4)).toEqual([]);
    expect(kept.get(sqlOf(byId(1)))).toBe(statement);
  });

  it('stays right inside transactions, committed or rolled back', async () => {
    const count = async (q: Db = db) => Number(((await q('things').count({ n: '*' })) as [{ n: number }])[0].n);
    await expect(
      db.transaction(async (trx) => {
        await trx('things').insert({ id: 10, name: 'ten' });
        expect(await count(trx)).toBe(4);
        expect(await trx('things').select('name').where({ id: 10 })).toEqual([{ name: 'ten' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count()).toBe(3);
    expect(await byId(10)).toEqual([]);
    await db.transaction(async (trx) => {
      await trx('things').insert({ id: 10, name: 'ten' });
    });
    expect(await byId(10)).toEqual([{ name: 'ten' }]);
    expect(await count()).toBe(4);
  });

  it('reads the new shape of a table after a schema change (a migration)', async () => {
    const all = () => db('things').select('*').where({ id: 1 });
    expect(await all()).toEqual([{ id: 1, name: 'one' }]);
    const statement = kept.get(sqlOf(all()));

    await db.schema.alterTable('things', (t) => t.string('colour').notNullable().defaultTo('red'));
    expect(await all()).toEqual([{ id: 1, name: 'one', colour: 'red' }]);

    // Dropped: the kept statement fails as a fresh one would; recreated: it reads the new table.
    await db.schema.dropTable('things');
    await expect(all()).rejects.toThrow(/no such table: things/);
    await db.schema.createTable('things', (t) => {
      t.integer('id').primary();
      t.integer('size');
    });
    await db('things').insert({ id: 1, size: 7 });
    expect(await all()).toEqual([{ id: 1, size: 7 }]);
    expect(kept.get(sqlOf(all()))).toBe(statement);
  });

  it('keeps at most its capacity, dropping the least recently used', async () => {
    expect(kept.size).toBeLessThanOrEqual(KEPT_STATEMENTS);
    const raw = new Database(':memory:');
    try {
      keepPreparedStatements(raw, 3);
      const statements = keptStatements(raw)!;
      const a = raw.prepare('select 1');
      raw.prepare('select 2');
      raw.prepare('select 3');
      expect(raw.prepare('select 1')).toBe(a); // now the most recently used
      raw.prepare('select 4'); // pushes out "select 2"
      expect([...statements.keys()]).toEqual(['select 3', 'select 1', 'select 4']);
      expect(raw.prepare('select 1')).toBe(a);
      expect((raw.prepare('select 2') as Database.Statement).get()).toEqual({ 2: 2 });
      expect(statements.size).toBe(3);
      expect(statements.has('select 3')).toBe(false);
    } finally {
      raw.close();
    }
  });
});
