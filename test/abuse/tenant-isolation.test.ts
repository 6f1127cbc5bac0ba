import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/oauth/service.ts';
import { commentExternalId, type PostRecord } from '../../src/comments/store.ts';
import { dataOf } from '../helpers/api.ts';
import { encodeParams } from '../helpers/graph.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { databaseDigest, expectUnchanged } from '../helpers/table-hash.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * Tenant isolation, as a matrix (issue 12, "abuse tests"): for every object type and every surface (GraphQL typed
 * queries, node/nodes and every mutation; /v24.0 reads with fields and edges, writes and batch; /api/v2), a principal
 * of organization B (its owner, and its API client with every scope) can neither read nor change organization A's
 * objects, and A's id answers exactly as a well-formed id of nothing does: same status, same body apart from the id.
 *
 * Each probe is also sent by A's own principal of the same kind (the control), which must answer otherwise: a probe
 * that could not reach the object even when allowed would prove nothing. Controls of writes run last, after the
 * database has been shown unchanged by everything B tried.
 *
 * Pages, their posts and visible comments are public to every signed-in person (DECISIONS section 6): for B's owner
 * the matrix covers what stays private there (a hidden comment), and the page's own actions are refused outright.
 */

type Kind = 'user' | 'client';
const KINDS: Kind[] = ['user', 'client'];

interface Answer {
  status: number;
  body: unknown;
  /** Which headers came back: X-Business-Use-Case-Usage, for one, is sent only about an account the caller reaches. */
  headerNames: string[];
}

/** Headers that say something about the object (others, like date and request id, differ by nature). */
const TELLING_HEADERS = ['x-business-use-case-usage', 'www-authenticate', 'content-type', 'retry-after'];
/** Keys whose values differ from request to request by nature. */
const VOLATILE_KEYS = new Set(['fbtrace_id', '__fb_trace_id__', '__www_request_id__']);

let server: TestServer;
let digestBefore: Awaited<ReturnType<typeof databaseDigest>>;
const intruder = {} as Record<Kind, string>;
const owner = {} as Record<Kind, string>;
/** A's member, whose own user the identity probes name. */
const self = {} as { user: string };
/** Organization A's objects (the victim), by name; B's own, for writes that reference A's from B's account. */
type ObjectName =
  | 'org'
  | 'user'
  | 'userEmail'
  | 'account'
  | 'act'
  | 'campaign'
  | 'adSet'
  | 'ad'
  | 'creative'
  | 'rule'
  | 'audience'
  | 'conversion'
  | 'page'
  | 'post'
  | 'comment'
  | 'hiddenComment'
  | 'asyncRequest'
  | 'asyncRequestSet'
  | 'membership'
  | 'apiClient'
  | 'hiddenParent'
  | 'replyOfB';
/** Named objects, and (`<what>:<kind>:<surface>`) the ones a single removing probe takes away. */
const a = {} as Record<ObjectName, string> & { [spare: `${string}:${string}`]: string };
const b = {} as Record<ObjectName, string>;
/** Well-formed ids of nothing. */
const MISSING_NUMERIC = '100000900000001';
const MISSING = {
  numeric: MISSING_NUMERIC,
  act: `act_${MISSING_NUMERIC}`,
  uuid: randomUUID(),
  comment: `${MISSING_NUMERIC}_100000900000002`,
};

beforeAll(async () => {
  server = await startTestServer({
    LOG_LEVEL: 'warn',
    ASYNC_RUNNER: 'false',
    RATE_LIMIT_ACCOUNT_CALLS: '1000000/300',
    RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
    RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
  });
  const world = worldBuilder(server.deps);
  const orgA = await world.organization();
  const orgB = await world.organization();
  a.org = orgA.id;
  b.org = orgB.id;
  const ownerA = await world.user({ organizationId: orgA.id, role: 'owner' });
  const memberA = await world.user({ organizationId: orgA.id, role: 'member' });
  const ownerB = await world.user({ organizationId: orgB.id, role: 'owner' });
  owner.user = ownerA.token;
  intruder.user = ownerB.token;
  a.user = memberA.user.id;
  self.user = memberA.token;
  b.userEmail = ownerB.user.email;
  const clientToken = async (organization: string) => {
    const { client, clientSecret } = await createClient(server.deps, { name: `every scope of ${organization}`, scope: 'write', organization });
    return { id: client.id, token: await fetchAccessToken(server.url, client.clientId, clientSecret) };
  };
  const clientA = await clientToken(orgA.id);
  owner.client = clientA.token;
  a.apiClient = clientA.id;
  intruder.client = (await clientToken(orgB.id)).token;

  let postOfA: PostRecord | undefined;
  for (const [org, into] of [
    [orgA.id, a],
    [orgB.id, b],
  ] as const) {
    const account = await world.adAccount(org);
    into.account = account.id;
    into.act = `act_${account.id}`;
    const [campaign] = await world.campaigns(account, 1);
    into.campaign = campaign!.id;
    const [adSet] = await world.adSets(campaign!, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' }));
    into.adSet = adSet!.id;
    const [ad] = await world.ads(adSet!, 1);
    into.ad = ad!.id;
    into.creative = ad!.creativeId!;
    into.rule = (await world.rule(account, into === a ? ownerA.user.id : ownerB.user.id)).id;
    into.audience = (await world.audience(account)).id;
    into.conversion = (await world.conversion(account)).id;
    const page = await world.page(org);
    into.page = page.id;
    const post = await world.post(page);
    if (into === a) postOfA = post;
    into.post = post.id;
    into.comment = commentExternalId(await world.comment(post));
    into.hiddenComment = commentExternalId(await world.comment(post, { isHidden: true, message: 'Hidden from visitors' }));
  }
  // The audience test data is flagged; a clean one makes the audience probes about ownership alone.
  await server.deps.db('custom_audiences').whereIn('id', [a.audience, b.audience]).update({ flagged_reason: null });
  const copied = dataOf(
    (await server.graphql('mutation($id: ID!) { copyAdSet(id: $id, async: true) { request { id requestSet { id } } } }', { id: a.adSet }, ownerA.token)).body,
  ).copyAdSet.request;
  a.asyncRequest = copied.id;
  a.asyncRequestSet = copied.requestSet.id;
  const membershipOf = async (userId: string) => String((await server.deps.db('organization_members').where({ user_id: userId }).first()).id);
  a.membership = await membershipOf(memberA.user.id);
  // Removals take their object away for good: each removing probe has an object of its own, so every control counts.
  for (const kind of KINDS) {
    for (const surface of ['graphql', 'graph']) {
      a[`hiddenComment:${kind}:${surface}`] = commentExternalId(await world.comment(postOfA!, { isHidden: true, message: 'Hidden from visitors' }));
    }
    const member = await world.user({ organizationId: orgA.id, role: 'member' });
    a[`membership:${kind}`] = await membershipOf(member.user.id);
  }
  for (const surface of ['graphql', 'graph']) a[`comment:client:${surface}`] = commentExternalId(await world.comment(postOfA!));
  // B's owner replies to a comment of A's page (pages are public), which the page then hides: B's reply must not
  // show its parent any more.
  a.hiddenParent = commentExternalId(await world.comment(postOfA!, { message: 'Hidden after a reply', authorUserId: a.user, authorPageId: null }));
  a.replyOfB = dataOf(
    (await server.graphql('mutation($id: ID!) { publishComment(objectId: $id, input: { message: "A reply" }) { id } }', { id: a.hiddenParent }, intruder.user))
      .body,
  ).publishComment.id;
  dataOf((await server.graphql('mutation($id: ID!) { setCommentHidden(id: $id, hidden: true) { id } }', { id: a.hiddenParent }, owner.user)).body);
  digestBefore = await databaseDigest(server.deps.db);
});

afterAll(() => server?.close());

// --- Sending, as each principal ------------------------------------------------------------------------------

function authHeaders(kind: Kind, token: string): Record<string, string> {
  // A session in its own header, an access token as a bearer: both ways in are exercised.
  return kind === 'user' ? { 'service-session-token': token } : { authorization: `Bearer ${token}` };
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Kept as text: compared as it is.
  }
  const headerNames = TELLING_HEADERS.filter((name) => response.headers.has(name));
  return { status: response.status, body, headerNames };
}

