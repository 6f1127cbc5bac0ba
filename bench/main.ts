/**
 * `npm run bench`: every figure of issue 13 in one run, or some sections (`npm run bench -- pages cli`).
 * Prints the machine, then each section's table, then every goal line with PASS or FAIL. The exit code is 1
 * when some answer was unexpected (a non-2xx answer in a timed run, a failed check); a missed goal is
 * printed as FAIL but does not fail the run, since figures move with the machine's load.
 */
import { availableParallelism, cpus, freemem, loadavg, totalmem } from 'node:os';
import { benchCli } from './cli.bench.ts';
import { benchInsights } from './insights.bench.ts';
import { benchImport } from './import.bench.ts';
import { benchPages } from './pages.bench.ts';
import { benchReads } from './reads.bench.ts';
import { benchTokens } from './tokens.bench.ts';
import { benchTracing } from './tracing.bench.ts';
import { benchRealtime } from './realtime.bench.ts';
import { benchPeers } from './peers.bench.ts';
import { CONNECTIONS, goalLine, SECONDS, SLICES, type Goal, type SectionOutcome } from './harness.ts';

// The CLI first: bin/adgraph.js refuses a build older than the sources, so it runs right after the build.
const SECTIONS: Record<string, { title: string; run: () => Promise<SectionOutcome> }> = {
  cli: { title: 'CLI start-up', run: benchCli },
  reads: { title: 'Reads: the bare-server ceiling, GraphQL, /v24.0; SQL statements per request', run: benchReads },
  pages: { title: 'Paging: an account of 10,000 ad sets against one of 13', run: benchPages },
  tokens: { title: 'The token endpoint', run: benchTokens },
  insights: { title: 'Statistics at scale: 5,000 ad sets, 20,000 ads, 400 days', run: benchInsights },
  import: { title: 'Import of delivery events (statistics)', run: benchImport },
  tracing: { title: 'What OpenTelemetry tracing costs the nested read', run: benchTracing },
  realtime: { title: 'Real time: subscriptions across instances, idle subscriptions, fan-out, webhooks', run: benchRealtime },
  peers: { title: 'Against the peers: bare node:http, Express 5, Apollo Server 5, and PostGraphile 5 on the same tables', run: benchPeers },
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(
    `bench: unknown section ${unknown.map((name) => `"${name}"`).join(', ')}; choose from ${Object.keys(SECTIONS).join(', ')} (all when none is named)`,
  );
  process.exit(2);
}
const names = chosen.length > 0 ? chosen : Object.keys(SECTIONS);

const started = Date.now();
const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(1);
console.log(`adgraph benchmarks (${names.join(', ')}), ${new Date().toISOString()}`);
console.log(
  `Node ${process.version} on ${process.platform}/${process.arch}; ${availableParallelism()} cores (${cpu}); memory ${gib(freemem())} of ${gib(totalmem())} GiB free; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `SQLite (a fresh file per section) with the demo data; the server under test and the ceiling each run in their own process, autocannon in this one; ${CONNECTIONS} connections ` +
    `(BENCH_CONNECTIONS); ${SECONDS}s per timed scenario (BENCH_SECONDS), in ${SLICES} slices (the scenarios in order, in reverse, in order, …), after a warm-up of ${20 * CONNECTIONS} requests`,
);

let ok = true;
const goals: Goal[] = [];
for (const name of names) {
  const section = SECTIONS[name]!;
  console.log(`\n== ${section.title} ==\n`);
  const sectionStarted = Date.now();
  try {
    const outcome = await section.run();
    ok &&= outcome.ok;
    goals.push(...outcome.goals);
  } catch (error) {
    ok = false;
    console.error(`FAILED  ${name}: ${error instanceof Error ? error.stack : String(error)}`);
  }
  console.log(`\n(${name}: ${((Date.now() - sectionStarted) / 1000).toFixed(0)}s)`);
}

if (goals.length > 0) {
  console.log('\n== Goals ==\n');
  const width = Math.max(...goals.map((g) => g.label.length));
  for (const g of goals) console.log(goalLine(g, width));
}
console.log(
  `\n${goals.filter((g) => g.pass).length} of ${goals.length} goals met; ${ok ? 'every answer as expected' : 'SOME ANSWERS WERE UNEXPECTED (see above): the run failed'}; ${((Date.now() - started) / 1000).toFixed(0)}s in all; load average now ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
process.exitCode = ok ? 0 : 1;
