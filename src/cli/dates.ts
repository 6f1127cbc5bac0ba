import type { Command } from 'commander';
import { addDateClusterCommands } from '../dateformats/cli.ts';
import { print } from './runtime.ts';

/** `dates convert`: some part has no java.time equivalent (bad input exits 1). */
const EXIT_UNSUPPORTED = 3;

/** `adgraph dates`: legacy date formats, converted here; scanned and migrated on a search cluster (src/dateformats/cli.ts). */
export function addDateCommands(program: Command): void {
  const dates = program.command('dates').description('legacy (Joda-Time) custom date formats of search-engine date fields');
  dates
    .command('convert')
    .description('convert a legacy date format (patterns joined with ||) to java.time, with every change and finding')
    .argument('<format>', 'the legacy format, e.g. "yyyy-MM-dd HH:mm:ss||epoch_millis"')
    .option('--lenient', 'also accept what else Joda accepted (2010-1-5, 13:5:7, the year 194, January under MMM), adding alternatives up to a cap')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Exit status: 0 converted (read any review finding), ${EXIT_UNSUPPORTED} no java.time equivalent for some part (no
output: the first line says so, and --json prints "output": null), 1 bad input.`,
    )
    .action(async (format: string, options: { lenient?: boolean; json?: boolean }) => {
      const { convertFormat, describeConversion } = await import('../dateformats/convert.ts');
      const conversion = convertFormat(format, { lenient: !!options.lenient });
      print(!!options.json, conversion, describeConversion(conversion));
      // A distinct status, so that a script never takes an unsupported conversion for a usable one.
      if (!conversion.usable) process.exitCode = EXIT_UNSUPPORTED;
    });
  // dates scan, dates migrate (src/dateformats/cli.ts)
  addDateClusterCommands(dates);
}