const graphql = async (kind: Kind, token: string, query: string, variables: Record<string, unknown>) =>
  answer(
    await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders(kind, token) },
      body: JSON.stringify({ query, variables }),
    }),
  );

interface GraphCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  params?: Record<string, unknown>;
}

/** A /v24.0 call: GET parameters in the query string, writes as form fields (objects JSON-encoded, as the SDKs send them). */
async function graphApi(kind: Kind, token: string, call: GraphCall): Promise<Answer> {
  // The user sends access_token as a parameter, the client as a bearer header.
  const params = { ...call.params, ...(kind === 'user' ? { access_token: token } : {}) };
  const headers: Record<string, string> = kind === 'client' ? { authorization: `Bearer ${token}` } : {};
  if (call.method === 'GET') return answer(await fetch(`${server.url}/v24.0/${call.path}?${encodeParams(params)}`, { headers }));
  return answer(
    await fetch(`${server.url}/v24.0/${call.path}`, {
      method: call.method,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeParams(params),
    }),
  );
}

const rest = async (kind: Kind, token: string, method: string, path: string, body: unknown) =>
  answer(
    await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...authHeaders(kind, token) },
      body: JSON.stringify(body),
    }),
  );

// --- Comparing ------------------------------------------------------------------------------------------------

function scrub(value: unknown, ids: string[]): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const id of [...ids].sort((x, y) => y.length - x.length)) text = text.split(id).join('<id>');
    return text;
  }
  if (Array.isArray(value)) return value.map((item) => scrub(item, ids));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, VOLATILE_KEYS.has(key) ? '<trace>' : scrub(item, ids)]));
  }
  return value;
}

/** The answer with the probed id (and a batch item's JSON body, parsed) made comparable. */
function comparable(response: Answer, ids: string[]): Answer {
  return { status: response.status, headerNames: response.headerNames, body: scrub(response.body, ids) };
}

const empty = (value: unknown): boolean =>
  value === null ||
  value === false ||
  (Array.isArray(value) && value.every(empty)) ||
  (typeof value === 'object' && value !== null && Object.values(value).every(empty));

/**
 * True when the answer refuses or finds nothing: a 4xx, a GraphQL error, or an answer that is all null and false
 * apart from labels (GraphQL data, authcheck results).
 */
function findsNothing(response: Answer): boolean {
  if (response.status >= 400 && response.status < 500) return true;
  const body = response.body as { data?: Record<string, unknown> | null; errors?: unknown[] } | undefined;
  if (body && typeof body === 'object' && ('data' in body || 'errors' in body)) {
    if (body.errors?.length) return true;
    return empty(scrubLabels(body.data));
  }
  return response.status === 200 && empty(body);
}

/** authCheck answers echo the label asked for: not something found. */
function scrubLabels(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubLabels);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'label')
        .map(([key, item]) => [key, scrubLabels(item)]),
    );
  }
  return value;
}

interface Probe {
  name: string;
  /** The id of A's object the probe aims at, and the well-formed id of nothing it is compared with. */
  foreign: string;
  missing: string;
  send(kind: Kind, token: string, id: string): Promise<Answer>;
  /** Whether A's principal may really do this (a write the control performs; run after the digest check). */
  write: boolean;
  /**
   * For a write in B's own account that names A's object: B's object of the same kind. The control is then B itself
   * with its own object, which must get further than the missing one (otherwise the request fails for another reason).
   */
  own?: () => string;
}

/** Foreign and missing answer alike, and that answer finds nothing. Returns the missing answer for the control. */
async function expectLikeMissing(kind: Kind, probe: Probe): Promise<Answer> {
  const token = intruder[kind];
  const foreign = await probe.send(kind, token, probe.foreign);
  const missing = await probe.send(kind, token, probe.missing);
  const what = `${kind} of B: ${probe.name}`;
  expect(foreign.status, `${what}: ${JSON.stringify(foreign.body)}`).toBeLessThan(500);
  expect(comparable(foreign, [probe.foreign]), what).toEqual(comparable(missing, [probe.missing]));
  expect(findsNothing(missing), `${what} with a missing id: ${JSON.stringify(missing.body)}`).toBe(true);
  return missing;
}

/**
 * A's own principal gets something else than the missing answer: the probe reaches the object when allowed. A's
 * principal of the same kind first; A's owner when the policy gives that kind no access (API clients read no users).
 */
async function expectControlReaches(kind: Kind, probe: Probe, missing: Answer): Promise<void> {
  const expected = JSON.stringify(comparable(missing, [probe.missing]));
  const answers: string[] = [];
  const controls: Array<[string, Kind, string, string]> = probe.own
    ? [[`B with its own object`, kind, intruder[kind], probe.own()]]
    : [
        ...(kind === 'client' ? [['client', 'client', owner.client, probe.foreign] as [string, Kind, string, string]] : []),
        ['owner', 'user', owner.user, probe.foreign],
        // A user changes its own account, which even its organization's owner may not.
        ['the user itself', 'user', self.user, probe.foreign],
      ];
  for (const [control, controlKind, token, id] of controls) {
    const response = await probe.send(controlKind, token, id);
    expect(response.status, `${control} of A (control): ${probe.name}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
    const seen = JSON.stringify(comparable(response, [id]));
    if (seen !== expected) return;
    answers.push(`${control}: ${seen}`);
  }
  expect.fail(`${probe.name}: A's own principals get the missing answer too, so the probe proves nothing:\n${answers.join('\n')}`);
}

// --- The probes -----------------------------------------------------------------------------------------------

const gqlProbe = (
  name: string,
  foreign: () => string,
  missing: string,
  query: string,
  variables: (id: string) => Record<string, unknown> = (id) => ({ id }),
  write = false,
) => ({ name: `GraphQL ${name}`, foreign, missing, write, send: (kind: Kind, token: string, id: string) => graphql(kind, token, query, variables(id)) });

const graphProbe = (name: string, foreign: () => string, missing: string, call: (id: string) => GraphCall, write = false) => ({
  name: `/v24.0 ${name}`,
  foreign,
  missing,
  write,
  call,
  send: (kind: Kind, token: string, id: string) => graphApi(kind, token, call(id)),
});

type LazyProbe = Omit<Probe, 'foreign'> & { foreign: () => string };

/** Marks a probe that works from B's own account: its control is B with `own`, B's object of the same kind. */
const inB = <T extends LazyProbe>(own: () => string, probe: T): T => ({ ...probe, own });
type LazyGraphProbe = LazyProbe & { call(id: string): GraphCall };

const adSetInput = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  name: 'Intrusion',
  campaignId,
  billingEvent: 'IMPRESSIONS',
  optimizationGoal: 'LINK_CLICKS',
  dailyBudget: '1000',
  status: 'PAUSED',
  targeting: { geoLocations: { countries: ['US'] } },
  ...extra,
});
const adSetParams = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  name: 'Intrusion',
  campaign_id: campaignId,
  billing_event: 'IMPRESSIONS',
  optimization_goal: 'LINK_CLICKS',
  daily_budget: 1000,
  status: 'PAUSED',
  targeting: { geo_locations: { countries: ['US'] } },
  ...extra,
});

