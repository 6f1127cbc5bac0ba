import { Option, type Command } from 'commander';
import { CURRENCY_CODES } from '../ads/rules/currencies.ts';
import { details, iso, print, table, withDeps, withListOptions } from './runtime.ts';

/** `adgraph accounts`: ad accounts. */
export function addAccountCommands(program: Command): void {
  const accounts = program.command('accounts').description('ad accounts');

  accounts
    .command('create')
    .description('create an active ad account (time zone Etc/UTC, nothing spent, no spend cap)')
    .requiredOption('--org <org>', 'organization id or name')
    .requiredOption('--name <name>', 'account name (1 to 255 characters)')
    .requiredOption('--currency <currency>', `ISO 4217 code in upper case, one of ${CURRENCY_CODES.join(', ')}`)
    .requiredOption('--country <country>', 'business country, ISO 3166-1 alpha-2 in upper case (e.g. US, DE)')
    .option('--bulk', 'a bulk account (10,000 ad sets instead of 5,000)')
    .option('--default-dsa-payor <payor>', 'who pays for ads reaching the EU (DSA), at most 512 characters')
    .option('--default-dsa-beneficiary <beneficiary>', 'who benefits from ads reaching the EU (DSA), at most 512 characters')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        org: string;
        name: string;
        currency: string;
        country: string;
        bulk?: boolean;
        defaultDsaPayor?: string;
        defaultDsaBeneficiary?: string;
        json?: boolean;
      }) =>
        withDeps(async (d) => {
          const { createAdAccount } = await import('../ads/admin.ts');
          const account = await createAdAccount(d, {
            organization: options.org,
            name: options.name,
            currency: options.currency,
            country: options.country,
            isBulk: options.bulk,
            defaultDsaPayor: options.defaultDsaPayor,
            defaultDsaBeneficiary: options.defaultDsaBeneficiary,
          });
          print(!!options.json, { id: account.id }, `${account.id}  ${account.name}  ${account.currency} ${account.country}${account.isBulk ? '  bulk' : ''}`);
        }),
    );

  accounts
    .command('update')
    .description('change what the ad set rules read from an account: bulk (10,000 ad sets) and the DSA defaults')
    .argument('<account_id>', 'the ad account id (act_<id> or <id>)')
    .option('--bulk', 'make it a bulk account (10,000 ad sets)')
    .option('--no-bulk', 'make it a regular account (5,000 ad sets)')
    .option('--default-dsa-payor <payor>', 'who pays for ads reaching the EU, at most 512 characters')
    .option('--default-dsa-beneficiary <beneficiary>', 'who benefits from ads reaching the EU, at most 512 characters')
    .addOption(new Option('--clear-default-dsa-payor', 'remove the default payor').conflicts('defaultDsaPayor'))
    .addOption(new Option('--clear-default-dsa-beneficiary', 'remove the default beneficiary').conflicts('defaultDsaBeneficiary'))
    .option('--restrict <reason>', 'restrict the account: every write to its objects is refused with error 368 (the reason is shown to its users)')
    .addOption(new Option('--unrestrict', 'lift the restriction').conflicts('restrict'))
    .option('--json', 'print JSON')
    .action(
      async (
        accountId: string,
        options: {
          bulk?: boolean;
          defaultDsaPayor?: string;
          defaultDsaBeneficiary?: string;
          clearDefaultDsaPayor?: boolean;
          clearDefaultDsaBeneficiary?: boolean;
          restrict?: string;
          unrestrict?: boolean;
          json?: boolean;
        },
      ) =>
        withDeps(async (d) => {
          const { updateAdAccount } = await import('../ads/admin.ts');
          const account = await updateAdAccount(d, {
            id: accountId,
            isBulk: options.bulk,
            defaultDsaPayor: options.clearDefaultDsaPayor ? null : options.defaultDsaPayor,
            defaultDsaBeneficiary: options.clearDefaultDsaBeneficiary ? null : options.defaultDsaBeneficiary,
            restrictedReason: options.unrestrict ? null : options.restrict,
          });
          print(
            !!options.json,
            {
              id: account.id,
              is_bulk: account.isBulk,
              default_dsa_payor: account.defaultDsaPayor,
              default_dsa_beneficiary: account.defaultDsaBeneficiary,
              restricted_reason: account.restrictedReason ?? null,
            },
            `${account.id}  ${account.isBulk ? 'bulk' : 'regular'}  payor: ${account.defaultDsaPayor ?? '-'}  beneficiary: ${account.defaultDsaBeneficiary ?? '-'}${account.restrictedReason ? `  restricted: ${account.restrictedReason}` : ''}`,
          );
        }),
    );

  withListOptions(accounts.command('list').description('list ad accounts in id order'))
    .option('--org <org>', "only this organization's accounts (id or name)")
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; after?: string; org?: string; json?: boolean }) =>
      withDeps(async (d) => {
        const { listAdAccounts } = await import('../ads/admin.ts');
        const { items, next } = await listAdAccounts(d, options, { organization: options.org });
        const listed = items.map((a) => ({
          id: a.id,
          name: a.name,
          currency: a.currency,
          country: a.country,
          is_bulk: a.isBulk,
          organization_id: a.organizationId,
          created_time: iso(a.createdTime)!,
        }));
        const rows = listed.map((a) => ({
          id: `act_${a.id}`,
          name: a.name,
          currency: a.currency,
          country: a.country,
          bulk: a.is_bulk ? 'yes' : 'no',
          organization_id: a.organization_id,
        }));
        print(!!options.json, { accounts: listed, next }, table(rows, next, 'no ad accounts'));
      }),
    );

  accounts
    .command('show')
    .description('an ad account: its settings, campaigns, and ad sets against its limit')
    .argument('<account_id>', 'the ad account id (act_<id> or <id>)')
    .option('--json', 'print JSON')
    .action(async (accountId: string, options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { adAccountDetails } = await import('../ads/admin.ts');
        const { account: a, campaigns, liveAdSets, adSetLimit } = await adAccountDetails(d, accountId);
        const out = {
          id: a.id,
          name: a.name,
          organization_id: a.organizationId,
          account_status: a.accountStatus,
          currency: a.currency,
          country: a.country,
          timezone_name: a.timezoneName,
          is_bulk: a.isBulk,
          default_dsa_payor: a.defaultDsaPayor,
          default_dsa_beneficiary: a.defaultDsaBeneficiary,
          spend_cap: a.spendCap,
          created_time: iso(a.createdTime),
          campaigns,
          live_ad_sets: liveAdSets,
          ad_set_limit: adSetLimit,
        };
        print(
          !!options.json,
          out,
          details([
            ['id', `act_${a.id}`],
            ['name', a.name],
            ['organization', a.organizationId],
            ['status', String(a.accountStatus)],
            ['currency', a.currency],
            ['country', a.country],
            ['time zone', a.timezoneName],
            ['bulk', a.isBulk ? 'yes' : 'no'],
            ['DSA payor', a.defaultDsaPayor ?? '-'],
            ['DSA beneficiary', a.defaultDsaBeneficiary ?? '-'],
            ['spend cap', a.spendCap ?? 'none'],
            ['created', iso(a.createdTime)!],
            ['campaigns', String(campaigns)],
            ['ad sets', `${liveAdSets} of ${adSetLimit} (not deleted)`],
          ]),
        );
      }),
    );
}
