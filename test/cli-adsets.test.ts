import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { cliEnv, cliJson, expectOneLineFailure, runCli } from './helpers/cli.ts';
import { insertObjects } from '../src/db/objects.ts';
import { campaigns, type CampaignRecord } from '../src/ads/store.ts';

/**
 * The operator's commands a tester of ad sets needs (issue 9): `accounts update` (bulk, DSA defaults, which the
 * ad set rules read) and `adsets fill` (an account at or near its ad set limit without thousands of API calls).
 * Child processes over a fresh database, like test/cli-admin.test.ts.
 */

let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let accountId: string;
let campaign: CampaignRecord;

beforeAll(async () => {
  database = await createTestDatabase();
  // A small limit, so the tests reach it.
  env = cliEnv(database, { AD_SET_LIMIT: '8', AD_SET_LIMIT_BULK: '12' });
  const orgId = (await cliJson(['orgs', 'create', '--name', 'Fill Co'], env)).value.id;
  accountId = (await cliJson(['accounts', 'create', '--org', orgId, '--name', 'EU', '--currency', 'EUR', '--country', 'DE'], env)).value.id;
  [campaign] = (await database.db.transaction((trx) =>
    insertObjects<CampaignRecord>(trx, 'campaign', campaigns, [
      {
        organizationId: orgId,
        accountId,
        name: 'C',
        objective: 'OUTCOME_TRAFFIC',
        status: 'ACTIVE',
        specialAdCategories: [],
        specialAdCategoryCountry: null,
        bidStrategy: null,
        buyingType: 'AUCTION',
        dailyBudget: null,
        lifetimeBudget: null,
        spendCap: null,
        activeSeconds: '0',
        statusChangedTime: null,
        startTime: null,
        stopTime: null,
      },
    ]),
  )) as [CampaignRecord];
});
afterAll(() => database?.dispose());

const accountRow = () => database.db('ad_accounts').where({ id: accountId }).first();

describe('accounts update', () => {
  it('sets and clears the DSA defaults and the bulk flag', async () => {
    const set = await cliJson(
      ['accounts', 'update', `act_${accountId}`, '--bulk', '--default-dsa-payor', 'Fill Co GmbH', '--default-dsa-beneficiary', 'Fill Co'],
      env,
    );
    expect(set.value).toEqual({ id: accountId, is_bulk: true, default_dsa_payor: 'Fill Co GmbH', default_dsa_beneficiary: 'Fill Co', restricted_reason: null });
    const cleared = await cliJson(['accounts', 'update', accountId, '--no-bulk', '--clear-default-dsa-payor'], env);
    expect(cleared.value).toEqual({ id: accountId, is_bulk: false, default_dsa_payor: null, default_dsa_beneficiary: 'Fill Co', restricted_reason: null });
    const row = await accountRow();
    expect({ bulk: Boolean(row.is_bulk), payor: row.default_dsa_payor }).toEqual({ bulk: false, payor: null });
  });

  it.each([
    [['accounts', 'update', '999999999999'], /^adgraph: account: No ad account 999999999999\.$/m],
    [['accounts', 'update', 'act_x'], /account: "x" is not an ad account id/],
    [['accounts', 'update', 'ACCOUNT'], /Nothing to change/],
    [['accounts', 'update', 'ACCOUNT', '--default-dsa-payor', ' '], /default-dsa-payor: The default DSA payor must be 1 to 512 characters/],
    [['accounts', 'update', 'ACCOUNT', '--default-dsa-payor', 'x'.repeat(513)], /default-dsa-payor/],
    [['accounts', 'update', 'ACCOUNT', '--clear-default-dsa-payor', '--default-dsa-payor', 'x'], /cannot be used with/],
    [['accounts', 'update', 'ACCOUNT', '--restrict', ' '], /restrict: The restriction needs a reason of 1 to 500 characters/],
    [['accounts', 'update', 'ACCOUNT', '--restrict', 'Spam', '--unrestrict'], /cannot be used with/],
  ])('refuses %j in one line and changes nothing', async (args, message) => {
    const before = await accountRow();
    expectOneLineFailure(
      await runCli(
        args.map((a) => (a === 'ACCOUNT' ? accountId : a)),
        env,
      ),
      message,
    );
    expect(await accountRow()).toEqual(before);
  });
});

describe('adsets fill', () => {
  const liveCount = async () =>
    Number(
      ((await database.db('ad_sets').where({ account_id: accountId }).whereNot({ status: 'DELETED' }).count({ n: '*' })) as Array<{ n: number | string }>)[0]!
        .n,
    );

  it('adds paused ad sets that satisfy the ad set rules, up to the limit and not beyond', async () => {
    const filled = await cliJson(['adsets', 'fill', '--campaign', campaign.id, '--count', '7'], env);
    expect(filled.value).toEqual({ campaign_id: campaign.id, created: 7, live_ad_sets: 7, limit: 8 });
    const rows = await database.db('ad_sets').where({ campaign_id: campaign.id });
    expect(rows.every((row: { status: string }) => row.status === 'PAUSED')).toBe(true);
    // The account is now one below its limit: one more fits, two do not (error 2695's rule), nothing written.
    const tooMany = await runCli(['adsets', 'fill', '--campaign', campaign.id, '--count', '2'], env);
    expectOneLineFailure(tooMany, /count: .*at most 8/);
    expect(await liveCount()).toBe(7);
    expect((await cliJson(['adsets', 'fill', '--campaign', campaign.id, '--count', '1'], env)).value.live_ad_sets).toBe(8);
  });

  it.each([
    [['adsets', 'fill', '--campaign', 'CAMPAIGN', '--count', 'many'], /count: "many" is not a whole number/],
    [['adsets', 'fill', '--campaign', 'CAMPAIGN', '--count', '0'], /count must be a whole number from 1 to 20000/],
    [['adsets', 'fill', '--campaign', 'ACCOUNT', '--count', '1'], /is an ad account, not a campaign/],
    [['adsets', 'fill', '--campaign', '999999999999', '--count', '1'], /No campaign 999999999999/],
    [['adsets', 'fill', '--count', '1'], /required option '--campaign/],
  ])('refuses %j in one line', async (args, message) => {
    const before = await liveCount();
    expectOneLineFailure(
      await runCli(
        args.map((a) => (a === 'CAMPAIGN' ? campaign.id : a === 'ACCOUNT' ? accountId : a)),
        env,
      ),
      message,
    );
    expect(await liveCount()).toBe(before);
  });
});
