import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { cliEnv, cliJson, expectOneLineFailure, lines, runCli } from './helpers/cli.ts';
import { RESTRICTED_LOOKALIKE } from '../src/ads/store.ts';
import { insertObjects } from '../src/db/objects.ts';
import {
  adAccounts,
  customAudiences,
  customConversions,
  type AdAccountRecord,
  type CustomAudienceRecord,
  type CustomConversionRecord,
} from '../src/ads/store.ts';

/**
 * The operator's commands for ads and pages (DECISIONS section 7): `accounts create`, `pages create`,
 * `audiences flag` and `conversions flag`, run as child processes over a fresh database like test/cli.test.ts.
 */

const RESTRICTED = { code: RESTRICTED_LOOKALIKE.code, description: RESTRICTED_LOOKALIKE.description };

let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let orgId: string;

/** Every row of the tables these commands write, to prove a refused command wrote nothing. */
async function snapshot() {
  const all = (table: string) => database.db(table).select('*').orderBy('id');
  return {
    graphObjects: await all('graph_objects'),
    adAccounts: await all('ad_accounts'),
    pages: await all('pages'),
    groups: await all('groups'),
    audiences: await all('custom_audiences'),
    conversions: await all('custom_conversions'),
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
  orgId = (await cliJson(['orgs', 'create', '--name', 'Acme Admin'], env)).value.id;
});
afterAll(() => database?.dispose());

describe('help', () => {
  it('lists the admin commands and their options', async () => {
    const root = await runCli(['--help'], env);
    expect(root.code).toBe(0);
    for (const command of ['accounts', 'pages', 'audiences', 'conversions']) expect(root.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));

    const expected: Array<[string[], string[]]> = [
      [
        ['accounts', 'create'],
        ['--org', '--name', '--currency', '--country', '--bulk', '--default-dsa-payor', '--default-dsa-beneficiary', '--json'],
      ],
      [
        ['pages', 'create'],
        ['--org', '--name', '--json'],
      ],
      [
        ['audiences', 'flag'],
        ['<audience_id>', '--reason', 'health', 'financial', '--clear', '--json'],
      ],
      [
        ['conversions', 'flag'],
        ['<conversion_id>', '--reason', 'health', 'financial', '--clear', '--json'],
      ],
    ];
    for (const [command, options] of expected) {
      const help = await runCli([...command, '--help'], env);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain(`Usage: adgraph ${command.join(' ')}`);
      for (const option of options) expect(help.stdout).toContain(option);
    }
  });
});

