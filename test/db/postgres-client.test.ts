// PostgreSQL only: the named statements of its client (SQLite keeps its statements by text: test/db/statement-cache.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createDatabase, type Db } from '../../src/db/index.ts';
import { keptStatements } from '../../src/db/postgres-client.ts';
import { loaderById } from '../../src/db/batch.ts';
import { defineTable } from '../../src/db/rows.ts';
import { POSTGRES_URL } from '../helpers/database.ts';

describe('statements prepared once per connection (PostgreSQL)', () => {
  const schema = `test_prepared_${process.pid}_${Date.now()}`;
  let admin: Db;
  const opened: Db[] = [];
  /** A database of one connection, so every statement below runs on the same one. */
  const open = (preparedStatements?: number) => {
    const db = createDatabase(POSTGRES_URL, { schema, preparedStatements });
    (db.client.pool as { max: number }).max = 1;
    opened.push(db);
    return db;
  };
  /** The statements the server holds for the pool's one connection: name and SQL text. */
  const preparedOnServer = async (db: Db) =>
    ((await db.raw('select name, statement from pg_prepared_statements order by name')) as { rows: Array<{ name: string; statement: string }> }).rows;
  const connectionOf = async (db: Db) => {
    const connection = await db.client.acquireConnection();
    db.client.releaseConnection(connection);
    return connection as object;
  };

  beforeAll(async () => {
    admin = createDatabase(POSTGRES_URL);
    await admin.raw('create schema ??', [schema]);
    const db = open();
    await db.schema.createTable('things', (t) => {
      t.integer('id').primary();
      t.string('name').notNullable();
    });
    await db('things').insert([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
      { id: 3, name: 'three' },
    ]);
  });

  afterAll(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
    await admin?.raw('drop schema if exists ?? cascade', [schema]);
    await admin?.destroy();
  });

  it('prepares a builder statement once and runs it again with other bindings', async () => {
    const db = open();
    const byId = (id: number) => db('things').select('name').where({ id });
    expect(await byId(1)).toEqual([{ name: 'one' }]);
    expect(await byId(2)).toEqual([{ name: 'two' }]);
    expect(await byId(4)).toEqual([]);
    const sql = byId(1).toSQL().toNative().sql;
    const kept = keptStatements(await connectionOf(db))!;
    const name = kept.get(sql);
    expect(name).toMatch(/^adgraph_q\d+$/);
    // The server holds it under that name (raw statements, like this look-up, are sent unnamed).
    expect(await preparedOnServer(db)).toContainEqual({ name, statement: sql });
    expect((await preparedOnServer(db)).map((row) => row.statement)).not.toContain('select name, statement from pg_prepared_statements order by name');
  });

  it("prepares the builder's reads and writes, not its DDL nor raw SQL", async () => {
    const db = open();
    await db.schema.createTable('others', (t) => t.integer('id').primary());
    await db('others').insert({ id: 1 });
    await db('others').where({ id: 1 }).update({ id: 2 });
    await db.raw('select 1 as one');
    const statements = (await preparedOnServer(db)).map((row) => row.statement);
    expect(statements).toEqual(
      expect.arrayContaining([db('others').insert({ id: 1 }).toSQL().toNative().sql, db('others').where({ id: 1 }).update({ id: 2 }).toSQL().toNative().sql]),
    );
    expect(statements).toHaveLength(2);
    await db.schema.dropTable('others');
  });

  it('reads a batch of ids of any size with one statement (= any of an array parameter)', async () => {
    const db = open();
    const mapping = defineTable<{ id: string; name: string }>('things', { id: 'id', name: 'string' });
    for (const ids of [['1'], ['2', '3'], ['1', '2', '3', '4']]) {
      const byId = loaderById(db, mapping);
      expect((await byId.loadMany(ids)).map((thing) => (thing as { name: string } | null)?.name ?? null)).toEqual(
        ids.map((id) => ({ 1: 'one', 2: 'two', 3: 'three' })[id] ?? null),
      );
    }
    const statements = [...keptStatements(await connectionOf(db))!.keys()];
    expect(statements).toEqual(['select * from "things" where "id" = any($1)']);
  });

  it('stays right inside transactions, committed or rolled back', async () => {
    const db = open();
    const count = async (q: Db | Knex.Transaction = db) => Number(((await q('things').count({ n: '*' })) as [{ n: string }])[0].n);
    await expect(
      db.transaction(async (trx) => {
        await trx('things').insert({ id: 10, name: 'ten' });
        expect(await count(trx)).toBe(4);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count()).toBe(3);
    await db.transaction(async (trx) => {
      await trx('things').insert({ id: 10, name: 'ten' });
    });
    expect(await count()).toBe(4);
    await db('things').where({ id: 10 }).delete();
  });

  it('keeps at most its capacity, deallocating the least recently used on the server', async () => {
    const db = open(2);
    const byName = (name: string) => db('things').select('id').where({ name });
    const byId = (id: number) => db('things').select('name').where({ id });
    const all = () => db('things').select('id').orderBy('id');
    expect(await byName('two')).toEqual([{ id: 2 }]);
    expect(await byId(3)).toEqual([{ name: 'three' }]);
    expect(await byName('one')).toEqual([{ id: 1 }]); // now the most recently used
    expect(await all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]); // pushes out byId's statement
    const kept = keptStatements(await connectionOf(db))!;
    const sqlOf = (query: { toSQL(): { toNative(): { sql: string } } }) => query.toSQL().toNative().sql;
    expect([...kept.keys()]).toEqual([sqlOf(byName('x')), sqlOf(all())]);
    expect((await preparedOnServer(db)).map((row) => row.statement).sort()).toEqual([sqlOf(byName('x')), sqlOf(all())].sort());
    // The pushed-out statement is prepared again when it comes back.
    expect(await byId(2)).toEqual([{ name: 'two' }]);
    expect(kept.has(sqlOf(byId(2)))).toBe(true);
  });

  it("asks for a kept statement's row description once, and again once it was pushed out (patches/pg+8.23.1.patch)", async () => {
    const db = open(1);
    const client = (await connectionOf(db)) as { connection: { describe(message: unknown): void } };
    let describes = 0;
    const describe = client.connection.describe.bind(client.connection);
    client.connection.describe = (message) => {
      describes += 1;
      describe(message);
    };
    const byId = (id: number) => db('things').select('name').where({ id });
    expect(await byId(1)).toEqual([{ name: 'one' }]);
    expect(await byId(2)).toEqual([{ name: 'two' }]);
    expect(await byId(4)).toEqual([]);
    expect(describes).toBe(1);
    // Capacity 1: this statement pushes byId's out, which is then prepared and described anew.
    expect(await db('things').select('id').orderBy('id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(await byId(3)).toEqual([{ name: 'three' }]);
    expect(await byId(1)).toEqual([{ name: 'one' }]);
    expect(describes).toBe(3);
    // The kept descriptions are those of the statements the connection keeps.
    expect(Object.keys((client.connection as unknown as { describedStatements: object }).describedStatements)).toEqual([...keptStatements(client)!.values()]);
  });

  it('prepares nothing when told to keep none (PgBouncer in transaction mode)', async () => {
    const db = open(0);
    expect(await db('things').select('name').where({ id: 1 })).toEqual([{ name: 'one' }]);
    expect(await preparedOnServer(db)).toEqual([]);
  });

  it('reads the new shape of a table after another connection changed it (a migration)', async () => {
    const db = open();
    const all = () => db('things').select('*').where({ id: 1 });
    expect(await all()).toEqual([{ id: 1, name: 'one' }]);
    expect(await all()).toEqual([{ id: 1, name: 'one' }]);

    await admin.raw(`alter table ??.things add column colour text not null default 'red'`, [schema]);
    expect(await all()).toEqual([{ id: 1, name: 'one', colour: 'red' }]);
    expect(await all()).toEqual([{ id: 1, name: 'one', colour: 'red' }]);

    // In a transaction the refusal has aborted it: the caller gets PostgreSQL's error, and the next statement
    // outside it reads the new shape.
    await admin.raw('alter table ??.things add column size integer', [schema]);
    await expect(db.transaction(async (trx) => trx('things').select('*').where({ id: 1 }))).rejects.toThrow(/cached plan must not change result type/);
    expect(await all()).toEqual([{ id: 1, name: 'one', colour: 'red', size: null }]);
  });
});
