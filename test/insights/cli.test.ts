import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ARGS, cliEnv, cliJson, expectOneLineFailure, runCli } from '../helpers/cli.ts';
import { adTree, daysAgo, DEFAULT_PLACEMENT, ndjson, randomEvents, statsTestBed, type AdTree } from '../helpers/insights.ts';

/**
 * `adgraph stats import` as an operator runs it, in a child process over the test database: totals as JSON or
 * text, every bad line listed and nothing imported, the same file twice (or the same bytes from standard input)
 * changing nothing, and a large import killed with SIGKILL half-way leaving nothing, then landing exactly once.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let bed: Awaited<ReturnType<typeof statsTestBed>>;
let env: NodeJS.ProcessEnv;
let dir: string;
let tree: AdTree;

beforeAll(async () => {
  bed = await statsTestBed();
  env = cliEnv(bed.database);
  dir = mkdtempSync(join(tmpdir(), 'adgraph-stats-'));
  tree = await adTree(bed.world, (await bed.world.organization()).id, { adsPerAdSet: 2, account: { timezoneName: 'Europe/Berlin' } });
});
afterAll(async () => {
  await bed?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const count = async (table: string, where: Record<string, string> = {}) =>
  Number(((await bed.deps.db(table).where(where).count({ n: '*' })) as Array<{ n: unknown }>)[0]!.n);

/** The account's total impressions and spend over its account-level rows. */
async function accountTotals(account: AdTree['account']): Promise<{ impressions: number; spend: number }> {
  const rows: Array<Record<string, unknown>> = await bed.deps.db('insight_facts').where({ account_id: account.id, level: 'account', family: '' });
  return rows.reduce<{ impressions: number; spend: number }>(
    (sum, row) => ({ impressions: sum.impressions + Number(row.impressions), spend: sum.spend + Number(row.spend) }),
    { impressions: 0, spend: 0 },
  );
}