describe('accounts create', () => {
  it('--json prints {id} and stores every field (organization by name, any case)', async () => {
    const { value } = await cliJson(
      [
        'accounts',
        'create',
        '--org',
        'acme admin',
        '--name',
        '  Acme Europe  ',
        '--currency',
        'EUR',
        '--country',
        'IE',
        '--bulk',
        '--default-dsa-payor',
        'Acme SA',
        '--default-dsa-beneficiary',
        'Acme Foundation',
      ],
      env,
    );
    expect(Object.keys(value)).toEqual(['id']);
    expect(value.id).toMatch(/^[1-9][0-9]+$/);
    const row = adAccounts.fromRow(await database.db('ad_accounts').where({ id: value.id }).first());
    expect(row).toMatchObject({
      id: value.id,
      organizationId: orgId,
      name: 'Acme Europe',
      currency: 'EUR',
      country: 'IE',
      isBulk: true,
      defaultDsaPayor: 'Acme SA',
      defaultDsaBeneficiary: 'Acme Foundation',
      accountStatus: 1,
      timezoneName: 'Etc/UTC',
      spendCap: null,
    });
    expect(await database.db('graph_objects').where({ id: value.id }).first()).toMatchObject({ type: 'ad_account' });
  });

  it('takes the organization by id; without --bulk and DSA defaults those are off and empty; limits are inclusive', async () => {
    const name = 'N'.repeat(255);
    const payor = 'P'.repeat(512);
    const { value } = await cliJson(
      ['accounts', 'create', '--org', orgId.toUpperCase(), '--name', name, '--currency', 'KRW', '--country', 'KR', '--default-dsa-payor', payor],
      env,
    );
    const row = adAccounts.fromRow(await database.db('ad_accounts').where({ id: value.id }).first());
    expect(row).toMatchObject({
      organizationId: orgId,
      name,
      currency: 'KRW',
      country: 'KR',
      isBulk: false,
      defaultDsaPayor: payor,
      defaultDsaBeneficiary: null,
    });
  });

  it('accepts every supported currency', async () => {
    const currencies = ['USD', 'EUR', 'GBP', 'JPY', 'KRW', 'CAD', 'AUD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'BRL', 'INR', 'MXN'];
    const help = await runCli(['accounts', 'create', '--help'], env);
    for (const currency of currencies) expect(help.stdout).toContain(currency);
    // Two through the command (the rest share the same check, and each run is a process start).
    for (const currency of ['MXN', 'JPY']) {
      const { value } = await cliJson(
        ['accounts', 'create', '--org', 'Acme Admin', '--name', `In ${currency}`, '--currency', currency, '--country', 'MX'],
        env,
      );
      expect(await database.db('ad_accounts').where({ id: value.id }).first()).toMatchObject({ currency });
    }
  });

  it('prints the id and name without --json', async () => {
    const result = await runCli(['accounts', 'create', '--org', 'Acme Admin', '--name', 'Plain', '--currency', 'USD', '--country', 'US'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toHaveLength(1);
    expect(result.stdout).toMatch(/^[1-9][0-9]+\s+Plain\s+USD US\n$/);
  });

  describe('refuses bad input with one line and writes nothing', () => {
    const base = { org: 'Acme Admin', name: 'Bad', currency: 'USD', country: 'US' };
    const cases: Array<{ name: string; options: Partial<typeof base>; extra?: string[]; mentions: RegExp }> = [
      { name: 'an unknown organization', options: { org: 'Globex' }, mentions: /org.*Globex/i },
      { name: 'an unsupported currency', options: { currency: 'XYZ' }, mentions: /currency.*XYZ.*ISO 4217/i },
      { name: 'a real currency we do not support', options: { currency: 'CNY' }, mentions: /currency.*CNY/i },
      { name: 'a lower-case currency', options: { currency: 'usd' }, mentions: /currency.*usd/i },
      { name: 'a lower-case country', options: { country: 'us' }, mentions: /country.*us.*ISO 3166-1 alpha-2/i },
      { name: 'a reserved country code', options: { country: 'UK' }, mentions: /country.*UK/ },
      { name: 'an alpha-3 country code', options: { country: 'USA' }, mentions: /country.*USA/ },
      { name: 'an empty name', options: { name: '' }, mentions: /^adgraph: name: .*1 to 255/ },
      { name: 'a blank name', options: { name: '   ' }, mentions: /^adgraph: name: .*1 to 255/ },
      { name: 'a name over 255 characters', options: { name: 'N'.repeat(256) }, mentions: /^adgraph: name: .*1 to 255/ },
      { name: 'a payor over 512 characters', options: {}, extra: ['--default-dsa-payor', 'P'.repeat(513)], mentions: /default-dsa-payor: .*512/ },
      {
        name: 'a beneficiary over 512 characters',
        options: {},
        extra: ['--default-dsa-beneficiary', 'B'.repeat(513)],
        mentions: /default-dsa-beneficiary: .*512/,
      },
      { name: 'an empty payor', options: {}, extra: ['--default-dsa-payor', ''], mentions: /default-dsa-payor: .*1 to 512/ },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const before = await snapshot();
        const o = { ...base, ...c.options };
        const result = await runCli(
          ['accounts', 'create', '--org', o.org, '--name', o.name, '--currency', o.currency, '--country', o.country, ...(c.extra ?? []), '--json'],
          env,
        );
        expectOneLineFailure(result, c.mentions);
        expect(await snapshot()).toEqual(before);
      });
    }

    it('a missing required option', async () => {
      const before = await snapshot();
      const result = await runCli(['accounts', 'create', '--org', 'Acme Admin', '--name', 'x', '--country', 'US', '--json'], env);
      expectOneLineFailure(result, /--currency/);
      expect(await snapshot()).toEqual(before);
    });
  });
});

describe.each([
  { command: 'pages', table: 'pages', type: 'page', extra: { category: null } },
  { command: 'groups', table: 'groups', type: 'group', extra: {} },
])('$command create', ({ command, table, type, extra }) => {
  it(`--json prints {id} and stores the ${type} in the organization`, async () => {
    const { value } = await cliJson([command, 'create', '--org', 'Acme Admin', '--name', 'Acme Trail Club'], env);
    expect(Object.keys(value)).toEqual(['id']);
    expect(await database.db(table).where({ id: value.id }).first()).toMatchObject({ organization_id: orgId, name: 'Acme Trail Club', ...extra });
    expect(await database.db('graph_objects').where({ id: value.id }).first()).toMatchObject({ type });
  });

  describe('refuses bad input with one line and writes nothing', () => {
    const cases: Array<{ name: string; args: string[]; mentions: RegExp }> = [
      { name: 'an unknown organization', args: ['--org', 'Globex', '--name', 'P'], mentions: /org.*Globex/i },
      { name: 'an empty name', args: ['--org', 'Acme Admin', '--name', ''], mentions: /^adgraph: name: .*1 to 255/ },
      { name: 'a name over 255 characters', args: ['--org', 'Acme Admin', '--name', 'P'.repeat(256)], mentions: /^adgraph: name: .*1 to 255/ },
      { name: 'no name', args: ['--org', 'Acme Admin'], mentions: /--name/ },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const before = await snapshot();
        expectOneLineFailure(await runCli([command, 'create', ...c.args, '--json'], env), c.mentions);
        expect(await snapshot()).toEqual(before);
      });
    }
  });
});

