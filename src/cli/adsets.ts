import type { Command } from 'commander';
import { print, UsageError, withDeps } from './runtime.ts';

/** `adgraph adsets`: test set-up of ad sets. */
export function addAdSetCommands(program: Command): void {
  program
    .command('adsets')
    .description('ad sets (test set-up)')
    .command('fill')
    .description('add N paused ad sets to a campaign in one transaction, to bring an account to (or near) its ad set limit')
    .requiredOption('--campaign <campaign_id>', 'the campaign to fill')
    .requiredOption('--count <n>', 'how many ad sets (1 to 20000)')
    .option('--json', 'print JSON')
    .action(async (options: { campaign: string; count: string; json?: boolean }) => {
      if (!/^\d+$/.test(options.count)) throw new UsageError(`count: "${options.count}" is not a whole number`);
      await withDeps(async (d) => {
        const { fillAdSets } = await import('../ads/admin.ts');
        const result = await fillAdSets(d, { campaign: options.campaign, count: Number(options.count) });
        print(
          !!options.json,
          { campaign_id: result.campaignId, created: result.created.length, live_ad_sets: result.liveAdSets, limit: result.limit },
          `${result.created.length} ad sets added to campaign ${result.campaignId}: the account has ${result.liveAdSets} of ${result.limit}`,
        );
      });
    });
}
