/**
 * What tracing costs the nested read (the `reads` section's GraphQL scenario): three servers over the same demo
 * database, each in its own process: untraced (no provider, no hooks); traced as an operator starts it, every
 * trace recorded (OTLP, batch processor); and traced as docs/operations.md advises for a busy server, one trace
 * in ten (parentbased_traceidratio 0.1). Both traced servers export to a collector in this process that accepts
 * every batch (and counts them: spans must reach it). They are timed in turn, ROUNDS times. Two figures: req/s
 * (best round of each), and the server's CPU time per request (from /proc, least of each), which other
 * processes on a busy machine disturb far less than throughput. The goal: at most 5% lost, for each setting.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoAccountId, graphqlAt, NESTED } from './reads.bench.ts';
import {
  checked,
  figures,
  goal,
  positive,
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

const ROUNDS = Math.round(positive('BENCH_TRACING_ROUNDS', 3));
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

/** An OTLP/HTTP collector that accepts every export and counts them. */
async function startCollector(): Promise<{ url: string; exports: () => number; close: () => Promise<void> }> {
  let exports = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const SETTINGS = [
  { name: 'untraced', env: { OTEL_TRACES_EXPORTER: 'none' } },
  { name: 'traced, every trace', env: {} },
  { name: 'traced, one trace in ten', env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } },
] as const;

export async function benchTracing(): Promise<SectionOutcome> {
  const env = { ...UNLIMITED_ACCOUNT_ALLOWANCE, ASYNC_POLL_MS: '600000' };
  return withDemoServer({ env }, async ({ config, sessionToken }) => {
    const serverEnv = { ...process.env, ...env, DATABASE_URL: config.databaseUrl, LOG_LEVEL: 'silent', SEED_DEMO: 'false' };
    const collector = await startCollector();
    const servers: ChildServer[] = [];
    try {
      for (const setting of SETTINGS) {
        const traced = setting.name === 'untraced' ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };
        servers.push(await startServerProcess({ ...serverEnv, ...traced, ...setting.env }, false));
      }
      const targets = servers.map((server) => ({ pid: server.child.process.pid, read: graphqlAt(server.url, sessionToken) }));
      const accountId = await demoAccountId(targets[0]!.read, 'the demo data');
      const expected = await checked('untraced nested read', targets[0]!.read(NESTED(accountId)));
      for (const [i, target] of targets.entries()) {
        await checked(`${SETTINGS[i]!.name}: nested read`, target.read(NESTED(accountId)), (body) =>
          body.equals(expected) ? null : 'not the same answer as untraced',
        );
      }

      const rounds: Array<Array<{ run: Timed; cpuMs: number }>> = [];
      for (let round = 0; round < ROUNDS; round++) {
        const cpuBefore = targets.map((target) => cpuSeconds(target.pid));
        const runs = await timeAll(targets.map((target) => target.read(NESTED(accountId))));
        // Each server is idle while another is timed: its CPU time over the round is its requests'.
        rounds.push(runs.map((run, i) => ({ run, cpuMs: ((cpuSeconds(targets[i]!.pid) - cpuBefore[i]!) * 1000) / run.requests })));
      }
      const rows = rounds.flatMap((runs, round) =>
        runs.map(({ run, cpuMs }, i) => ({
          scenario: `round ${round + 1}: ${SETTINGS[i]!.name}`,
          ...figures(run, i === 0 ? undefined : { label: 'untraced', run: runs[0]!.run }),
          'CPU ms/request': cpuMs.toFixed(3),
        })),
      );
      console.log(`The nested read (13 ad sets, campaign names, ads), untraced against traced, ${ROUNDS} rounds\n`);
      printTable(rows);
      console.log(`\nOTLP exports the collector accepted: ${collector.exports()}`);
      const ok =
        reportUnexpected(rounds.flatMap((runs, round) => runs.map(({ run }, i) => ({ name: `round ${round + 1} ${SETTINGS[i]!.name}`, run })))) &&
        collector.exports() > 0;
      const bestRps = (i: number) => Math.max(...rounds.map((runs) => runs[i]!.run.rps));
      const leastCpu = (i: number) => Math.min(...rounds.map((runs) => runs[i]!.cpuMs));
      return {
        ok,
        goals: [1, 2].flatMap((i) => [
          goal(`Nested read ${SETTINGS[i]!.name} ÷ untraced, best round of each (req/s)`, bestRps(i) / bestRps(0), '>=', 0.95, 3),
          goal(`Untraced CPU per nested read ÷ ${SETTINGS[i]!.name}, least of each`, leastCpu(0) / leastCpu(i), '>=', 0.95, 3),
        ]),
      };
    } finally {
      for (const server of servers) await server.child.stop();
      await collector.close();
    }
  });
}