/** Reads of every type by id: typed queries, node and nodes, authCheck. */
function graphqlReads(kind: Kind): LazyProbe[] {
  const typed: Array<[string, string, () => string, string]> = [
    ['adAccount', 'id name campaigns { totalCount nodes { id } } adSets { totalCount }', () => a.account, MISSING.numeric],
    ['adAccount', 'id name', () => a.act, MISSING.act],
    ['campaign', 'id name adSets { totalCount nodes { id } } account { id }', () => a.campaign, MISSING.numeric],
    [
      'adSet',
      'id name targeting { geoLocations { countries } } ads { totalCount } copies { totalCount } asyncRequests { totalCount }',
      () => a.adSet,
      MISSING.numeric,
    ],
    ['ad', 'id name creative { id title }', () => a.ad, MISSING.numeric],
    ['adCreative', 'id name title account { id }', () => a.creative, MISSING.numeric],
    ['adRule', 'id name evaluationSpec history { totalCount }', () => a.rule, MISSING.numeric],
    ['asyncRequestSet', 'id name totalCount requests { nodes { id } }', () => a.asyncRequestSet, MISSING.numeric],
    ['asyncRequest', 'id status scopeObjectId', () => a.asyncRequest, MISSING.numeric],
    ['user', 'id email name memberships { id }', () => a.user, MISSING.uuid],
    ['organization', 'id name members { totalCount } adAccounts { totalCount } pages { totalCount } apiClients { totalCount }', () => a.org, MISSING.uuid],
    ['comment', 'id message isHidden', () => a.hiddenComment, `${a.post}_${MISSING.numeric}`],
  ];
  if (kind === 'client') {
    typed.push(
      ['page', 'id name posts { totalCount }', () => a.page, MISSING.numeric],
      ['post', 'id message comments { totalCount }', () => a.post, MISSING.numeric],
      ['comment', 'id message likes { totalCount }', () => a.comment, MISSING.comment],
    );
  }
  const probes: LazyProbe[] = typed.map(([field, selection, foreign, missing]) =>
    gqlProbe(`${field}(id)`, foreign, missing, `query($id: ID!) { ${field}(id: $id) { ${selection} } }`),
  );
  probes.push(gqlProbe('adSets(accountId)', () => a.account, MISSING.numeric, 'query($id: ID!) { adSets(accountId: $id) { totalCount nodes { id } } }'));

  // node and nodes reach every type, those without a typed query too.
  const everyType: Array<[string, () => string, string]> = [
    ['ad account', () => a.account, MISSING.numeric],
    ['campaign', () => a.campaign, MISSING.numeric],
    ['ad set', () => a.adSet, MISSING.numeric],
    ['ad', () => a.ad, MISSING.numeric],
    ['ad creative', () => a.creative, MISSING.numeric],
    ['automated rule', () => a.rule, MISSING.numeric],
    ['custom audience', () => a.audience, MISSING.numeric],
    ['custom conversion', () => a.conversion, MISSING.numeric],
    ['async request set', () => a.asyncRequestSet, MISSING.numeric],
    ['async request', () => a.asyncRequest, MISSING.numeric],
    ['user', () => a.user, MISSING.uuid],
    ['organization', () => a.org, MISSING.uuid],
    ['organization member', () => a.membership, MISSING.uuid],
    ['API client', () => a.apiClient, MISSING.numeric],
    ['hidden comment', () => a.hiddenComment, `${a.post}_${MISSING.numeric}`],
  ];
  if (kind === 'client')
    everyType.push(['page', () => a.page, MISSING.numeric], ['post', () => a.post, MISSING.numeric], ['comment', () => a.comment, MISSING.comment]);
  for (const [type, foreign, missing] of everyType) {
    probes.push(gqlProbe(`node(id) of a ${type}`, foreign, missing, 'query($id: ID!) { node(id: $id) { id __typename } }'));
    probes.push(gqlProbe(`nodes(ids) of a ${type}`, foreign, missing, 'query($ids: [ID!]!) { nodes(ids: $ids) { id __typename } }', (id) => ({ ids: [id] })));
  }
  const checkable: Array<[string, string, () => string, string]> = [
    ['ad_account', 'UPDATE', () => a.account, MISSING.numeric],
    ['campaign', 'DELETE', () => a.campaign, MISSING.numeric],
    ['ad_set', 'READ', () => a.adSet, MISSING.numeric],
    ['ad', 'UPDATE', () => a.ad, MISSING.numeric],
    ['custom_audience', 'READ', () => a.audience, MISSING.numeric],
    ['organization', 'READ', () => a.org, MISSING.uuid],
    ['user', 'UPDATE', () => a.user, MISSING.uuid],
    ['organization_member', 'DELETE', () => a.membership, MISSING.uuid],
    ['api_client', 'READ', () => a.apiClient, MISSING.numeric],
    ['comment', 'UPDATE', () => a.comment, MISSING.comment],
  ];
  for (const [resourceType, action, foreign, missing] of checkable) {
    probes.push(
      gqlProbe(
        `authCheck ${action} ${resourceType}`,
        foreign,
        missing,
        'query($checks: [AuthCheckInput!]!) { authCheck(checks: $checks) { label allowed } }',
        (id) => ({ checks: [{ label: 'probe', action, object: { resourceType: resourceType.toUpperCase(), resourceId: id } }] }),
      ),
    );
  }
  return probes;
}