describe('adgraph stats import', () => {
  it('imports a file, prints its totals (--json, or text), and the same file again changes nothing', async () => {
    const events = randomEvents(tree, 2_000, { seed: 7, people: 500, days: 3 });
    const file = join(dir, 'small.ndjson');
    writeFileSync(file, ndjson(events));
    const { value } = await cliJson(['stats', 'import', file], env);
    const impressions = events.filter((e) => e.type === 'impression').length;
    const spend = events.reduce((sum, e) => sum + (e.spend ?? 0), 0);
    expect(value).toMatchObject({
      status: 'imported',
      source: file,
      format: 'events',
      lines: 2_000,
      records: 2_000,
      ads: 2,
      accounts: 1,
      impressions,
      spend: { USD: spend },
    });
    expect(value.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await accountTotals(tree.account)).toEqual({ impressions, spend });

    const again = await runCli(['stats', 'import', file], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${file}: already imported (the same bytes, sha256 ${value.sha256}); nothing changed\n`);
    // The same bytes from standard input are read, and recognized at the end: still nothing changes.
    const piped = spawn(process.execPath, [...CLI_ARGS, 'stats', 'import', '-', '--json'], { cwd: ROOT, env });
    piped.stdin.end(ndjson(events));
    let out = '';
    piped.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code] = await once(piped, 'exit');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ status: 'already_imported', source: '-', sha256: value.sha256, facts_written: 0 });
    expect(await accountTotals(tree.account)).toEqual({ impressions, spend });
    expect(await count('insight_imports', { sha256: value.sha256 })).toBe(1);
  });

  it('prints text totals, and imports daily rows with --format daily', async () => {
    const file = join(dir, 'daily.ndjson');
    const day = new Date(daysAgo(2)).toISOString().slice(0, 10);
    writeFileSync(file, ndjson([{ ad_id: tree.ads[1]!.id, date: day, ...DEFAULT_PLACEMENT, impressions: 1_000, clicks: 20, spend: 123_456 }]));
    const run = await runCli(['stats', 'import', file, '--format', 'daily'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`imported ${file}: 1 daily rows (1 lines,`);
    expect(run.stdout).toContain(`days ${day} to ${day}`);
    expect(run.stdout).toContain('1 ads in 1 account; impressions 1,000, clicks 20, spend USD 1234.56');
  });

  it('lists every bad line with its number and reason, exits 1 and imports nothing', async () => {
    const file = join(dir, 'bad.ndjson');
    const good = { type: 'impression', ad_id: tree.ads[0]!.id, time: new Date(daysAgo(1)).toISOString(), person: 'someone', ...DEFAULT_PLACEMENT };
    writeFileSync(file, ndjson([good, { ...good, ad_id: '424242424242' }, '{oops', { ...good, spend: 0.5 }, good]));
    const before = await accountTotals(tree.account);
    const run = await runCli(['stats', 'import', file], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      expect.stringMatching(/^adgraph: database (sqlite|postgres) /),
      '  line 2: ad 424242424242 does not exist',
      '  line 3: not valid JSON',
      '  line 4: spend 0.5 has decimals: amounts are whole minor units (minor units of USD, 1/100 of its major unit)',
      `adgraph: ${file}: 3 bad lines; nothing was imported`,
      '',
    ]);
    expect(await accountTotals(tree.account)).toEqual(before);

    const json = await runCli(['stats', 'import', file, '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'rejected', problem_count: 3, problems: [{ line: 2 }, { line: 3 }, { line: 4 }] });
  });

  it('a missing file or an unknown format is one line naming the problem', async () => {
    expectOneLineFailure(await runCli(['stats', 'import', join(dir, 'nope.ndjson')], env), /nope\.ndjson: no such file/);
    const wrongFormat = await runCli(['stats', 'import', join(dir, 'bad.ndjson'), '--format', 'csv'], env);
    expect(wrongFormat.code).not.toBe(0);
    expect(wrongFormat.stderr).toMatch(/--format <format>' argument 'csv' is invalid/);
  });

  it('killed with SIGKILL half-way through a large file it leaves nothing; run again, the file lands exactly once', async () => {
    const big = await adTree(bed.world, (await bed.world.organization()).id, { adSetsPerCampaign: 2, adsPerAdSet: 2 });
    const file = join(dir, 'large.ndjson');
    // 400,000 events (about 90 MB): the first batch of facts is added inside the transaction at about 80% of the
    // file (import.ts FLUSH_PEOPLE: a million people added to sketches), so the kill at 90% lands with facts
    // half-written.
    const out = createWriteStream(file);
    let impressions = 0;
    let spend = 0;
    for (let part = 0; part < 20; part++) {
      const events = randomEvents(big, 20_000, { seed: 100 + part, people: 50_000, days: 3 });
      for (const event of events) {
        if (event.type === 'impression') impressions++;
        spend += event.spend ?? 0;
      }
      if (!out.write(ndjson(events))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');

    const child = spawn(process.execPath, [...CLI_ARGS, 'stats', 'import', file, '--progress'], { cwd: ROOT, env });
    let progress = '';
    let killedAt = '';
    child.stderr.on('data', (chunk: Buffer) => {
      progress += chunk.toString();
      const percents = [...progress.matchAll(/\((\d+)%\)/g)].map((m) => Number(m[1]));
      if (!killedAt && percents.some((p) => p >= 90)) {
        killedAt = progress.trim().split('\n').at(-1)!;
        child.kill('SIGKILL');
      }
    });
    const [code, signal] = await once(child, 'exit');
    expect({ code, signal, killedAt: killedAt !== '' }, progress).toEqual({ code: null, signal: 'SIGKILL', killedAt: true });
    // After the line naming the database (src/cli/runtime.ts), the progress lines.
    expect(progress).toMatch(/^adgraph: database (sqlite|postgres) .*\nimport: read /);
    expect(await count('insight_facts', { account_id: big.account.id })).toBe(0);
    expect(await count('insight_imports', { source: file })).toBe(0);

    const { value } = await cliJson(['stats', 'import', file], env);
    expect(value).toMatchObject({ status: 'imported', records: 400_000, impressions });
    expect(await accountTotals(big.account)).toEqual({ impressions, spend });
    const { value: again } = await cliJson(['stats', 'import', file], env);
    expect(again).toMatchObject({ status: 'already_imported', sha256: value.sha256 });
    expect(await accountTotals(big.account)).toEqual({ impressions, spend });
    expect(await count('insight_imports', { source: file })).toBe(1);
  }, 180_000);
});
