/**
 * The adgraph command's start-up against Node's own: `node -e 0`, `adgraph --help` and `adgraph dates
 * convert yyyy-MM-dd` through the package's bin, run one after the other in each of BENCH_CLI_RUNS (default 5)
 * rounds. Each command's ratio is the median of its per-round ratios to `node -e 0`: a round's runs see the
 * same machine load, so pairing them keeps another process's burst out of the ratio.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { goal, PACKAGE_ROOT, positive, printTable, type SectionOutcome } from './harness.ts';

const RUNS = positive('BENCH_CLI_RUNS', 5);
const BIN = join(PACKAGE_ROOT, 'bin', 'adgraph.js');

interface Command {
  label: string;
  args: string[];
  expect: (stdout: string) => boolean;
}

const COMMANDS: Command[] = [
  { label: 'node -e 0', args: ['-e', '0'], expect: () => true },
  { label: 'adgraph --help', args: [BIN, '--help'], expect: (out) => out.includes('Usage') },
  { label: 'adgraph dates convert yyyy-MM-dd', args: [BIN, 'dates', 'convert', 'yyyy-MM-dd'], expect: (out) => out.includes('uuuu-MM-dd') },
];

/** Wall time of one run in ms; a failed or unexpected run stops the benchmark (a fast error is not a fast start). */
function wallTime(command: Command): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, command.args, { cwd: PACKAGE_ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0 || !command.expect(run.stdout)) {
    throw new Error(`${command.label} exited ${run.status ?? run.signal}: ${(run.stderr || run.stdout).slice(0, 500)}`);
  }
  return ms;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export async function benchCli(): Promise<SectionOutcome> {
  // One unmeasured round first: the file cache, not the code, would otherwise decide the first figures.
  for (const command of COMMANDS) wallTime(command);
  const times = COMMANDS.map(() => [] as number[]);
  for (let round = 0; round < RUNS; round++) {
    COMMANDS.forEach((command, i) => times[i]!.push(wallTime(command)));
  }
  const ratios = times.map((own) => median(own.map((ms, round) => ms / times[0]![round]!)));

  console.log(`CLI start-up: ${BIN}, ${RUNS} rounds (each runs the three commands in turn) after one unmeasured round\n`);
  printTable(
    COMMANDS.map((command, i) => ({
      command: command.label,
      'median ms': median(times[i]!).toFixed(0),
      'min ms': Math.min(...times[i]!).toFixed(0),
      'max ms': Math.max(...times[i]!).toFixed(0),
      'vs node -e 0': `${ratios[i]!.toFixed(2)}x`,
    })),
  );
  return {
    ok: true,
    goals: COMMANDS.slice(1).map((command, i) => goal(`${command.label} ÷ node -e 0 (wall time, median of ${RUNS} paired runs)`, ratios[i + 1]!, '<=', 3)),
  };
}