/** Every mutation that names an object of A, directly or as a reference from B's own objects. */
function graphqlWrites(kind: Kind): LazyProbe[] {
  const m = (name: string, foreign: () => string, missing: string, query: string, variables: (id: string) => Record<string, unknown>) =>
    gqlProbe(name, foreign, missing, `mutation($id: ID!${query.includes('$other') ? ', $other: String!' : ''}) { ${query} }`, variables, true);
  const probes: LazyProbe[] = [
    m(
      "createCampaign in A's account",
      () => a.account,
      MISSING.numeric,
      'createCampaign(accountId: $id, input: { name: "Intrusion", objective: OUTCOME_TRAFFIC, specialAdCategories: [] }) { id }',
      (id) => ({ id }),
    ),
    m(
      'updateCampaign',
      () => a.campaign,
      MISSING.numeric,
      'updateCampaign(id: $id, input: { name: "Intrusion" }) { id name }',
      (id) => ({ id }),
    ),
    m(
      'deleteCampaign',
      () => a.campaign,
      MISSING.numeric,
      'deleteCampaign(id: $id)',
      (id) => ({ id }),
    ),
    gqlProbe(
      "createAdSet in A's account",
      () => a.account,
      MISSING.numeric,
      'mutation($id: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $id, input: $input) { id } }',
      (id) => ({ id, input: adSetInput(a.campaign) }),
      true,
    ),
    gqlProbe(
      "validateAdSet in A's account",
      () => a.account,
      MISSING.numeric,
      'mutation($id: ID!, $input: CreateAdSetInput!) { validateAdSet(accountId: $id, input: $input) { valid violations { field } } }',
      (id) => ({ id, input: adSetInput(a.campaign) }),
      true,
    ),
    inB(
      () => b.campaign,
      gqlProbe(
        "createAdSet in B's account under A's campaign",
        () => a.campaign,
        MISSING.numeric,
        'mutation($account: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $account, input: $input) { id } }',
        (id) => ({ account: b.account, input: adSetInput(id) }),
        true,
      ),
    ),
    inB(
      () => b.audience,
      gqlProbe(
        "createAdSet in B's account targeting A's audience",
        () => a.audience,
        MISSING.numeric,
        'mutation($account: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $account, input: $input) { id } }',
        (id) => ({ account: b.account, input: adSetInput(b.campaign, { targeting: { geoLocations: { countries: ['US'] }, customAudiences: [{ id }] } }) }),
        true,
      ),
    ),
    inB(
      () => b.conversion,
      gqlProbe(
        "createAdSet in B's account promoting A's conversion",
        () => a.conversion,
        MISSING.numeric,
        'mutation($account: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $account, input: $input) { id } }',
        (id) => ({
          account: b.account,
          input: adSetInput(b.campaign, { optimizationGoal: 'OFFSITE_CONVERSIONS', promotedObject: { customConversionId: id } }),
        }),
        true,
      ),
    ),
    m(
      'updateAdSet',
      () => a.adSet,
      MISSING.numeric,
      'updateAdSet(id: $id, input: { name: "Intrusion" }) { id name }',
      (id) => ({ id }),
    ),
    m(
      'validateAdSetUpdate',
      () => a.adSet,
      MISSING.numeric,
      'validateAdSetUpdate(id: $id, input: { name: "Intrusion" }) { valid }',
      (id) => ({ id }),
    ),
    m(
      'deleteAdSet',
      () => a.adSet,
      MISSING.numeric,
      'deleteAdSet(id: $id)',
      (id) => ({ id }),
    ),
    m(
      'copyAdSet',
      () => a.adSet,
      MISSING.numeric,
      'copyAdSet(id: $id) { copiedAdSet { id } }',
      (id) => ({ id }),
    ),
    m(
      'copyAdSet(async)',
      () => a.adSet,
      MISSING.numeric,
      'copyAdSet(id: $id, async: true) { request { id } }',
      (id) => ({ id }),
    ),
    inB(
      () => b.campaign,
      gqlProbe(
        "copyAdSet of B's ad set into A's campaign",
        () => a.campaign,
        MISSING.numeric,
        'mutation($source: ID!, $id: ID!) { copyAdSet(id: $source, input: { campaignId: $id }) { copiedAdSet { id } } }',
        (id) => ({ source: b.adSet, id }),
        true,
      ),
    ),
    gqlProbe(
      "createAd in A's account",
      () => a.account,
      MISSING.numeric,
      'mutation($id: ID!, $adSet: ID!) { createAd(accountId: $id, input: { name: "Intrusion", adSetId: $adSet, creative: { title: "x" } }) { id } }',
      (id) => ({ id, adSet: a.adSet }),
      true,
    ),
    inB(
      () => b.adSet,
      gqlProbe(
        "createAd in B's account under A's ad set",
        () => a.adSet,
        MISSING.numeric,
        'mutation($account: ID!, $id: ID!) { createAd(accountId: $account, input: { name: "Intrusion", adSetId: $id, creative: { title: "x" } }) { id } }',
        (id) => ({ account: b.account, id }),
        true,
      ),
    ),
    m(
      'updateAd',
      () => a.ad,
      MISSING.numeric,
      'updateAd(id: $id, input: { name: "Intrusion" }) { id name }',
      (id) => ({ id }),
    ),
    m(
      'deleteAd',
      () => a.ad,
      MISSING.numeric,
      'deleteAd(id: $id)',
      (id) => ({ id }),
    ),
    m(
      "createCustomAudience in A's account",
      () => a.account,
      MISSING.numeric,
      'createCustomAudience(accountId: $id, input: { name: "Intrusion" }) { id }',
      (id) => ({ id }),
    ),
    inB(
      () => b.audience,
      gqlProbe(
        "createCustomAudience in B's account like A's audience",
        () => a.audience,
        MISSING.numeric,
        'mutation($account: ID!, $id: ID!) { createCustomAudience(accountId: $account, input: { name: "Intrusion", subtype: LOOKALIKE, originAudienceId: $id, lookalikeSpec: { ratio: 0.01, country: "US" } }) { id } }',
        (id) => ({ account: b.account, id }),
        true,
      ),
    ),
    m(
      "createCustomConversion in A's account",
      () => a.account,
      MISSING.numeric,
      'createCustomConversion(accountId: $id, input: { name: "Intrusion", rule: { url: { i_contains: "x" } } }) { id }',
      (id) => ({ id }),
    ),
    m(
      'addOrganizationMember to A',
      () => a.org,
      MISSING.uuid,
      'addOrganizationMember(input: { organizationId: $id, email: $other, role: OWNER }) { id }',
      (id) => ({ id, other: b.userEmail }),
    ),
    m(
      'changeOrganizationMemberRole in A',
      () => a.membership,
      MISSING.uuid,
      'changeOrganizationMemberRole(id: $id, role: OWNER) { id role }',
      (id) => ({ id }),
    ),
    m(
      'removeOrganizationMember from A',
      () => a[`membership:${kind}`]!,
      MISSING.uuid,
      'removeOrganizationMember(id: $id)',
      (id) => ({ id }),
    ),
    m(
      'updateUser of A',
      () => a.user,
      MISSING.uuid,
      'updateUser(input: { id: $id, name: "Intruded" }) { id name }',
      (id) => ({ id }),
    ),
    gqlProbe(
      "convertLogin of A's user",
      () => a.user,
      MISSING.uuid,
      'mutation($id: String!) { convertLogin(user: $id, input: { toType: GITHUB, password: "Correct-Horse-9-Battery" }) { userId } }',
      (id) => ({ id }),
      true,
    ),
    // The hidden comment is private to the page and the people it stays visible to, for persons and clients alike.
    m(
      'publishComment replying to a hidden comment',
      () => a.hiddenComment,
      `${a.post}_${MISSING.numeric}`,
      'publishComment(objectId: $id, input: { message: "Intrusion" }) { id }',
      (id) => ({ id }),
    ),
    m(
      'editComment of a hidden comment',
      () => a.hiddenComment,
      `${a.post}_${MISSING.numeric}`,
      'editComment(id: $id, input: { message: "Intrusion" }) { id }',
      (id) => ({ id }),
    ),
    m(
      'setCommentHidden of a hidden comment',
      () => a.hiddenComment,
      `${a.post}_${MISSING.numeric}`,
      'setCommentHidden(id: $id, hidden: false) { id }',
      (id) => ({ id }),
    ),
    m(
      'deleteComment of a hidden comment',
      () => a[`hiddenComment:${kind}:graphql`]!,
      `${a.post}_${MISSING.numeric}`,
      'deleteComment(id: $id)',
      (id) => ({ id }),
    ),
    m(
      'likeComment of a hidden comment',
      () => a.hiddenComment,
      `${a.post}_${MISSING.numeric}`,
      'likeComment(id: $id) { id }',
      (id) => ({ id }),
    ),
    m(
      'unlikeComment of a hidden comment',
      () => a.hiddenComment,
      `${a.post}_${MISSING.numeric}`,
      'unlikeComment(id: $id) { id }',
      (id) => ({ id }),
    ),
  ];
  if (kind === 'client') {
    probes.push(
      m(
        "createPagePost on A's page",
        () => a.page,
        MISSING.numeric,
        'createPagePost(pageId: $id, input: { message: "Intrusion" }) { id }',
        (id) => ({ id }),
      ),
      m(
        "publishComment on A's post",
        () => a.post,
        MISSING.numeric,
        'publishComment(objectId: $id, input: { message: "Intrusion" }) { id }',
        (id) => ({ id }),
      ),
      m(
        "publishComment replying to A's comment",
        () => a.comment,
        MISSING.comment,
        'publishComment(objectId: $id, input: { message: "Intrusion" }) { id }',
        (id) => ({ id }),
      ),
      m(
        'editComment',
        () => a.comment,
        MISSING.comment,
        'editComment(id: $id, input: { message: "Intrusion" }) { id }',
        (id) => ({ id }),
      ),
      m(
        'setCommentHidden',
        () => a.comment,
        MISSING.comment,
        'setCommentHidden(id: $id, hidden: true) { id }',
        (id) => ({ id }),
      ),
      m(
        'likeComment',
        () => a.comment,
        MISSING.comment,
        'likeComment(id: $id) { id }',
        (id) => ({ id }),
      ),
      m(
        'unlikeComment',
        () => a.comment,
        MISSING.comment,
        'unlikeComment(id: $id) { id }',
        (id) => ({ id }),
      ),
      m(
        'deleteComment',
        () => a['comment:client:graphql']!,
        MISSING.comment,
        'deleteComment(id: $id)',
        (id) => ({ id }),
      ),
    );
  }
  return probes;
}

