import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../../src/db/index.ts';

const require = createRequire(import.meta.url);

/**
 * The SQLite client builds rows from better-sqlite3's raw mode (src/db/sqlite-client.ts): they must be exactly
 * the rows better-sqlite3 builds itself, key order included, and follow the schema when it changes, even when
 * another connection changes it. SQLite whatever TEST_DB says: the client is SQLite's.
 */
describe('rows read through the SQLite client', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let other: Database.Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adgraph-rows-'));
    file = join(dir, 'rows.sqlite');
    db = createDatabase(`sqlite:${file}`);
    await db.raw('create table things (id integer primary key, name text not null, size integer, data text)');
    await db('things').insert([
      { id: 1, name: 'one', size: 10, data: '{"a":1}' },
      { id: 2, name: 'two', size: null, data: null },
    ]);
    other = new Database(file);
  });

  afterAll(async () => {
    other?.close();
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const direct = (sql: string, ...bindings: unknown[]) => other.prepare(sql).all(...bindings) as Array<Record<string, unknown>>;
  const throughKnex = async (sql: string, ...bindings: unknown[]) => (await db.raw(sql, bindings as never)) as Array<Record<string, unknown>>;

  it('are the rows better-sqlite3 builds, with their keys in the same order', async () => {
    const queries: Array<[string, ...unknown[]]> = [
      ['select * from things order by id'],
      ['select * from things where id = ?', 2],
      ['select name, count(*), sum(size) as total from things group by name order by name'],
      // A repeated name keeps the last value; "__proto__" is no key; odd names are keys like any other.
      ['select 1 as a, 2 as a, 3 as "__proto__", 4 as "it\'s ""quoted"""'],
      ['select t.id, u.id, t.name from things t join things u on u.id = t.id order by t.id'],
      ['select * from things where id > 100'],
    ];
    for (const [sql, ...bindings] of queries) {
      const expected = direct(sql, ...bindings);
      const rows = await throughKnex(sql, ...bindings);
      expect(rows, sql).toEqual(expected);
      expect(
        rows.map((row) => Object.keys(row)),
        sql,
      ).toEqual(expected.map((row) => Object.keys(row)));
      expect(
        rows.every((row) => Object.getPrototypeOf(row) === Object.prototype),
        sql,
      ).toBe(true);
    }
  });

  it('follow a schema changed by another connection, columns renamed or reordered', async () => {
    const all = () => db('things').select('*').orderBy('id');
    expect(await all()).toEqual([
      { id: 1, name: 'one', size: 10, data: '{"a":1}' },
      { id: 2, name: 'two', size: null, data: null },
    ]);

    // As many columns as before, other names: only the names tell the shapes apart.
    other.exec('alter table things rename column name to title');
    expect(await all()).toEqual([
      { id: 1, title: 'one', size: 10, data: '{"a":1}' },
      { id: 2, title: 'two', size: null, data: null },
    ]);

    other.exec(`
      create table things_new (data text, size integer, title text not null, id integer primary key);
      insert into things_new select data, size, title, id from things;
      drop table things;
      alter table things_new rename to things;
    `);
    const reordered = await all();
    expect(reordered).toEqual([
      { data: '{"a":1}', size: 10, title: 'one', id: 1 },
      { data: null, size: null, title: 'two', id: 2 },
    ]);
    expect(Object.keys(reordered[0]!)).toEqual(['data', 'size', 'title', 'id']);
  });

  it('follow a schema changed in a transaction of its own connection', async () => {
    await db.transaction(async (trx) => {
      expect(await trx('things').select('*').where({ id: 1 })).toEqual([{ data: '{"a":1}', size: 10, title: 'one', id: 1 }]);
      await trx.raw("alter table things add column colour text default 'red'");
      expect(await trx('things').select('*').where({ id: 1 })).toEqual([{ data: '{"a":1}', size: 10, title: 'one', id: 1, colour: 'red' }]);
    });
    expect(await db('things').select('*').where({ id: 2 })).toEqual([{ data: null, size: null, title: 'two', id: 2, colour: 'red' }]);
  });

  it('report writes as knex does: changes, and the row id of an insert', async () => {
    expect(await db('things').insert({ id: 7, title: 'seven' })).toEqual([7]);
    expect(await db('things').where({ id: 7 }).update({ size: 70 })).toBe(1);
    expect(await db('things').where('id', '>', 1).delete()).toBe(2);
    expect(await db('things').pluck('id')).toEqual([1]);
    expect(await db('things').where({ id: 1 }).first('title')).toEqual({ title: 'one' });
  });

  it("wait for another process's write before an insert returning rows in a transaction, rather than fail", { timeout: 20_000 }, async () => {
    // Another thread (a connection of its own, as another process has) holds the write lock for 300 ms. The
    // insert must wait for it (busy timeout), not fail at once with "database is locked" as it did when a
    // schema-version read began the transaction as a reader (two instances storing async requests at once).
    const holder = new Worker(
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new Database(workerData);
       db.prepare('begin immediate').run();
       db.prepare("insert into things (id, title) values (100, 'held')").run();
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.prepare('commit').run();
       db.close();
       parentPort.postMessage('committed');`,
      { eval: true, workerData: file },
    );
    const messages: string[] = [];
    const committed = new Promise<void>((resolve, reject) => {
      holder.on('message', (message: string) => (messages.push(message), message === 'committed' && resolve()));
      holder.on('error', reject);
    });
    await new Promise<void>((resolve) => holder.once('message', () => resolve()));
    const inserted = await db.transaction((trx) => trx('things').insert({ id: 101, title: 'waited' }).returning(['id', 'title']));
    expect(inserted).toEqual([{ id: 101, title: 'waited' }]);
    await committed;
    expect(messages).toEqual(['locked', 'committed']);
    expect(await db('things').whereIn('id', [100, 101]).orderBy('id').pluck('title')).toEqual(['held', 'waited']);
  });

  it('hold the write lock from the start of a transaction, so a read in it cannot go stale before it writes', async () => {
    // Another process (a connection of its own, no busy timeout so it answers at once) writes while the
    // transaction is between its read and its write. Begun as a reader (SQLite's default), the transaction let
    // that write in and then failed at once with "database is locked" when it wrote itself, whatever its busy
    // timeout (`adgraph stats generate` beside a running server, in CI). Begun IMMEDIATE, it holds the lock.
    const impatient = new Database(file, { timeout: 0 });
    try {
      const refused: string[] = [];
      await db.transaction(async (trx) => {
        expect(await trx('things').where({ id: 1 }).first('title')).toEqual({ title: 'one' });
        try {
          impatient.prepare("insert into things (id, title) values (200, 'between')").run();
        } catch (error) {
          refused.push((error as { code?: string }).code ?? String(error));
        }
        await trx('things').insert({ id: 201, title: 'after the read' });
      });
      expect(refused).toEqual(['SQLITE_BUSY']);
      impatient.prepare("insert into things (id, title) values (200, 'after the commit')").run();
      expect(await db('things').whereIn('id', [200, 201]).orderBy('id').pluck('title')).toEqual(['after the commit', 'after the read']);
    } finally {
      impatient.close();
    }
  });
});

/**
 * LIMIT and OFFSET go into the SQL as numbers (src/db/sqlite-client.ts LiteralLimitQueryCompiler): a bound LIMIT
 * makes this SQLite (built with STAT4) prepare the statement again on every run. Why it matters is a matter of
 * time, measured in the README; here, that the SQL says the numbers and the answers stay right.
 */
describe('limits in the SQLite client', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adgraph-limits-'));
    db = createDatabase(`sqlite:${join(dir, 'limits.sqlite')}`);
    await db.raw('create table things (id integer primary key, name text not null)');
    await db('things').insert(Array.from({ length: 9 }, (_, i) => ({ id: i + 1, name: `thing ${i + 1}` })));
  });

  afterAll(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes limit, offset and first() as integers in the SQL, not as parameters', () => {
    expect(db('things').where({ name: 'x' }).limit(5).offset(2).toSQL().toNative()).toEqual({
      sql: 'select * from `things` where `name` = ? limit 5 offset 2',
      bindings: ['x'],
    });
    expect(db('things').where({ id: 3 }).first().toSQL().toNative()).toEqual({ sql: 'select * from `things` where `id` = ? limit 1', bindings: [3] });
    expect(db('things').offset(7).toSQL().toNative()).toEqual({ sql: 'select * from `things` limit -1 offset 7', bindings: [] });
    // knex makes the value an integer first; a limit given as text is still a number in the SQL.
    expect(
      db('things')
        .limit('4' as never)
        .toSQL()
        .toNative().sql,
    ).toBe('select * from `things` limit 4');
  });

  it('leaves a query builder as it was, so it compiles the same again', () => {
    const query = db('things').orderBy('id').limit(3);
    expect(query.toSQL().toNative()).toEqual(query.toSQL().toNative());
  });

  it('answers the same rows as with bound limits', async () => {
    const ids = async (rows: Promise<Array<{ id: number }>>) => (await rows).map((row) => row.id);
    expect(await ids(db('things').orderBy('id').limit(3).offset(4))).toEqual([5, 6, 7]);
    expect(await ids(db.raw('select * from things order by id limit ? offset ?', [3, 4]) as never)).toEqual([5, 6, 7]);
    expect(await db('things').orderBy('id', 'desc').first()).toEqual({ id: 9, name: 'thing 9' });
    expect(await ids(db('things').orderBy('id').offset(7))).toEqual([8, 9]);
  });
});
