#!/usr/bin/env node
// `npm test`: the whole suite once per database (SQLite, then PostgreSQL when reachable), one summary.
//
//   npm test                           both databases
//   npm test -- test/foo.test.ts       extra arguments go to vitest
//   TEST_DATABASES=sqlite npm test     restrict the runs (comma list of sqlite,postgres)
//
// PostgreSQL: DATABASE_URL (postgres://...) if set, else postgres://postgres@127.0.0.1:5432/test when that
// port answers within 2 s. Unreachable under CI=true is an error (CI must not pass on SQLite alone);
// elsewhere it is skipped with a visible line.
//
// The last line printed is always `tests: N passed, M failed, K skipped`. The exit code is non-zero when any
// vitest run failed or no test ran at all.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runningNodeProblem } from '../bin/supported-node.js';

const ALL_DATABASES = ['sqlite', 'postgres'];
const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const extraArgs = process.argv.slice(2);

function wantedDatabases() {
  const raw = process.env.TEST_DATABASES;
  if (!raw || !raw.trim()) return ALL_DATABASES;
  const names = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !ALL_DATABASES.includes(n));
  if (unknown.length > 0) {
    console.error(`TEST_DATABASES: unknown database(s) ${unknown.join(', ')}; use a comma list of ${ALL_DATABASES.join(',')}`);
    console.log('tests: 0 passed, 0 failed, 0 skipped');
    process.exit(2);
  }
  return ALL_DATABASES.filter((n) => names.includes(n)); // fixed order: sqlite first
}

/** Resolves true when a TCP connection to host:port opens within timeoutMs. */
function canConnect(host, port, timeoutMs) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The PostgreSQL URL to test against, or undefined when none is reachable. */
async function findPostgres() {
  const url = process.env.DATABASE_URL ?? '';
  if (/^postgres(ql)?:\/\//.test(url)) return url;
  if (await canConnect('127.0.0.1', 5432, 2000)) return LOCAL_POSTGRES_URL;
  return undefined;
}

/** One vitest run; resolves with its exit code (signals and spawn errors count as failures). */
function runVitest(env, reportFile) {
  // --passWithNoTests: files named on the command line may all be ones the PostgreSQL run leaves out
  // (test/files-for-database.ts); a run of nothing at all is still a failure, below.
  const args = ['vitest', 'run', '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile=${reportFile}`, ...extraArgs];
  return new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('error', (err) => {
      console.error(`could not start vitest: ${err.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

/** Counts from vitest's JSON report; undefined when the run wrote none (it crashed before reporting). */
function readReport(file) {
  if (!existsSync(file)) return undefined;
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    return {
      passed: r.numPassedTests ?? 0,
      failed: r.numFailedTests ?? 0,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      failures: failuresOf(r),
    };
  } catch (err) {
    console.error(`unreadable vitest report ${file}: ${err.message}`);
    return undefined;
  }
}

/**
 * The failed tests (and files that failed outside any test) as `file > name: first line of the message`: the
 * summary repeats them, since what a CI log keeps of a long run may be its tail alone.
 */
function failuresOf(report) {
  const failures = [];
  for (const file of report.testResults ?? []) {
    const path = relative(process.cwd(), file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) failures.push(`${path} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === 'failed') failures.push(`${path}: ${firstLine(file.message)}`);
  }
  return failures;
}

const firstLine = (text) =>
  (text ?? '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '(no message)';

function banner(text) {
  const line = '='.repeat(Math.max(60, text.length + 8));
  console.log(`\n${line}\n=== ${text}\n${line}`);
}

const unsupportedNode = runningNodeProblem('npm test');
if (unsupportedNode) {
  console.error(unsupportedNode);
  console.log('tests: 0 passed, 0 failed, 0 skipped');
  process.exit(1);
}
const databases = wantedDatabases();
const runs = []; // { db, env } in order
if (databases.includes('sqlite')) runs.push({ db: 'sqlite', env: { TEST_DB: 'sqlite' } });
if (databases.includes('postgres')) {
  const url = await findPostgres();
  if (url) {
    // The tests' sessions commit asynchronously: a commit does not wait for its WAL to reach the disk (about a
    // millisecond each here, thousands of them), which would only matter were PostgreSQL itself to crash. A
    // session setting (node-postgres reads PGOPTIONS), so the cluster's own configuration is left alone.
    const PGOPTIONS = `${process.env.PGOPTIONS ?? ''} -c synchronous_commit=off`.trim();
    runs.push({ db: 'postgres', env: { TEST_DB: 'postgres', TEST_POSTGRES_URL: url, PGOPTIONS } });
  } else if (process.env.CI === 'true') {
    banner('ERROR: PostgreSQL is not reachable');
    console.error(
      `!!! CI=true requires the PostgreSQL run, but neither DATABASE_URL (postgres://...) is set nor does 127.0.0.1:5432 answer.\n` +
        `!!! Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n` +
        `!!! Or restrict the runs on purpose with TEST_DATABASES=sqlite.`,
    );
    console.log('tests: 0 passed, 0 failed, 0 skipped');
    process.exit(1);
  } else {
    console.log('\n*** PostgreSQL not reachable: skipping the PostgreSQL run ***\n');
  }
}

const tmp = mkdtempSync(join(tmpdir(), 'adgraph-test-'));
const results = [];
try {
  for (const run of runs) {
    const reportFile = join(tmp, `${run.db}.json`);
    banner(`vitest on ${run.db}${run.env.TEST_POSTGRES_URL ? ` (${run.env.TEST_POSTGRES_URL.replace(/:[^:@/]*@/, ':***@')})` : ''}`);
    const code = await runVitest(run.env, reportFile);
    results.push({ db: run.db, code, counts: readReport(reportFile) });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

banner('summary');
const total = { passed: 0, failed: 0, skipped: 0 };
for (const { db, code, counts } of results) {
  if (counts) {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    console.log(`${db}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (vitest exit ${code})`);
    const shown = counts.failures.slice(0, 20);
    for (const failure of shown) console.log(`  failed on ${db}: ${failure}`);
    if (counts.failures.length > shown.length) console.log(`  … and ${counts.failures.length - shown.length} more on ${db}`);
  } else {
    console.log(`${db}: no report (vitest exit ${code})`);
  }
}
if (!databases.includes('postgres') || !results.some((r) => r.db === 'postgres')) {
  console.log(`postgres: not run${databases.includes('postgres') ? ' (not reachable)' : ' (TEST_DATABASES)'}`);
}
if (!databases.includes('sqlite')) console.log('sqlite: not run (TEST_DATABASES)');

const failedRuns = results.filter((r) => r.code !== 0).map((r) => r.db);
const ranAny = total.passed + total.failed > 0;
if (failedRuns.length > 0) console.log(`FAILED: vitest failed on ${failedRuns.join(', ')}`);
if (!ranAny) console.log('FAILED: no test ran');
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failedRuns.length > 0 || !ranAny ? 1 : 0);