/** /v24.0 reads of every type with fields (references included) and every edge. */
function graphReads(kind: Kind): LazyGraphProbe[] {
  const get = (name: string, foreign: () => string, missing: string, fields?: string, edge?: string) =>
    graphProbe(name, foreign, missing, (id) => ({
      method: 'GET',
      path: edge ? `${id}/${edge}` : id,
      params: { ...(fields ? { fields } : {}), ...(edge ? { summary: 'total_count' } : {}) },
    }));
  const hidden = () => a.hiddenComment;
  const hiddenMissing = `${a.post}_${MISSING.numeric}`;
  const probes: LazyGraphProbe[] = [
    get(
      'ad account',
      () => a.act,
      MISSING.act,
      'name,currency,campaigns{name},adsets{name},ads{name},customaudiences{name},customconversions{name},asyncadrequestsets{name},adcreatives{name},adrules_library{name},insights{spend}',
    ),
    get('ad account (bare id)', () => a.act, MISSING.act),
    get('campaign', () => a.campaign, MISSING.numeric, 'name,status,account{name},adsets{name},ads{name},insights{spend}'),
    get(
      'ad set',
      () => a.adSet,
      MISSING.numeric,
      'name,targeting,campaign{name},account{name},ads{name},copies{name},asyncadrequests{status},adcreatives{name},adrules_governed{name},insights{spend}',
    ),
    get('ad', () => a.ad, MISSING.numeric, 'name,creative{title},adcreatives{name},adset{name},campaign{name},account{name},insights{spend}'),
    get('ad creative', () => a.creative, MISSING.numeric, 'name,title,object_story_spec,account{name}'),
    get('automated rule', () => a.rule, MISSING.numeric, 'name,evaluation_spec,history{results}'),
    get('custom audience', () => a.audience, MISSING.numeric, 'name,operation_status'),
    get('custom conversion', () => a.conversion, MISSING.numeric, 'name,rule'),
    get('async request set', () => a.asyncRequestSet, MISSING.numeric, 'name,owner_id,total_count,requests{status}'),
    get('async request', () => a.asyncRequest, MISSING.numeric, 'status,scope_object_id,async_request_set{name}'),
    get('hidden comment', hidden, hiddenMissing, 'message,from,is_hidden,parent,object{message},comments{message},likes{name}'),
  ];
  const edges: Array<[string, () => string, string, string[]]> = [
    ['ad account', () => a.act, MISSING.act, ['campaigns', 'adsets', 'ads', 'customaudiences', 'customconversions', 'asyncadrequestsets', 'insights']],
    ['campaign', () => a.campaign, MISSING.numeric, ['adsets', 'ads', 'insights']],
    ['ad set', () => a.adSet, MISSING.numeric, ['ads', 'copies', 'asyncadrequests', 'insights']],
    ['ad', () => a.ad, MISSING.numeric, ['insights']],
    ['async request set', () => a.asyncRequestSet, MISSING.numeric, ['requests']],
    ['hidden comment', hidden, hiddenMissing, ['comments', 'likes', 'reactions']],
  ];
  if (kind === 'client') {
    probes.push(
      get('page', () => a.page, MISSING.numeric, 'name,feed{message},posts{message}'),
      get('post', () => a.post, MISSING.numeric, 'message,from,page{name},comments{message}'),
      get('comment', () => a.comment, MISSING.comment, 'message,from,can_remove,object{message},comments{message},likes{name}'),
    );
    edges.push(
      ['page', () => a.page, MISSING.numeric, ['feed', 'posts']],
      ['post', () => a.post, MISSING.numeric, ['comments']],
      ['comment', () => a.comment, MISSING.comment, ['comments', 'likes', 'reactions']],
    );
  }
  for (const [type, foreign, missing, names] of edges) {
    for (const edge of names) probes.push(get(`${type} /${edge}`, foreign, missing, undefined, edge));
  }
  return probes;
}

