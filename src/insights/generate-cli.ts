import type { Command } from 'commander';
import type { StatsCommandContext } from './cli.ts';

/**
 * `adgraph stats generate`, one of the `stats` group's commands (src/insights/cli.ts). Like every command it loads
 * what it needs when it runs, prints JSON with --json, and on bad input exits non-zero with one line.
 */
export function addGenerateCommand(stats: Command, { withDeps }: StatsCommandContext): void {
  stats
    .command('generate')
    .description(
      'write deterministic synthetic delivery for every live ad of an account over N days ending yesterday (account time zone), for demos, tests and benchmarks',
    )
    .requiredOption('--account <account_id>', 'the ad account (act_<id> or <id>)')
    .requiredOption('--days <n>', 'how many days, 1 to 1130 (37 months)')
    .option('--seed <seed>', 'a whole number from 0 to 4294967295: the same seed writes the same numbers (default 1)')
    .option('--until <day>', 'the last day, YYYY-MM-DD in the account time zone (default yesterday)')
    .option('--replace', 'delete what the account already has in those days (generated or imported) first, instead of refusing')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
A window that already has statistics is refused, so running the same generation twice cannot double the numbers;
--replace deletes the account's statistics in the window first (in the same transaction).`,
    )
    .action(async (options: { account: string; days: string; seed?: string; until?: string; replace?: boolean; json?: boolean }) =>
      withDeps(async (d) => {
        const [{ generateDelivery }, { formatMoney }] = await Promise.all([import('./generate.ts'), import('../ads/rules/currencies.ts')]);
        const result = await generateDelivery(d, options);
        const out = {
          account_id: result.accountId,
          since: result.since,
          until: result.until,
          days: result.days,
          seed: result.seed,
          live_ads: result.liveAds,
          impressions: result.impressions,
          clicks: result.clicks,
          spend: result.spend,
          currency: result.currency,
          facts_written: result.factsWritten,
          facts_replaced: result.factsReplaced,
        };
        const text =
          `act_${result.accountId}: ${result.days} days (${result.since} to ${result.until}, seed ${result.seed}) for ${result.liveAds} live ads: ` +
          `${result.impressions} impressions, ${result.clicks} clicks, ${formatMoney(BigInt(result.spend), result.currency)} spent; ` +
          `${result.factsWritten} facts written${result.factsReplaced ? `, ${result.factsReplaced} replaced` : ''}`;
        process.stdout.write(options.json ? `${JSON.stringify(out, null, 2)}\n` : `${text}\n`);
      }),
    );
}
