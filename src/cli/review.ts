import { Option, type Command } from 'commander';
import { FLAG_REASONS } from '../ads/rules/enums.ts';
import { print, UsageError, withDeps } from './runtime.ts';

/** --reason R sets the review flag, --clear removes it; exactly one of them. */
function flagReason(options: { reason?: string; clear?: boolean }): string | null {
  if (options.clear) return null;
  if (options.reason === undefined) throw new UsageError(`reason: give --reason (${FLAG_REASONS.join(' or ')}), or --clear to remove the flag`);
  return options.reason;
}

const reasonOption = () => new Option('--reason <reason>', 'why the review restricts it').choices(FLAG_REASONS);
const clearOption = () => new Option('--clear', 'remove the flag (the review was reversed)').conflicts('reason');

/** `adgraph audiences flag` and `adgraph conversions flag`: the platform's review decisions, which no API caller can make. */
export function addReviewCommands(program: Command): void {
  program
    .command('audiences')
    .description('custom audiences')
    .command('flag')
    .description("the platform's review decision on a custom audience; lookalikes made from it get operation_status 471 (--clear undoes both)")
    .argument('<audience_id>', 'the custom audience id')
    .addOption(reasonOption())
    .addOption(clearOption())
    .option('--json', 'print JSON')
    .action(async (audienceId: string, options: { reason?: string; clear?: boolean; json?: boolean }) => {
      const reason = flagReason(options);
      await withDeps(async (d) => {
        const { flagAudience } = await import('../ads/admin.ts');
        const { record, lookalikes } = await flagAudience(d, { id: audienceId, reason });
        const out = {
          id: record.id,
          flagged_reason: record.flaggedReason,
          lookalikes: lookalikes.map((l) => ({ id: l.id, operation_status: { code: l.operationStatusCode, description: l.operationStatusDescription } })),
        };
        const text = [
          `${record.id}  ${record.flaggedReason ? `flagged: ${record.flaggedReason}` : 'flag cleared'}`,
          ...lookalikes.map(
            (l) => `  lookalike ${l.id}: operation_status ${l.operationStatusCode}${l.operationStatusDescription ? ` (${l.operationStatusDescription})` : ''}`,
          ),
        ];
        print(!!options.json, out, text.join('\n'));
      });
    });

  program
    .command('conversions')
    .description('custom conversions')
    .command('flag')
    .description("the platform's review decision on a custom conversion (--clear undoes it)")
    .argument('<conversion_id>', 'the custom conversion id')
    .addOption(reasonOption())
    .addOption(clearOption())
    .option('--json', 'print JSON')
    .action(async (conversionId: string, options: { reason?: string; clear?: boolean; json?: boolean }) => {
      const reason = flagReason(options);
      await withDeps(async (d) => {
        const { flagConversion } = await import('../ads/admin.ts');
        const conversion = await flagConversion(d, { id: conversionId, reason });
        print(
          !!options.json,
          { id: conversion.id, flagged_reason: conversion.flaggedReason },
          `${conversion.id}  ${conversion.flaggedReason ? `flagged: ${conversion.flaggedReason}` : 'flag cleared'}`,
        );
      });
    });
}