/** /v24.0 writes: updates, deletes and creates on A's objects, and creates in B's account that reference A's objects. */
function graphWrites(kind: Kind): LazyGraphProbe[] {
  const w = (name: string, foreign: () => string, missing: string, call: (id: string) => GraphCall) => graphProbe(name, foreign, missing, call, true);
  const hidden = () => a.hiddenComment;
  const hiddenMissing = `${a.post}_${MISSING.numeric}`;
  const probes: LazyGraphProbe[] = [
    w(
      'POST campaign',
      () => a.campaign,
      MISSING.numeric,
      (id) => ({ method: 'POST', path: id, params: { name: 'Intrusion' } }),
    ),
    w(
      'DELETE campaign',
      () => a.campaign,
      MISSING.numeric,
      (id) => ({ method: 'DELETE', path: id }),
    ),
    w(
      'POST ad set',
      () => a.adSet,
      MISSING.numeric,
      (id) => ({ method: 'POST', path: id, params: { name: 'Intrusion' } }),
    ),
    w(
      'DELETE ad set',
      () => a.adSet,
      MISSING.numeric,
      (id) => ({ method: 'DELETE', path: id }),
    ),
    w(
      'POST ad',
      () => a.ad,
      MISSING.numeric,
      (id) => ({ method: 'POST', path: id, params: { name: 'Intrusion' } }),
    ),
    w(
      'DELETE ad',
      () => a.ad,
      MISSING.numeric,
      (id) => ({ method: 'DELETE', path: id }),
    ),
    w(
      'POST ad creative',
      () => a.creative,
      MISSING.numeric,
      (id) => ({ method: 'POST', path: id, params: { name: 'Intrusion' } }),
    ),
    w(
      'DELETE ad creative',
      () => a.creative,
      MISSING.numeric,
      (id) => ({ method: 'DELETE', path: id }),
    ),
    w(
      'POST automated rule',
      () => a.rule,
      MISSING.numeric,
      (id) => ({ method: 'POST', path: id, params: { name: 'Intrusion' } }),
    ),
    w(
      'POST automated rule execute',
      () => a.rule,
      MISSING.numeric,
      (id) => ({ method: 'POST', path: `${id}/execute`, params: { dry_run: true } }),
    ),
    w(
      'DELETE automated rule',
      () => a.rule,
      MISSING.numeric,
      (id) => ({ method: 'DELETE', path: id }),
    ),
    w(
      'POST act/adrules_library',
      () => a.act,
      MISSING.act,
      (id) => ({
        method: 'POST',
        path: `${id}/adrules_library`,
        params: {
          name: 'Intrusion',
          evaluation_spec: { evaluation_type: 'SCHEDULE', filters: [{ field: 'entity_type', value: 'ADSET', operator: 'EQUAL' }] },
          execution_spec: { execution_type: 'PAUSE' },
          schedule_spec: { schedule_type: 'DAILY' },
        },
      }),
    ),
    w(
      'POST act/adcreatives',
      () => a.act,
      MISSING.act,
      (id) => ({ method: 'POST', path: `${id}/adcreatives`, params: { title: 'Intrusion' } }),
    ),
    w(
      'POST act/campaigns',
      () => a.act,
      MISSING.act,
      (id) => ({ method: 'POST', path: `${id}/campaigns`, params: { name: 'Intrusion', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [] } }),
    ),
    w(
      'POST act/adsets',
      () => a.act,
      MISSING.act,
      (id) => ({ method: 'POST', path: `${id}/adsets`, params: adSetParams(a.campaign) }),
    ),
    w(
      'POST act/adsets (validate_only)',
      () => a.act,
      MISSING.act,
      (id) => ({ method: 'POST', path: `${id}/adsets`, params: adSetParams(a.campaign, { execution_options: ['validate_only'] }) }),
    ),
    w(
      'POST act/ads',
      () => a.act,
      MISSING.act,
      (id) => ({ method: 'POST', path: `${id}/ads`, params: { name: 'Intrusion', adset_id: a.adSet, creative: { title: 'x' } } }),
    ),
    w(
      'POST act/customaudiences',
      () => a.act,
      MISSING.act,
      (id) => ({ method: 'POST', path: `${id}/customaudiences`, params: { name: 'Intrusion', subtype: 'CUSTOM' } }),
    ),
    w(
      'POST act/customconversions',
      () => a.act,
      MISSING.act,
      (id) => ({ method: 'POST', path: `${id}/customconversions`, params: { name: 'Intrusion', rule: { url: { i_contains: 'x' } } } }),
    ),
    w(
      'POST act/async_batch_requests',
      () => a.act,
      MISSING.act,
      (id) => ({
        method: 'POST',
        path: `${id}/async_batch_requests`,
        params: { name: 'Intrusion', adbatch: [{ name: 'copy', relative_url: `${a.adSet}/copies`, body: 'deep_copy=true' }] },
      }),
    ),
    w(
      'POST ad set/copies',
      () => a.adSet,
      MISSING.numeric,
      (id) => ({ method: 'POST', path: `${id}/copies`, params: {} }),
    ),
    // B's own account, naming A's objects.
    inB(
      () => b.campaign,
      w(
        "POST B's act/adsets under A's campaign",
        () => a.campaign,
        MISSING.numeric,
        (id) => ({ method: 'POST', path: `${b.act}/adsets`, params: adSetParams(id) }),
      ),
    ),
    inB(
      () => b.audience,
      w(
        "POST B's act/adsets targeting A's audience",
        () => a.audience,
        MISSING.numeric,
        (id) => ({
          method: 'POST',
          path: `${b.act}/adsets`,
          params: adSetParams(b.campaign, { targeting: { geo_locations: { countries: ['US'] }, custom_audiences: [{ id }] } }),
        }),
      ),
    ),
    inB(
      () => b.audience,
      w(
        "POST B's act/adsets excluding A's audience",
        () => a.audience,
        MISSING.numeric,
        (id) => ({
          method: 'POST',
          path: `${b.act}/adsets`,
          params: adSetParams(b.campaign, { targeting: { geo_locations: { countries: ['US'] }, excluded_custom_audiences: [{ id }] } }),
        }),
      ),
    ),
    inB(
      () => b.conversion,
      w(
        "POST B's act/adsets promoting A's conversion",
        () => a.conversion,
        MISSING.numeric,
        (id) => ({
          method: 'POST',
          path: `${b.act}/adsets`,
          params: adSetParams(b.campaign, { optimization_goal: 'OFFSITE_CONVERSIONS', promoted_object: { custom_conversion_id: id } }),
        }),
      ),
    ),
    inB(
      () => b.adSet,
      w(
        "POST B's act/ads under A's ad set",
        () => a.adSet,
        MISSING.numeric,
        (id) => ({ method: 'POST', path: `${b.act}/ads`, params: { name: 'Intrusion', adset_id: id, creative: { title: 'x' } } }),
      ),
    ),
    inB(
      () => b.audience,
      w(
        "POST B's act/customaudiences like A's audience",
        () => a.audience,
        MISSING.numeric,
        (id) => ({
          method: 'POST',
          path: `${b.act}/customaudiences`,
          params: { name: 'Intrusion', subtype: 'LOOKALIKE', lookalike_spec: { origin_audience_id: id, ratio: 0.01, country: 'US' } },
        }),
      ),
    ),
    inB(
      () => b.campaign,
      w(
        "POST B's ad set/copies into A's campaign",
        () => a.campaign,
        MISSING.numeric,
        (id) => ({ method: 'POST', path: `${b.adSet}/copies`, params: { campaign_id: id } }),
      ),
    ),
    inB(
      () => b.adSet,
      w(
        "POST B's act/async_batch_requests copying A's ad set",
        () => a.adSet,
        MISSING.numeric,
        (id) => ({
          method: 'POST',
          path: `${b.act}/async_batch_requests`,
          params: { name: 'Intrusion', adbatch: [{ name: 'copy', relative_url: `${id}/copies`, body: 'deep_copy=true' }] },
        }),
      ),
    ),
    // The hidden comment, for persons and clients alike.
    w('POST hidden comment', hidden, hiddenMissing, (id) => ({ method: 'POST', path: id, params: { message: 'Intrusion' } })),
    w('POST hidden comment (unhide)', hidden, hiddenMissing, (id) => ({ method: 'POST', path: id, params: { is_hidden: false } })),
    w(
      'DELETE hidden comment',
      () => a[`hiddenComment:${kind}:graph`]!,
      hiddenMissing,
      (id) => ({ method: 'DELETE', path: id }),
    ),
    w('POST hidden comment/comments', hidden, hiddenMissing, (id) => ({ method: 'POST', path: `${id}/comments`, params: { message: 'Intrusion' } })),
    w('POST hidden comment/likes', hidden, hiddenMissing, (id) => ({ method: 'POST', path: `${id}/likes` })),
    w('DELETE hidden comment/likes', hidden, hiddenMissing, (id) => ({ method: 'DELETE', path: `${id}/likes` })),
  ];
  if (kind === 'client') {
    probes.push(
      w(
        'POST page/feed',
        () => a.page,
        MISSING.numeric,
        (id) => ({ method: 'POST', path: `${id}/feed`, params: { message: 'Intrusion' } }),
      ),
      w(
        'POST post/comments',
        () => a.post,
        MISSING.numeric,
        (id) => ({ method: 'POST', path: `${id}/comments`, params: { message: 'Intrusion' } }),
      ),
      w(
        'POST comment',
        () => a.comment,
        MISSING.comment,
        (id) => ({ method: 'POST', path: id, params: { message: 'Intrusion' } }),
      ),
      w(
        'POST comment (hide)',
        () => a.comment,
        MISSING.comment,
        (id) => ({ method: 'POST', path: id, params: { is_hidden: true } }),
      ),
      w(
        'POST comment/comments',
        () => a.comment,
        MISSING.comment,
        (id) => ({ method: 'POST', path: `${id}/comments`, params: { message: 'Intrusion' } }),
      ),
      w(
        'POST comment/likes',
        () => a.comment,
        MISSING.comment,
        (id) => ({ method: 'POST', path: `${id}/likes` }),
      ),
      w(
        'DELETE comment/likes',
        () => a.comment,
        MISSING.comment,
        (id) => ({ method: 'DELETE', path: `${id}/likes` }),
      ),
      w(
        'DELETE comment',
        () => a['comment:client:graph']!,
        MISSING.comment,
        (id) => ({ method: 'DELETE', path: id }),
      ),
    );
  }
  return probes;
}

