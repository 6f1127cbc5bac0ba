import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/index.ts';
import { withPlanIndependentEqualities } from '../../src/db/sqlite-equalities.ts';
import { keptStatements, type PreparingConnection } from '../../src/db/statement-cache.ts';

// better-sqlite3's SQL, so this file uses SQLite whatever TEST_DB says.
describe('SQLite equalities compared with +? (src/db/sqlite-equalities.ts)', () => {
  it('rewrites `= ?` outside quotes, and nothing else', () => {
    expect(withPlanIndependentEqualities('select * from `t` where `a` = ? and `b` <= ? and `c` >= ? and `d` != ? and `e` == ? and `f` <> ?')).toBe(
      'select * from `t` where `a` = +? and `b` <= ? and `c` >= ? and `d` != ? and `e` == ? and `f` <> ?',
    );
    expect(withPlanIndependentEqualities('select 1 where name = \'= ?\' and `x = ?` = ? and "y = ?" = ? and [z = ?] = ?')).toBe(
      'select 1 where name = \'= ?\' and `x = ?` = +? and "y = ?" = +? and [z = ?] = +?',
    );
    expect(withPlanIndependentEqualities("select 1 where a = 'it''s = ?' and b =? and c =  ?")).toBe("select 1 where a = 'it''s = ?' and b =+? and c =  +?");
    expect(withPlanIndependentEqualities('update `t` set `a` = ?, `b` = ? where `id` = ?')).toBe('update `t` set `a` = +?, `b` = +? where `id` = +?');
    expect(withPlanIndependentEqualities('select * from t where a in (?, ?) and b > ? limit 26')).toBe('select * from t where a in (?, ?) and b > ? limit 26');
    expect(withPlanIndependentEqualities("select 'unterminated = ?")).toBe("select 'unterminated = ?");
    expect(withPlanIndependentEqualities('select 1 where a = ? collate nocase and b = ? COLLATE binary and c = ? or d = ?')).toBe(
      'select 1 where a = ? collate nocase and b = ? COLLATE binary and c = +? or d = +?',
    );
    const unchanged = 'select * from t where a = 1';
    expect(withPlanIndependentEqualities(unchanged)).toBe(unchanged);
  });

  it('finds the same rows as `= ?` for every kind of column and value', () => {
    const raw = new Database(':memory:');
    try {
      raw.exec(`create table t (id integer primary key, label text, amount integer, ratio real, data blob, flag boolean, spec json, loose);
        create index t_label on t (label, id); create index t_amount on t (amount, id); create index t_ratio on t (ratio, id);
        create index t_data on t (data, id); create index t_flag on t (flag, id); create index t_loose on t (loose, id);`);
      const insert = raw.prepare('insert into t (label, amount, ratio, data, flag, spec, loose) values (?, ?, ?, ?, ?, ?, ?)');
      const rows: unknown[][] = [
        ['7', 7, 7.0, Buffer.from('7'), 1, '{"a":7}', 7],
        ['7', 8, 0.5, Buffer.from([0, 1]), 0, '{"a":8}', '7'],
        ['seven', 7, 7.5, null, 1, null, 7.0],
        [null, null, null, Buffer.from('seven'), null, '[]', null],
        ['', 0, 0, Buffer.alloc(0), 0, '""', ''],
        ['9007199254740993', 9007199254740993n, 1e300, Buffer.from('x'), 1, '{}', 9007199254740993n],
      ];
      raw.defaultSafeIntegers(true);
      for (const row of rows) insert.run(...row);
      const values: unknown[] = [
        7,
        7n,
        '7',
        7.0,
        7.5,
        '7.0',
        'seven',
        '',
        0,
        null,
        Buffer.from('7'),
        Buffer.alloc(0),
        1,
        9007199254740993n,
        '9007199254740993',
        1e300,
      ];
      let compared = 0;
      for (const column of ['id', 'label', 'amount', 'ratio', 'data', 'flag', 'spec', 'loose']) {
        const sql = `select id from t where ${column} = ? order by id limit 5`;
        const plain = raw.prepare(sql).pluck();
        const rewritten = raw.prepare(withPlanIndependentEqualities(sql)).pluck();
        expect(rewritten.source).toContain('= +?');
        for (const value of values) {
          expect({ column, value, ids: rewritten.all(value) }).toEqual({ column, value, ids: plain.all(value) });
          compared++;
        }
      }
      // Some of the comparisons find rows: the check is not between two empty answers.
      expect(raw.prepare(withPlanIndependentEqualities('select count(*) from t where label = ?')).pluck().get('7')).toBe(2n);
      expect(compared).toBe(8 * values.length);
    } finally {
      raw.close();
    }
  });

  describe('through Knex', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adgraph-equalities-'));
    const db = createDatabase(`sqlite:${join(dir, 'eq.sqlite')}`);
    afterAll(async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    it('prepares the rewritten text, kept under the text Knex wrote, and answers as before', async () => {
      await db.schema.createTable('things', (t) => {
        t.increments('id');
        t.string('owner').notNullable().index();
      });
      await db('things').insert([{ owner: 'a' }, { owner: 'b' }, { owner: 'a' }]);
      const query = db('things').select('id').where('owner', 'a').orderBy('id');
      expect(await query.clone()).toEqual([{ id: 1 }, { id: 3 }]);
      const connection = (await db.client.acquireConnection()) as PreparingConnection;
      db.client.releaseConnection(connection);
      const kept = keptStatements(connection)!.get(query.toSQL().sql) as { source: string } | undefined;
      expect(query.toSQL().sql).toContain('= ?');
      expect(kept?.source).toBe(query.toSQL().sql.replace('= ?', '= +?'));
      expect(await db('things').select('id').where('owner', 'b').orderBy('id')).toEqual([{ id: 2 }]);
    });
  });
});
