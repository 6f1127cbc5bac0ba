import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLArgument, GraphQLField, GraphQLInputObjectType, GraphQLInputType, GraphQLObjectType } from 'graphql';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { worldBuilder, PASSWORD } from '../helpers/world.ts';
import { dataOf, firstError } from '../helpers/api.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { ARGUMENT_ALIASES, argumentPath, graphqlMessage } from '../../src/graphql/errors.ts';

// Issue 13 item 5: a GraphQL error names the GraphQL path of the argument at fault (input.lifetimeBudget,
// checks[0].object.anyOrg, input.targeting.geoLocations.countries; inside JSON the keys as sent), never the
// snake_case name /v24.0 and /api/v2 use. The services name fields once, in snake_case; src/graphql/errors.ts
// translates them, in one place, from the schema. Here: the translation over the whole schema, then every error
// the GraphQL writes raise for bad values of every input field, each checked against the schema independently.

const schema = buildSchema();
// By tag, not instanceof: the schema may come from the other build of graphql-js under the test runner.
const tag = (type: unknown) => (type as { [Symbol.toStringTag]?: string })[Symbol.toStringTag];
const unwrapNonNull = (type: GraphQLInputType): GraphQLInputType => (tag(type) === 'GraphQLNonNull' ? (type as { ofType: GraphQLInputType }).ofType : type);
const rootFields = (name: 'Query' | 'Mutation') =>
  Object.values((schema.getType(name) as GraphQLObjectType).getFields()) as Array<GraphQLField<unknown, unknown>>;
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Whether `path` names something the caller can send to `field`: an argument, then input fields by their exact
 * names and list positions; inside a JSON value anything goes (its keys are the caller's). Written apart from
 * argumentPath on purpose, so the two cannot share a mistake.
 */
function pathExists(field: GraphQLField<unknown, unknown>, path: string): boolean {
  const [first, ...rest] = path.split(/\.|(?=\[)/);
  let type: GraphQLInputType | undefined = field.args.find((arg) => arg.name === first)?.type;
  for (const step of rest) {
    if (type === undefined) return false;
    type = unwrapNonNull(type);
    if (tag(type) === 'GraphQLScalarType' && (type as { name: string }).name === 'JSON') return true;
    const index = /^\[(\d+)\]$/.exec(step);
    if (index) type = tag(type) === 'GraphQLList' ? (type as { ofType: GraphQLInputType }).ofType : undefined;
    else type = tag(type) === 'GraphQLInputObjectType' ? (type as GraphQLInputObjectType).getFields()[step]?.type : undefined;
  }
  return type !== undefined;
}

describe("argumentPath: the services' names as GraphQL paths, from the schema", () => {
  const field = (root: 'Query' | 'Mutation', name: string) => rootFields(root).find((f) => f.name === name)!;

  it.each([
    ['Mutation', 'createAdSet', 'lifetime_budget', 'input.lifetimeBudget'],
    ['Mutation', 'updateAdSet', 'daily_budget', 'input.dailyBudget'],
    // Issue 20: the typed specs (graphql-shapes.ts), walked by their GraphQL names.
    ['Mutation', 'createAdSet', 'targeting.geo_locations.countries', 'input.targeting.geoLocations.countries'],
    ['Mutation', 'createAdSet', 'targeting.flexible_spec[0].interests', 'input.targeting.flexibleSpec[0].interests'],
    ['Mutation', 'validateAdSet', 'targeting.custom_audiences[1]', 'input.targeting.customAudiences[1]'],
    ['Mutation', 'updateAdSet', 'targeting.excluded_geo_locations.zips', 'input.targeting.excludedGeoLocations.zips'],
    ['Mutation', 'createAdSet', 'promoted_object.custom_conversion_id', 'input.promotedObject.customConversionId'],
    ['Mutation', 'createAdSet', 'source_adset_id', 'input.sourceAdSetId'],
    // What stays JSON goes on in the keys as sent.
    ['Mutation', 'createAdSet', 'bid_adjustments.user_groups', 'input.bidAdjustments.user_groups'],
    ['Mutation', 'createCampaign', 'special_ad_categories[1]', 'input.specialAdCategories[1]'],
    ['Mutation', 'createAd', 'adset_id', 'input.adSetId'],
    ['Mutation', 'copyAdSet', 'rename_options.rename_strategy', 'input.renameOptions.renameStrategy'],
    ['Mutation', 'copyAdSet', 'id', 'id'],
    ['Mutation', 'publishComment', 'message', 'input.message'],
    ['Mutation', 'publishComment', 'id', 'objectId'],
    ['Mutation', 'setCommentHidden', 'is_hidden', 'hidden'],
    ['Mutation', 'changePasswordWithOneTimePasscode', 'one_time_passcode', 'input.oneTimePasscode'],
    ['Mutation', 'login', 'email', 'input.email'],
    ['Mutation', 'migrateIndexDateFormats', 'new_index', 'input.newIndex'],
    ['Query', 'authCheck', 'checks.3.object.any_org', 'checks[3].object.anyOrg'],
    ['Query', 'convertDateFormat', 'format', 'format'],
    ['Query', 'adSets', 'effective_status', 'effectiveStatus'],
  ] as const)('%s.%s: %s is %s', (root, name, domain, path) => {
    expect(argumentPath(root, field(root, name), domain)).toBe(path);
    expect(pathExists(field(root, name), path)).toBe(true);
  });

  it('a name no argument holds is no path (the error then names no field)', () => {
    // A copy refused for its source's payor: copyAdSet takes no dsaPayor.
    expect(argumentPath('Mutation', field('Mutation', 'copyAdSet'), 'dsa_payor')).toBeUndefined();
    expect(argumentPath('Mutation', field('Mutation', 'createAdSet'), 'lifetime_budget.amount')).toBeUndefined();
    expect(argumentPath('Mutation', field('Mutation', 'createCampaign'), 'special_ad_categories.name')).toBeUndefined();
  });

  it('every input field of every operation maps back from its snake_case name, at any depth', () => {
    const checked: string[] = [];
    const visit = (
      root: 'Query' | 'Mutation',
      f: GraphQLField<unknown, unknown>,
      type: GraphQLInputType,
      graphqlPath: string,
      domainPath: string,
      depth: number,
    ) => {
      const named = unwrapNonNull(type);
      if (tag(named) === 'GraphQLList') return visit(root, f, (named as { ofType: GraphQLInputType }).ofType, `${graphqlPath}[0]`, `${domainPath}[0]`, depth);
      expect(argumentPath(root, f, domainPath), `${root}.${f.name}: ${domainPath}`).toBe(graphqlPath);
      checked.push(`${f.name}: ${graphqlPath}`);
      if (tag(named) !== 'GraphQLInputObjectType' || depth > 3) return;
      // A deprecated spelling (sourceAdsetId) shares its service name with the current one, which a path names.
      for (const inner of Object.values((named as GraphQLInputObjectType).getFields()).filter((inner) => !inner.deprecationReason)) {
        visit(root, f, inner.type, `${graphqlPath}.${inner.name}`, `${domainPath}.${snake(inner.name)}`, depth + 1);
      }
    };
    for (const root of ['Query', 'Mutation'] as const) {
      for (const f of rootFields(root)) {
        for (const arg of f.args as GraphQLArgument[]) {
          visit(root, f, arg.type, arg.name, snake(arg.name), 0);
          // The services get an input object's fields as top-level parameters (graphParams): those map too.
          const named = unwrapNonNull(arg.type);
          if (tag(named) !== 'GraphQLInputObjectType') continue;
          for (const inner of Object.values((named as GraphQLInputObjectType).getFields()).filter((inner) => !inner.deprecationReason)) {
            expect(argumentPath(root, f, snake(inner.name)), `${root}.${f.name}: ${inner.name}`).toBe(`${arg.name}.${inner.name}`);
          }
        }
      }
    }
    expect(checked).toContain('createAdSet: input.lifetimeBudget');
    expect(checked).toContain('createAdSet: input.targeting.geoLocations.countries[0]');
    expect(checked).toContain('updateAdSet: input.targeting.flexibleSpec[0].customAudiences[0].id');
    expect(checked).toContain('authCheck: checks[0].object.anyOrg');
  });

  it('every alias names an argument the field has', () => {
    for (const [coordinate, aliases] of Object.entries(ARGUMENT_ALIASES)) {
      const [root, name] = coordinate.split('.') as ['Query' | 'Mutation', string];
      const f = field(root, name);
      expect(f, coordinate).toBeDefined();
      for (const [domain, argument] of Object.entries(aliases)) {
        expect(
          f.args.map((arg) => arg.name),
          coordinate,
        ).toContain(argument);
        expect(argumentPath(root, f, domain)).toBe(argument);
      }
    }
  });
});

describe("graphqlMessage: the services' messages in GraphQL's words", () => {
  const field = (root: 'Query' | 'Mutation', name: string) => rootFields(root).find((f) => f.name === name)!;

  it.each([
    // The parameter introduced, and every other one the message names, as GraphQL paths.
    ['Mutation', 'createAdSet', 'end_time', 'Param end_time must be after start_time', 'input.endTime must be after input.startTime'],
    ['Mutation', 'createAd', 'adset_id', 'The parameter adset_id is required', 'input.adSetId is required'],
    ['Mutation', 'setCommentHidden', 'is_hidden', 'Param is_hidden cannot be true: why', 'hidden cannot be true: why'],
    ['Query', 'authCheck', 'checks.0.object.any_org', 'Param checks.0.object.any_org must be a boolean', 'checks[0].object.anyOrg must be a boolean'],
    // Inside a typed spec (targeting is an input object) by its GraphQL names too.
    [
      'Mutation',
      'createAdSet',
      'targeting.age_max',
      'Param targeting.age_max must not be below targeting.age_min',
      'input.targeting.ageMax must not be below input.targeting.ageMin',
    ],
    // The allowed values of the parameter at fault by their GraphQL enum names.
    [
      'Mutation',
      'createPagePost',
      'kind',
      'Param kind must be one of {photo, video, event, review}',
      'input.kind must be one of {PHOTO, VIDEO, EVENT, REVIEW}',
    ],
    // A property of a stored object, no argument of the field: its GraphQL field name.
    ['Mutation', 'copyAdSet', 'dsa_payor', 'Param dsa_payor is required for ad sets targeting the EU', 'dsaPayor is required for ad sets targeting the EU'],
    // English words, quoted values and other snake_case stay as they are.
    ['Mutation', 'createAdSet', 'name', 'Param name must not be "end_time" or act_12', 'input.name must not be "end_time" or act_12'],
  ] as const)('%s.%s (%s): %s', (root, name, domain, message, expected) => {
    expect(graphqlMessage(root, field(root, name), message, domain)).toBe(expected);
  });
});

describe('every error a write raises for a bad value names a path of its arguments', () => {
  let server: TestServer;
  let token: string;
  let ids: Record<'account' | 'campaign' | 'adSet' | 'ad' | 'page' | 'post' | 'comment' | 'org' | 'user', string>;
  let email: string;

  beforeAll(async () => {
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    const owner = await world.user({ organizationId: org.id, role: 'owner' });
    token = owner.token;
    email = owner.user.email;
    const account = await world.adAccount(org.id);
    const [campaign] = await world.campaigns(account, 1);
    const [adSet] = await world.adSets(campaign!, 1, () => ({ billingEvent: 'IMPRESSIONS', dailyBudget: '5000' }));
    const [ad] = await world.ads(adSet!, 1);
    const page = await world.page(org.id);
    const post = await world.post(page);
    const comment = await world.comment(post);
    ids = {
      account: account.id,
      campaign: campaign!.id,
      adSet: adSet!.id,
      ad: ad!.id,
      page: page.id,
      post: post.id,
      comment: `${comment.postId}_${comment.id}`,
      org: org.id,
      user: owner.user.id,
    };
  });
  afterAll(() => server?.close());

  const US = { geoLocations: { countries: ['US'] } };

  /** Each operation with arguments that succeed, so that each bad value below is the only thing wrong. */
  const operations = (): Array<{ name: string; args: Record<string, unknown> }> => [
    { name: 'createCampaign', args: { accountId: ids.account, input: { name: 'C', objective: 'OUTCOME_TRAFFIC', specialAdCategories: [] } } },
    { name: 'updateCampaign', args: { id: ids.campaign, input: { name: 'C' } } },
    { name: 'createAd', args: { accountId: ids.account, input: { name: 'A', adSetId: ids.adSet, creative: {} } } },
    { name: 'updateAd', args: { id: ids.ad, input: { name: 'A' } } },
    { name: 'createCustomAudience', args: { accountId: ids.account, input: { name: 'Au' } } },
    { name: 'createCustomConversion', args: { accountId: ids.account, input: { name: 'Cv', rule: { url: 'x' } } } },
    {
      name: 'createAdSet',
      args: { accountId: ids.account, input: { name: 'S', campaignId: ids.campaign, billingEvent: 'IMPRESSIONS', targeting: US, dailyBudget: 5000 } },
    },
    { name: 'updateAdSet', args: { id: ids.adSet, input: { name: 'S' } } },
    { name: 'copyAdSet', args: { id: ids.adSet, input: {} } },
    { name: 'createPagePost', args: { pageId: ids.page, input: { message: 'P' } } },
    { name: 'publishComment', args: { objectId: ids.post, input: { message: 'M' } } },
    { name: 'editComment', args: { id: ids.comment, input: { message: 'M' } } },
    { name: 'login', args: { input: { email, password: PASSWORD } } },
    { name: 'changePasswordWithOneTimePasscode', args: { input: { email, oneTimePasscode: '12345678', password: 'Another-Horse-7-Staple' } } },
    { name: 'convertLogin', args: { user: 'me', input: { toType: 'GITHUB', password: PASSWORD } } },
    { name: 'addOrganizationMember', args: { input: { organizationId: ids.org, email, role: 'MEMBER' } } },
    { name: 'updateUser', args: { input: { id: ids.user, name: 'Owner' } } },
    { name: 'convertDateFormat', args: { format: 'yyyy-MM-dd' } },
    { name: 'convertIndexMapping', args: { mapping: {} } },
    { name: 'authCheck', args: { checks: [{ label: 'x', action: 'READ', object: { resourceType: 'CAMPAIGN' } }] } },
  ];

  /** Values of each type that the rules refuse in some field (too long, empty, negative, not an id, not an object ...). */
  const BAD: Record<string, unknown[]> = {
    String: ['', ' ', 'x'.repeat(70_000), 'nul \u0000', 'not a url', 'bad!name'],
    ID: ['abc', '999999999999999', '0'],
    BigInt: ['0', '-1', '9007199254740992'],
    Int: [0, -3, 99],
    Float: [-1],
    JSON: ['not json', [1, 2], { geo_locations: { countries: ['XX'] }, age_min: 3, custom_audiences: ['1'] }, { ratio: 0.9 }, 'x'.repeat(70_000)],
    TargetingInput: [
      { geoLocations: { countries: ['XX'] } },
      { geoLocations: { countries: ['US'] }, ageMin: 3 },
      { geoLocations: { countries: ['US'] }, customAudiences: [{ id: '1' }] },
      { geoLocations: {}, flexibleSpec: [{ customAudiences: [{ id: 'x' }] }] },
    ],
    PromotedObjectInput: [{ customConversionId: '999' }],
    BidConstraintsInput: [{ roasAverageFloor: 0 }],
    '[AttributionSpecInput]': [Array.from({ length: 3 }, () => ({ eventType: 'x'.repeat(70_000), windowDays: 1 }))],
    DateTime: ['1971-01-01T00:00:00Z', '2099-01-01T00:00:00Z'],
    EmailAddress: [`${'a'.repeat(250)}@example.com`],
    Boolean: [true],
  };

  const typeName = (type: GraphQLInputType): string => {
    const named = unwrapNonNull(type);
    return tag(named) === 'GraphQLList' ? `[${typeName((named as { ofType: GraphQLInputType }).ofType)}]` : (named as { name: string }).name;
  };

  /** The variables' declarations and the call, from the field's own arguments. */
  function document(f: GraphQLField<unknown, unknown>, root: 'Query' | 'Mutation') {
    const declarations = f.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const call = f.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const selection = tag(getNamed(f.type)) === 'GraphQLScalarType' ? '' : ' { __typename }';
    return `${root === 'Query' ? 'query' : 'mutation'} (${declarations}) { ${f.name}(${call})${selection} }`;
  }
  const getNamed = (type: unknown): unknown => ('ofType' in (type as object) ? getNamed((type as { ofType: unknown }).ofType) : type);

  it('over every input field of every write, with bad values of its type', async () => {
    const named: string[] = [];
    for (const operation of operations()) {
      const root = rootFields('Mutation').some((f) => f.name === operation.name) ? 'Mutation' : 'Query';
      const f = rootFields(root).find((candidate) => candidate.name === operation.name)!;
      const query = document(f, root);
      const control: GraphQLBody = (await server.graphql(query, operation.args, token)).body;
      const variants: Array<Record<string, unknown>> = [];
      for (const arg of f.args) {
        const argType = unwrapNonNull(arg.type);
        if (tag(argType) === 'GraphQLInputObjectType') {
          for (const inner of Object.values((argType as GraphQLInputObjectType).getFields())) {
            for (const value of BAD[typeName(inner.type)] ?? []) {
              variants.push({ ...operation.args, [arg.name]: { ...(operation.args[arg.name] as Record<string, unknown>), [inner.name]: value } });
            }
          }
        } else {
          for (const value of BAD[typeName(arg.type)] ?? []) variants.push({ ...operation.args, [arg.name]: value });
        }
      }
      for (const variables of variants) {
        const { status, body } = await server.graphql(query, variables, token);
        expect(status, JSON.stringify(body)).toBeLessThan(500);
        for (const error of body.errors ?? []) {
          expect(error.extensions?.code, JSON.stringify(error)).not.toBe('INTERNAL_SERVER_ERROR');
          const field = error.extensions?.field as string | undefined;
          // A rule's refusal of a parameter (it carries the Graph API's code) names where it is: a service naming
          // a field the arguments do not have would lose it here.
          if (error.extensions?.code === 'BAD_USER_INPUT' && error.extensions.graphApi) expect(field, JSON.stringify(error)).toBeDefined();
          if (field === undefined) continue;
          expect(pathExists(f, field), `${operation.name} ${JSON.stringify(variables).slice(0, 200)} named ${field}`).toBe(true);
          named.push(`${operation.name}: ${field}`);
        }
      }
      // The control itself succeeded or failed for reasons of its own (one-time passcode): never a field of ours left snake_case.
      for (const error of control.errors ?? []) if (error.extensions?.field) expect(pathExists(f, error.extensions.field as string)).toBe(true);
    }
    // The sweep reached the fields the issue names.
    for (const expected of [
      'createAdSet: input.dailyBudget',
      'createAdSet: input.targeting.geoLocations.countries',
      'createAdSet: input.targeting.ageMin',
      'createAdSet: input.targeting.customAudiences[0]',
      'createAdSet: input.promotedObject.customConversionId',
      'createCampaign: input.dailyBudget',
      'publishComment: input.message',
      'editComment: input.message',
      'login: input.email',
      'convertDateFormat: format',
      'createAd: input.adSetId',
    ])
      expect(named).toContain(expected);
  }, 120_000);

  const CREATE_AD_SET = 'mutation ($a: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $a, input: $input) { id } }';
  const UPDATE_AD_SET = 'mutation ($id: ID!, $input: UpdateAdSetInput!) { updateAdSet(id: $id, input: $input) { id } }';
  const baseAdSet = () => ({ name: 'S', campaignId: ids.campaign, billingEvent: 'IMPRESSIONS', targeting: US, dailyBudget: 5000 });
  const fieldOf = async (query: string, variables: Record<string, unknown>) =>
    firstError((await server.graphql(query, variables, token)).body).extensions?.field;

  it('ad set budgets, on create and on update', async () => {
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), dailyBudget: 10 } })).toBe('input.dailyBudget');
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), dailyBudget: null, lifetimeBudget: 100000 } })).toBe('input.endTime');
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), lifetimeBudget: 100000, endTime: '2031-01-01T00:00:00Z' } })).toBe(
      'input.lifetimeBudget',
    );
    expect(await fieldOf(UPDATE_AD_SET, { id: ids.adSet, input: { dailyBudget: 10 } })).toBe('input.dailyBudget');
    expect(await fieldOf(UPDATE_AD_SET, { id: ids.adSet, input: { lifetimeBudget: 100000 } })).toBe('input.lifetimeBudget');
  });

  it('targeting sub-fields, by their GraphQL names', async () => {
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), targeting: { geoLocations: {}, ageMin: 20 } } })).toBe(
      'input.targeting.geoLocations.countries',
    );
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), targeting: { geoLocations: { countries: [] } } } })).toBe(
      'input.targeting.geoLocations.countries',
    );
    const targeting = { geoLocations: { countries: ['US'] }, ageMin: 30, ageMax: 20 };
    expect(await fieldOf(UPDATE_AD_SET, { id: ids.adSet, input: { targeting } })).toBe('input.targeting.ageMax');
    const audiences = { geoLocations: { countries: ['US'] }, customAudiences: [{ id: ids.account }, { id: '12' }] };
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), targeting: audiences } })).toBe('input.targeting.customAudiences[0]');
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), promotedObject: { customConversionId: '12' } } })).toBe(
      'input.promotedObject.customConversionId',
    );
    // Left JSON: the keys as sent.
    expect(await fieldOf(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), bidAdjustments: 'x'.repeat(70_000) } })).toBe('input.bidAdjustments');
    // validateAdSet names every violation the same way.
    const validation = dataOf(
      (
        await server.graphql(
          'mutation ($a: ID!, $input: CreateAdSetInput!) { validateAdSet(accountId: $a, input: $input) { violations { field } } }',
          { a: ids.account, input: { ...baseAdSet(), name: '', dailyBudget: 10, targeting: { geoLocations: { countries: [] } } } },
          token,
        )
      ).body,
    ).validateAdSet;
    expect(validation.violations.map((v: { field: string }) => v.field).sort()).toEqual([
      'input.dailyBudget',
      'input.name',
      'input.targeting.geoLocations.countries',
    ]);
  });

  it("a comment's message, hiding, and the object commented on", async () => {
    const publish = 'mutation ($o: ID!, $input: CommentContentInput!) { publishComment(objectId: $o, input: $input) { id } }';
    expect(await fieldOf(publish, { o: ids.post, input: { message: 'a'.repeat(8001) } })).toBe('input.message');
    expect(await fieldOf(publish, { o: ids.post, input: {} })).toBe('input.message');
    expect(
      await fieldOf(publish, { o: ids.post, input: { message: 'x', attachmentShareUrl: 'https://a.example/', attachmentUrl: 'https://b.example/' } }),
    ).toBe('input.attachmentShareUrl');
    expect(await fieldOf(publish, { o: `${ids.page}_${ids.post}_1`, input: { message: 'x' } })).toBe('objectId');
    const edit = 'mutation ($id: ID!, $input: CommentContentInput!) { editComment(id: $id, input: $input) { id } }';
    expect(await fieldOf(edit, { id: ids.comment, input: { message: 'nul \u0000' } })).toBe('input.message');
    // The page's own comment cannot be hidden (rule 4): the argument is `hidden`, /v24.0's is_hidden.
    expect(await fieldOf('mutation ($id: ID!) { setCommentHidden(id: $id, hidden: true) { id } }', { id: ids.comment })).toBe('hidden');
  });

  it('date format input and login', async () => {
    expect(await fieldOf('query ($f: String!) { convertDateFormat(format: $f) { output } }', { f: '' })).toBe('format');
    expect(await fieldOf('query ($m: JSON!) { convertIndexMapping(mapping: $m) { index } }', { m: 'not a mapping' })).toBe('mapping');
    expect(
      await fieldOf('mutation ($input: LoginInput!) { login(input: $input) { sessionToken } }', { input: { email: 'not-an-address', password: 'p' } }),
    ).toBe('input.email');
    expect(await fieldOf('mutation ($input: LoginInput!) { login(input: $input) { sessionToken } }', { input: { email: 'x@example.com', password: '' } })).toBe(
      'input.password',
    );
  });

  it('/v24.0 keeps its own names for the same mistakes', async () => {
    const response = await fetch(`${server.url}/v24.0/act_${ids.account}/adsets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'S',
        campaign_id: ids.campaign,
        billing_event: 'IMPRESSIONS',
        targeting: { geo_locations: { countries: ['US'] } },
        daily_budget: 10,
      }),
    });
    const body = (await response.json()) as { error: { message: string; code: number } };
    expect(body.error.code).toBe(100);
    expect(body.error.message).toMatch(/budget is too low/i);
    const graphql = firstError((await server.graphql(CREATE_AD_SET, { a: ids.account, input: { ...baseAdSet(), dailyBudget: 10 } }, token)).body);
    expect(graphql.message).toBe(body.error.message.replace(/^\(#100\) /, ''));
    expect(graphql.extensions?.graphApi).toMatchObject({ code: 100, error_subcode: 1885272 });
  });
});