/** /api/v2: the routes that take an object's id. */
function identityProbes(): LazyProbe[] {
  const authcheck = (name: string, resourceType: string, action: string, foreign: () => string, missing: string): LazyProbe => ({
    name: `/api/v2 authcheck ${name}`,
    foreign,
    missing,
    write: false,
    send: (kind, token, id) =>
      rest(kind, token, 'POST', '/authcheck', { checks: { probe: { action, object: { resource_type: resourceType, resource_id: id } } } }),
  });
  return [
    {
      name: "/api/v2 POST /users/{A's user}/convert-login",
      foreign: () => a.user,
      missing: MISSING.uuid,
      write: true,
      send: (kind, token, id) => rest(kind, token, 'POST', `/users/${id}/convert-login`, { to_type: 'github', password: 'Correct-Horse-9-Battery' }),
    },
    authcheck('read ad set', 'ad_set', 'read', () => a.adSet, MISSING.numeric),
    authcheck('update campaign', 'campaign', 'update', () => a.campaign, MISSING.numeric),
    authcheck('delete ad', 'ad', 'delete', () => a.ad, MISSING.numeric),
    authcheck('update ad account', 'ad_account', 'update', () => a.account, MISSING.numeric),
    authcheck('read custom audience', 'custom_audience', 'read', () => a.audience, MISSING.numeric),
    authcheck('read organization', 'organization', 'read', () => a.org, MISSING.uuid),
    authcheck('update user', 'user', 'update', () => a.user, MISSING.uuid),
    authcheck('delete organization member', 'organization_member', 'delete', () => a.membership, MISSING.uuid),
    authcheck('read API client', 'api_client', 'read', () => a.apiClient, MISSING.numeric),
    authcheck('update comment', 'comment', 'update', () => a.comment, MISSING.comment),
    authcheck('read any type', '*', 'read', () => a.adSet, MISSING.numeric),
  ];
}

const resolve = <T extends LazyProbe>(probe: T): T & Probe => ({ ...probe, foreign: probe.foreign() }) as unknown as T & Probe;

// --- The matrix -----------------------------------------------------------------------------------------------

/** Writes whose controls run after the database has been shown unchanged. */
const pendingControls: Array<{ kind: Kind; probe: Probe; missing: Answer }> = [];

async function runProbes(kind: Kind, probes: LazyProbe[]): Promise<void> {
  for (const lazy of probes) {
    const probe = resolve(lazy);
    const missing = await expectLikeMissing(kind, probe);
    if (probe.write) pendingControls.push({ kind, probe, missing });
    else await expectControlReaches(kind, probe, missing);
  }
}