describe('audiences flag and conversions flag', () => {
  let account: AdAccountRecord;
  let otherAccount: AdAccountRecord;
  let source: CustomAudienceRecord;
  let otherSource: CustomAudienceRecord;
  let byId: CustomAudienceRecord;
  let byOrigin: CustomAudienceRecord;
  let byName: CustomAudienceRecord;
  let byNameElsewhere: CustomAudienceRecord;
  let twoSources: CustomAudienceRecord;
  let unrelated: CustomAudienceRecord;
  let chained: CustomAudienceRecord;
  let chainedOfTwo: CustomAudienceRecord;
  let conversion: CustomConversionRecord;

  const audience = async (id: string) => customAudiences.fromRow(await database.db('custom_audiences').where({ id }).first());
  const statusOf = async (id: string) => {
    const row = await audience(id);
    return { code: row.operationStatusCode, description: row.operationStatusDescription };
  };

  beforeAll(async () => {
    await database.db.transaction(async (trx) => {
      [account, otherAccount] = (await insertObjects<AdAccountRecord>(
        trx,
        'ad_account',
        adAccounts,
        ['Flags', 'Flags too'].map((name) => ({
          organizationId: orgId,
          name,
          accountStatus: 1,
          currency: 'USD',
          country: 'US',
          timezoneName: 'Etc/UTC',
          isBulk: false,
          defaultDsaPayor: null,
          defaultDsaBeneficiary: null,
          spendCap: null,
        })),
      )) as [AdAccountRecord, AdAccountRecord];
      const make = (
        acc: AdAccountRecord,
        name: string,
        subtype: string,
        lookalikeSpec: unknown,
        flaggedReason: 'health' | null = null,
        code = 200,
        description?: string,
      ) => ({
        organizationId: orgId,
        accountId: acc.id,
        name,
        subtype,
        description: null,
        lookalikeSpec,
        flaggedReason,
        operationStatusCode: code,
        operationStatusDescription: description ?? (code === 471 ? RESTRICTED.description : 'Normal'),
      });
      [source, otherSource] = (await insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
        make(account, 'Allergy guide visitors', 'WEBSITE', null),
        make(account, 'Loan applicants', 'CUSTOM', null, 'health'),
      ])) as [CustomAudienceRecord, CustomAudienceRecord];
      [byId, byOrigin, byName, byNameElsewhere, twoSources, unrelated] = (await insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
        // The key the API stores, and the Graph API's read-back shape (in another account: ids are global).
        make(account, 'Lookalike by id', 'LOOKALIKE', { ratio: 0.01, country: 'US', origin_audience_id: source.id }),
        make(otherAccount, 'Lookalike by origin', 'LOOKALIKE', {
          ratio: 0.02,
          country: 'US',
          origin: [{ id: source.id, name: source.name, type: 'custom_audience' }],
        }),
        // The demo seed's key: a name, which only counts within the source's account.
        make(account, 'Lookalike by name', 'LOOKALIKE', { ratio: 0.01, country: 'US', origin_audience_name: source.name }),
        make(otherAccount, 'Same name, other account', 'LOOKALIKE', { ratio: 0.01, country: 'US', origin_audience_name: source.name }),
        // Restricted already by its other (flagged) source: stays 471 when this source is cleared.
        make(account, 'Lookalike of two', 'LOOKALIKE', { ratio: 0.03, country: 'US', origin: [{ id: source.id }, { id: otherSource.id }] }, null, 471),
        make(account, 'Lookalike of another', 'LOOKALIKE', { ratio: 0.01, country: 'US', origin_audience_id: otherSource.id }, null, 471),
      ])) as CustomAudienceRecord[] as [
        CustomAudienceRecord,
        CustomAudienceRecord,
        CustomAudienceRecord,
        CustomAudienceRecord,
        CustomAudienceRecord,
        CustomAudienceRecord,
      ];
      // Lookalikes of lookalikes: restricted when their source is (as the API decides on create).
      [chained, chainedOfTwo] = (await insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
        make(account, 'Lookalike of a lookalike', 'LOOKALIKE', { ratio: 0.05, country: 'US', origin_audience_id: byId.id }),
        make(
          account,
          'Lookalike of the two',
          'LOOKALIKE',
          { ratio: 0.05, country: 'US', origin_audience_id: twoSources.id },
          null,
          471,
          'Restricted upstream.',
        ),
      ])) as [CustomAudienceRecord, CustomAudienceRecord];
      [conversion] = (await insertObjects<CustomConversionRecord>(trx, 'custom_conversion', customConversions, [
        {
          organizationId: orgId,
          accountId: account.id,
          name: 'Symptom checker finished',
          rule: null,
          customEventType: 'OTHER',
          flaggedReason: null,
        },
      ])) as [CustomConversionRecord];
    });
  });

  it('flagging an audience sets its reason and makes every lookalike made from it (or from those) 471', async () => {
    const before = await audience(source.id);
    const { value } = await cliJson(['audiences', 'flag', source.id, '--reason', 'health'], env);
    expect(value).toEqual({
      id: source.id,
      flagged_reason: 'health',
      lookalikes: expect.arrayContaining([
        ...[byId, byOrigin, byName, twoSources, chained].map((l) => ({ id: l.id, operation_status: RESTRICTED })),
        // Already restricted: keeps its description.
        { id: chainedOfTwo.id, operation_status: { code: 471, description: 'Restricted upstream.' } },
      ]),
    });
    expect(value.lookalikes).toHaveLength(6);

    const after = await audience(source.id);
    expect(after).toMatchObject({ flaggedReason: 'health', operationStatusCode: 200 });
    expect(after.updatedTime.getTime()).toBeGreaterThanOrEqual(before.updatedTime.getTime());
    for (const lookalike of [byId, byOrigin, byName, twoSources, chained]) expect(await statusOf(lookalike.id), lookalike.name).toEqual(RESTRICTED);
    expect(await statusOf(chainedOfTwo.id)).toEqual({ code: 471, description: 'Restricted upstream.' });
    expect(await statusOf(byNameElsewhere.id)).toEqual({ code: 200, description: 'Normal' });
    expect(await statusOf(unrelated.id)).toEqual(RESTRICTED);
    expect((await audience(otherSource.id)).flaggedReason).toBe('health');
  });

  it('flagging again with another reason replaces the reason', async () => {
    const { value } = await cliJson(['audiences', 'flag', source.id, '--reason', 'financial'], env);
    expect(value.flagged_reason).toBe('financial');
    expect((await audience(source.id)).flaggedReason).toBe('financial');
    expect(await statusOf(byId.id)).toEqual(RESTRICTED);
  });

  it('--clear removes the flag and puts its lookalikes back to 200, unless another source is still flagged or restricted', async () => {
    const { value } = await cliJson(['audiences', 'flag', source.id, '--clear'], env);
    expect(value.id).toBe(source.id);
    expect(value.flagged_reason).toBeNull();
    expect((await audience(source.id)).flaggedReason).toBeNull();
    for (const lookalike of [byId, byOrigin, byName, chained])
      expect(await statusOf(lookalike.id), lookalike.name).toEqual({ code: 200, description: 'Normal' });
    expect(await statusOf(twoSources.id)).toEqual(RESTRICTED);
    expect(await statusOf(chainedOfTwo.id)).toEqual({ code: 471, description: 'Restricted upstream.' });
    expect(value.lookalikes).toHaveLength(6);
    expect(await statusOf(unrelated.id)).toEqual(RESTRICTED);
  });

  it('prints one line per lookalike without --json', async () => {
    const result = await runCli(['audiences', 'flag', source.id, '--reason', 'health'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)[0]).toBe(`${source.id}  flagged: health`);
    expect(lines(result.stdout).filter((line) => /lookalike \d+: operation_status 471/.test(line))).toHaveLength(6);
  });

  it('flags a conversion, and clears it', async () => {
    const flagged = await cliJson(['conversions', 'flag', conversion.id, '--reason', 'health'], env);
    expect(flagged.value).toEqual({ id: conversion.id, flagged_reason: 'health' });
    expect(await database.db('custom_conversions').where({ id: conversion.id }).first()).toMatchObject({ flagged_reason: 'health' });

    const cleared = await cliJson(['conversions', 'flag', conversion.id, '--clear'], env);
    expect(cleared.value).toEqual({ id: conversion.id, flagged_reason: null });
    expect(await database.db('custom_conversions').where({ id: conversion.id }).first()).toMatchObject({ flagged_reason: null });
  });

  describe('refuse bad input with one line and write nothing', () => {
    const cases: Array<{ name: string; args: () => string[]; mentions: RegExp }> = [
      {
        name: 'an audience id nothing has',
        args: () => ['audiences', 'flag', '999999999999999', '--reason', 'health'],
        mentions: /audience_id: No custom audience 999999999999999/,
      },
      {
        name: 'a conversion id given as an audience',
        args: () => ['audiences', 'flag', conversion.id, '--reason', 'health'],
        mentions: /audience_id: \d+ is a custom conversion, not a custom audience/,
      },
      {
        name: 'an ad account id given as an audience',
        args: () => ['audiences', 'flag', account.id, '--reason', 'health'],
        mentions: /audience_id: .* is an ad account, not a custom audience/,
      },
      {
        name: 'a malformed audience id',
        args: () => ['audiences', 'flag', 'act_12', '--reason', 'health'],
        mentions: /audience_id: "act_12" is not a custom audience id/,
      },
      { name: 'an unknown reason', args: () => ['audiences', 'flag', source.id, '--reason', 'political'], mentions: /--reason.*political.*health, financial/ },
      { name: 'neither --reason nor --clear', args: () => ['audiences', 'flag', source.id], mentions: /reason: .*--reason.*--clear/ },
      { name: 'both --reason and --clear', args: () => ['audiences', 'flag', source.id, '--reason', 'health', '--clear'], mentions: /--clear.*--reason/ },
      { name: 'no audience id', args: () => ['audiences', 'flag', '--reason', 'health'], mentions: /audience_id/ },
      {
        name: 'a conversion id nothing has',
        args: () => ['conversions', 'flag', '999999999999999', '--reason', 'financial'],
        mentions: /conversion_id: No custom conversion 999999999999999/,
      },
      {
        name: 'an audience id given as a conversion',
        args: () => ['conversions', 'flag', source.id, '--reason', 'financial'],
        mentions: /conversion_id: .* is a custom audience, not a custom conversion/,
      },
      {
        name: 'a malformed conversion id',
        args: () => ['conversions', 'flag', '12abc', '--clear'],
        mentions: /conversion_id: "12abc" is not a custom conversion id/,
      },
      { name: 'an unknown conversion reason', args: () => ['conversions', 'flag', conversion.id, '--reason', 'Health'], mentions: /--reason.*Health/ },
      { name: 'a conversion without --reason or --clear', args: () => ['conversions', 'flag', conversion.id], mentions: /reason: / },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const before = await snapshot();
        expectOneLineFailure(await runCli([...c.args(), '--json'], env), c.mentions);
        expect(await snapshot()).toEqual(before);
      });
    }
  });
});
