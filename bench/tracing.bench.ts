/**
 * What tracing costs the nested read (the `reads` section's GraphQL scenario): two servers over the same demo
 * database, each in its own process, one untraced (no provider, no hooks) and one traced as an operator would
 * run it, OTLP with the batch processor, to a port where nothing listens (every span is made, batched and
 * encoded to protobuf, and each export is refused and retried). They are timed in alternation, ROUNDS times.
 * Two figures: req/s (best round of each), and the server's CPU time per request (from /proc), which other
 * processes on a busy machine disturb far less than throughput. The goal: at most 5% lost.
 */
import { readFileSync } from 'node:fs';
import { demoAccountId, graphqlAt, NESTED } from './reads.bench.ts';
import {
  checked,
  figures,
  freePort,
  goal,
  printTable,
  reportUnexpected,
  startServerProcess,
  timeAll,
  UNLIMITED_ACCOUNT_ALLOWANCE,
  withDemoServer,
  type ChildServer,
  type SectionOutcome,
  type Timed,
} from './harness.ts';

const ROUNDS = 3;
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user and system) the process has used so far, or NaN where /proc is not there. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

export async function benchTracing(): Promise<SectionOutcome> {
  const env = { ...UNLIMITED_ACCOUNT_ALLOWANCE, ASYNC_POLL_MS: '600000' };
  return withDemoServer({ env }, async ({ config, sessionToken }) => {
    const serverEnv = { ...process.env, ...env, DATABASE_URL: config.databaseUrl, LOG_LEVEL: 'silent', SEED_DEMO: 'false' };
    const nowhere = await freePort();
    const servers: ChildServer[] = [];
    try {
      servers.push(await startServerProcess({ ...serverEnv, OTEL_TRACES_EXPORTER: 'none' }, false));
      servers.push(await startServerProcess({ ...serverEnv, OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${nowhere}` }, false));
      const [untraced, traced] = servers.map((server) => ({ pid: server.child.process.pid, read: graphqlAt(server.url, sessionToken) }));
      const accountId = await demoAccountId(untraced!.read, 'the demo data');
      const expected = await checked('untraced nested read', untraced!.read(NESTED(accountId)));
      await checked('traced nested read', traced!.read(NESTED(accountId)), (body) => (body.equals(expected) ? null : 'not the same answer as untraced'));

      const rounds: Array<{ off: Timed; on: Timed; offCpuMs: number; onCpuMs: number }> = [];
      for (let round = 0; round < ROUNDS; round++) {
        const cpuBefore = [cpuSeconds(untraced!.pid), cpuSeconds(traced!.pid)];
        const [off, on] = await timeAll([untraced!.read(NESTED(accountId)), traced!.read(NESTED(accountId))]);
        // Each server is idle while the other is timed: its CPU time over the round is its requests'.
        const offCpuMs = ((cpuSeconds(untraced!.pid) - cpuBefore[0]!) * 1000) / off!.requests;
        const onCpuMs = ((cpuSeconds(traced!.pid) - cpuBefore[1]!) * 1000) / on!.requests;
        rounds.push({ off: off!, on: on!, offCpuMs, onCpuMs });
      }
      const rows = rounds.flatMap(({ off, on, offCpuMs, onCpuMs }, i) => [
        { scenario: `round ${i + 1}: untraced`, ...figures(off), 'CPU ms/request': offCpuMs.toFixed(3) },
        {
          scenario: `round ${i + 1}: traced (OTLP, batch, export refused)`,
          ...figures(on, { label: 'untraced', run: off }),
          'CPU ms/request': onCpuMs.toFixed(3),
        },
      ]);
      console.log(`The nested read (13 ad sets, campaign names, ads), untraced against traced, ${ROUNDS} rounds in alternation\n`);
      printTable(rows);
      const ok = reportUnexpected(
        rounds.flatMap(({ off, on }, i) => [
          { name: `round ${i + 1} untraced`, run: off },
          { name: `round ${i + 1} traced`, run: on },
        ]),
      );
      const best = (values: number[], pick: (...n: number[]) => number) => pick(...values);
      const rps =
        best(
          rounds.map((r) => r.on.rps),
          Math.max,
        ) /
        best(
          rounds.map((r) => r.off.rps),
          Math.max,
        );
      const cpu =
        best(
          rounds.map((r) => r.offCpuMs),
          Math.min,
        ) /
        best(
          rounds.map((r) => r.onCpuMs),
          Math.min,
        );
      return {
        ok,
        goals: [
          goal('Traced nested read ÷ untraced, best round of each (req/s)', rps, '>=', 0.95, 3),
          goal('Untraced CPU per nested read ÷ traced, least of each', cpu, '>=', 0.95, 3),
        ],
      };
    } finally {
      for (const server of servers) await server.child.stop();
    }
  });
}