describe.each(KINDS)('a %s of organization B, against organization A', (kind) => {
  it("GraphQL typed queries, node, nodes and authCheck: A's objects read as missing ones", async () => {
    await runProbes(kind, graphqlReads(kind));
  });

  it("GraphQL lists hold none of A's objects", async () => {
    const lists = await graphql(
      kind,
      intruder[kind],
      `
        {
          adAccounts(first: 100) {
            nodes {
              id
              organization {
                id
              }
            }
          }
          me {
            memberships {
              organization {
                id
              }
            }
          }
        }
      `,
      {},
    );
    const data = dataOf(lists.body as never);
    expect(data.adAccounts.nodes.map((account: { id: string }) => account.id)).toEqual([b.account]);
    expect(JSON.stringify(data)).not.toContain(a.org);
  });

  it("every GraphQL mutation naming A's objects: refused as for missing ones", async () => {
    await runProbes(kind, graphqlWrites(kind));
  });

  it("/v24.0 reads with fields and edges: A's objects read as missing ones", async () => {
    await runProbes(kind, graphReads(kind));
  });

  it("/v24.0 writes naming A's objects: refused as for missing ones", async () => {
    await runProbes(kind, graphWrites(kind));
  });

  it('/v24.0 batch: every read and write above, item by item, as for missing ids', async () => {
    const probes = [...graphReads(kind), ...graphWrites(kind)].map(resolve);
    const run = async (token: string, ids: 'foreign' | 'missing') => {
      const answers: Answer[] = [];
      for (let start = 0; start < probes.length; start += 50) {
        const items = probes.slice(start, start + 50).map((probe) => {
          const call = probe.call(probe[ids]);
          const encoded = encodeParams(call.params ?? {});
          return call.method === 'GET'
            ? { method: 'GET', relative_url: `${call.path}${encoded ? `?${encoded}` : ''}` }
            : { method: call.method, relative_url: call.path, body: encoded };
        });
        const response = await graphApi(kind, token, { method: 'POST', path: '', params: { batch: items } });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        for (const item of response.body as Array<{ code: number; headers: Array<{ name: string }>; body: string }>) {
          const headerNames = item.headers.map((header) => header.name.toLowerCase()).filter((name) => TELLING_HEADERS.includes(name));
          answers.push({ status: item.code, headerNames, body: JSON.parse(item.body) });
        }
      }
      return answers;
    };
    const foreign = await run(intruder[kind], 'foreign');
    const missing = await run(intruder[kind], 'missing');
    expect(foreign).toHaveLength(probes.length);
    probes.forEach((probe, index) => {
      expect(comparable(foreign[index]!, [probe.foreign]), `batch item: ${probe.name}`).toEqual(comparable(missing[index]!, [probe.missing]));
      expect(findsNothing(missing[index]!), `batch item with a missing id: ${probe.name}`).toBe(true);
    });
  });

  it("/api/v2: A's user and objects answer as missing ones", async () => {
    await runProbes(kind, identityProbes());
  });
});

describe("public pages (DECISIONS section 6): B's owner reads them, but only A acts as the page", () => {
  it("refuses B's owner the page's own actions on A's visible comment, with 403 and nothing changed", async () => {
    const refusals: Array<[string, () => Promise<Answer>]> = [
      [
        'editComment',
        () => graphql('user', intruder.user, 'mutation($id: ID!) { editComment(id: $id, input: { message: "Intrusion" }) { id } }', { id: a.comment }),
      ],
      ['setCommentHidden', () => graphql('user', intruder.user, 'mutation($id: ID!) { setCommentHidden(id: $id, hidden: true) { id } }', { id: a.comment })],
      ['deleteComment', () => graphql('user', intruder.user, 'mutation($id: ID!) { deleteComment(id: $id) }', { id: a.comment })],
      ['POST comment', () => graphApi('user', intruder.user, { method: 'POST', path: a.comment, params: { message: 'Intrusion' } })],
      ['POST comment (hide)', () => graphApi('user', intruder.user, { method: 'POST', path: a.comment, params: { is_hidden: true } })],
      ['DELETE comment', () => graphApi('user', intruder.user, { method: 'DELETE', path: a.comment })],
    ];
    for (const [name, send] of refusals) {
      const response = await send();
      const body = response.body as { errors?: Array<{ extensions?: { code?: string } }>; error?: { code?: number } };
      if (name.startsWith('POST') || name.startsWith('DELETE')) {
        expect({ status: response.status, code: body.error?.code }, `${name}: ${JSON.stringify(body)}`).toEqual({ status: 403, code: 200 });
      } else {
        expect(body.errors?.[0]?.extensions?.code, `${name}: ${JSON.stringify(body)}`).toBe('FORBIDDEN');
      }
    }
  });

  it("lets B's owner read A's page, post and visible comment, but never the hidden one in a list", async () => {
    const read = await graphApi('user', intruder.user, { method: 'GET', path: a.post, params: { fields: 'message,page{name}' } });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const response = await graphApi('user', intruder.user, { method: 'GET', path: `${a.post}/comments`, params: { filter: 'stream', fields: 'id,message' } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const ids = (response.body as { data: Array<{ id: string }> }).data.map((comment) => comment.id);
    const visible = Object.entries(a)
      .filter(([key]) => key === 'comment' || key.startsWith('comment:'))
      .map(([, id]) => id);
    expect(ids.sort()).toEqual(visible.sort());
  });
});

describe("a hidden comment reached through B's own reply to it", () => {
  const HIDDEN = 'Hidden after a reply';

  it("GraphQL: neither the reply's parent nor the post's stream shows it to B; A's owner sees it", async () => {
    const query = `query($id: ID!, $post: ID!) { comment(id: $id) { id message parent { id message } }
      post(id: $post) { comments(filter: STREAM) { nodes { id message parent { message } } } } }`;
    const seen = await graphql('user', intruder.user, query, { id: a.replyOfB, post: a.post });
    expect(seen.status).toBe(200);
    const data = (seen.body as { data: { comment: { parent: unknown } | null } }).data;
    expect(data.comment?.parent ?? null).toBeNull();
    expect(JSON.stringify(seen.body)).not.toContain(HIDDEN);
    const control = await graphql('user', owner.user, query, { id: a.replyOfB, post: a.post });
    expect((control.body as { data: { comment: { parent: unknown } } }).data.comment.parent).toEqual({ id: a.hiddenParent, message: HIDDEN });
  });

  it("/v24.0: neither the reply (fields=parent) nor the post's comments edge shows it to B; A's owner sees it", async () => {
    const call = { method: 'GET', path: a.replyOfB, params: { fields: 'message,parent{message}' } } as const;
    const edge = { method: 'GET', path: `${a.post}/comments`, params: { filter: 'stream', fields: 'message,parent{message}' } } as const;
    for (const response of [await graphApi('user', intruder.user, call), await graphApi('user', intruder.user, edge)]) {
      expect(response.status).toBeLessThan(500);
      expect(JSON.stringify(response.body)).not.toContain(HIDDEN);
    }
    const control = await graphApi('user', owner.user, call);
    expect(control.body).toEqual({ id: a.replyOfB, message: 'A reply', parent: { id: a.hiddenParent, message: HIDDEN } });
  });
});

describe('after everything B tried', () => {
  it("the database is exactly as it was, and A's own principals do what B could not (the controls)", async () => {
    await expectUnchanged(server.deps.db, digestBefore, 'requests of organization B');
    // Deletes and removals go last: they would turn the other controls into refusals of a deleted object.
    const removes = (control: { probe: Probe }) => Number(/delete|remove/i.test(control.probe.name));
    const ordered = [...pendingControls].sort((x, y) => removes(x) - removes(y));
    for (const { kind, probe, missing } of ordered) await expectControlReaches(kind, probe, missing);
  });
});
