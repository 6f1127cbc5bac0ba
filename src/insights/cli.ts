import { Option, type Command } from 'commander';
import type { AppDeps } from '../context/index.ts';
import type { ImportProgress, ImportTotals } from './intake/import.ts';
import type { ImportFormat } from './intake/lines.ts';
import { addGenerateCommand } from './generate-cli.ts';

/**
 * The `adgraph stats` group (statistics of delivery), added to src/cli/main.ts: `stats import` here, `stats
 * generate` in generate-cli.ts; more commands of the group register themselves in addStatsCommands below. Like every command of the CLI, each loads what it
 * needs when it runs, so `adgraph --help` stays fast.
 */

/** What the group's commands get from src/cli/main.ts. */
export interface StatsCommandContext {
  /** Runs work with the application's dependencies on a migrated database, and releases them afterwards. */
  withDeps<T>(work: (deps: AppDeps) => Promise<T>): Promise<T>;
}

export function addStatsCommands(stats: Command, context: StatsCommandContext): void {
  addImportCommand(stats, context);
  addGenerateCommand(stats, context);
}

function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
}

const number = (n: number) => n.toLocaleString('en-US');

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * Progress on standard error: a bar redrawn in place on a terminal (at most ten times a second); with
 * --progress and no terminal, a line for the first bytes and then one each tenth of the file (each 10 MB from
 * standard input), for logs and scripts.
 */
function progressDisplay(totalBytes: number | undefined, lines: boolean, stream: NodeJS.WriteStream = process.stderr) {
  const bar = stream.isTTY === true;
  let last = 0;
  let drawn = false;
  let step = -1;
  const describe = (p: ImportProgress) => {
    const share = totalBytes ? ` of ${megabytes(totalBytes)} (${Math.floor((100 * p.bytes) / Math.max(1, totalBytes))}%)` : '';
    return `${megabytes(p.bytes)}${share}, ${number(p.lines)} lines`;
  };
  return {
    update(p: ImportProgress) {
      const now = Date.now();
      if (bar) {
        if (now - last < 100) return;
        last = now;
        const width = 30;
        const filled = totalBytes ? Math.round(Math.min(1, p.bytes / totalBytes) * width) : 0;
        stream.write(`\rimport [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${describe(p)}\x1b[K`);
        drawn = true;
      } else if (lines) {
        const reached = totalBytes ? Math.floor((10 * p.bytes) / Math.max(1, totalBytes)) : Math.floor(p.bytes / 10e6);
        if (reached === step) return;
        step = reached;
        stream.write(`import: read ${describe(p)}\n`);
      }
    },
    end() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}

function money(minor: number, currency: string, digits: number): string {
  const major = digits === 0 ? String(minor) : `${Math.trunc(minor / 10 ** digits)}.${String(minor % 10 ** digits).padStart(digits, '0')}`;
  return `${currency} ${major}`;
}

function describeTotals(totals: ImportTotals, digitsOf: (currency: string) => number): string {
  if (totals.status === 'already_imported') {
    return `${totals.source}: already imported (the same bytes, sha256 ${totals.sha256}); nothing changed`;
  }
  const days = totals.firstDay ? `, days ${totals.firstDay} to ${totals.lastDay}` : '';
  const spend = Object.entries(totals.spend)
    .map(([currency, minor]) => money(minor, currency, digitsOf(currency)))
    .join(', ');
  return [
    `imported ${totals.source}: ${number(totals.records)} ${totals.format === 'events' ? 'events' : 'daily rows'} (${number(totals.lines)} lines, ${megabytes(totals.bytes)})${days}`,
    `  ${number(totals.ads)} ads in ${number(totals.accounts)} account${totals.accounts === 1 ? '' : 's'}; impressions ${number(totals.impressions)}, clicks ${number(totals.clicks)}${spend ? `, spend ${spend}` : ''}`,
    `  ${number(totals.factsWritten)} fact rows written; sha256 ${totals.sha256}`,
  ].join('\n');
}

function addImportCommand(stats: Command, context: StatsCommandContext): void {
  stats
    .command('import')
    .description(
      'import delivery data (NDJSON: events, or daily rows) into daily statistics; all of a file or, on any bad line, none of it; the same file twice changes nothing',
    )
    .argument('<file>', 'the file to import, or - for standard input')
    .addOption(new Option('--format <format>', 'what each line is (see the README, "Statistics")').choices(['events', 'daily']).default('events'))
    .option('--progress', 'print progress lines on standard error even when it is not a terminal')
    .option('--json', 'print the totals as JSON')
    .action(async (file: string, options: { format: ImportFormat; progress?: boolean; json?: boolean }) => {
      const [{ createReadStream }, { stat }, { importDelivery, importedBefore, sha256OfFile, ImportRejected }, { MINOR_UNIT_DIGITS }] = await Promise.all([
        import('node:fs'),
        import('node:fs/promises'),
        import('./intake/import.ts'),
        import('../ads/rules/currencies.ts'),
      ]);
      const fromStdin = file === '-';
      // A file that cannot be read is named before the database is touched.
      const size = fromStdin ? undefined : (await stat(file).catch(() => undefined))?.size;
      if (!fromStdin && size === undefined) throw new Error(`${file}: no such file`);
      await context.withDeps(async (deps) => {
        const digitsOf = (currency: string) => (MINOR_UNIT_DIGITS as Record<string, number>)[currency] ?? 2;
        let totals: ImportTotals | undefined;
        if (!fromStdin) {
          // A file imported before is recognized by its hash alone, without reading it line by line again.
          const sha256 = await sha256OfFile(file);
          totals = await importedBefore(deps, sha256, { name: file, format: options.format, bytes: size! });
        }
        if (!totals) {
          const progress = progressDisplay(size, !!options.progress);
          try {
            totals = await importDelivery(deps, fromStdin ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 }), {
              name: file,
              format: options.format,
              onProgress: (p) => progress.update(p),
            });
          } catch (error) {
            if (error instanceof ImportRejected) {
              const listed = error.problems.map((p) => `  line ${p.line}: ${p.reason}`);
              if (error.problemCount > error.problems.length) listed.push(`  ... and ${number(error.problemCount - error.problems.length)} more bad lines`);
              if (options.json) print(true, { status: 'rejected', source: file, problem_count: error.problemCount, problems: error.problems }, '');
              else process.stderr.write(`${listed.join('\n')}\n`);
            }
            throw error;
          } finally {
            progress.end();
          }
        }
        print(
          !!options.json,
          {
            status: totals.status,
            source: totals.source,
            format: totals.format,
            sha256: totals.sha256,
            bytes: totals.bytes,
            lines: totals.lines,
            records: totals.records,
            facts_written: totals.factsWritten,
            ads: totals.ads,
            accounts: totals.accounts,
            impressions: totals.impressions,
            clicks: totals.clicks,
            spend: totals.spend,
            first_day: totals.firstDay,
            last_day: totals.lastDay,
          },
          describeTotals(totals, digitsOf),
        );
      });
    });
}
