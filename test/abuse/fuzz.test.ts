import { request as httpRequest, Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/oauth/service.ts';
import { commentExternalId } from '../../src/comments/store.ts';
import { MAX_JSON_DEPTH } from '../../src/text/json-limits.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { findLeaks, internalNamesPattern, requestMaterial } from '../helpers/leaks.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { changedTables, databaseDigest, tableNames, type DatabaseDigest } from '../helpers/table-hash.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * A bounded fuzzer (issue 12, "abuse tests"): malformed GraphQL documents and variables, /api/v2 bodies, /v24.0
 * parameters, form fields, batches and ids, /oauth2/token forms, and odd headers, against a real server over
 * loopback. Every JSON input gets values nested thousands of levels deep, and just under and over the limit
 * (issue 25); names and values come %-encoded, and now and then not UTF-8. Whatever comes in: no 5xx, no stack trace, SQL, file path or internal name in any answer, /healthz
 * still answers, and a rejected request (a 4xx, or a GraphQL answer with errors and no data) changes no row of any
 * table.
 *
 * Fixed seed and a fixed number of runs, so a run is reproducible: on failure the message names the seed (and
 * fast-check's path to the failing case). FUZZ_SEED=<n> replays another seed, FUZZ_RUNS=<factor> runs longer.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 1_222_026);
const FACTOR = Number(process.env.FUZZ_RUNS ?? 1);
const runs = (base: number) => Math.max(1, Math.round(base * FACTOR));

let server: TestServer;
let baseline: DatabaseDigest;
let internalNames: RegExp;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
/** Real ids of every type, real tokens and a real client: the fuzz reaches past the first check. */
const ids: string[] = [];
const real = { session: '', accessToken: '', clientId: '', clientSecret: '', adSet: '', act: '', comment: '' };
let requestCount = 0;

beforeAll(async () => {
  server = await startTestServer({
    LOG_LEVEL: 'fatal',
    ASYNC_RUNNER: 'false',
    // Thousands of calls go to one account and one address: the allowances are not what this is about.
    RATE_LIMIT_ACCOUNT_CALLS: '1000000/300',
    RATE_LIMIT_ACCOUNT_TIME_MS: '100000000/300',
    RATE_LIMIT_ACCOUNT_CPU_MS: '100000000/300',
  });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  const owner = await world.user({ organizationId: org.id, role: 'owner' });
  const member = await world.user({ organizationId: org.id, role: 'member' });
  real.session = owner.token;
  const account = await world.adAccount(org.id);
  const [campaign] = await world.campaigns(account, 1);
  const [adSet] = await world.adSets(campaign!, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' }));
  const [ad] = await world.ads(adSet!, 1);
  const audience = await world.audience(account);
  const conversion = await world.conversion(account);
  const page = await world.page(org.id);
  const post = await world.post(page);
  const comment = await world.comment(post);
  const { client, clientSecret } = await createClient(server.deps, { name: 'fuzzed', scope: 'write', organization: org.id });
  real.accessToken = await fetchAccessToken(server.url, client.clientId, clientSecret);
  real.clientId = client.clientId;
  real.clientSecret = clientSecret;
  real.adSet = adSet!.id;
  real.act = `act_${account.id}`;
  real.comment = commentExternalId(comment);
  ids.push(
    account.id,
    real.act,
    campaign!.id,
    adSet!.id,
    ad!.id,
    audience.id,
    conversion.id,
    page.id,
    post.id,
    real.comment,
    org.id,
    owner.user.id,
    member.user.id,
    client.id,
  );
  internalNames = internalNamesPattern(await tableNames(server.deps.db));
  baseline = await databaseDigest(server.deps.db);
});

afterAll(async () => {
  agent.destroy();
  await server?.close();
});

// --- Sending and checking ---------------------------------------------------------------------------------------

interface FuzzRequest {
  method: string;
  /** Path and query string, already encoded as they go on the wire. */
  path: string;
  headers: Record<string, string>;
  /** Text, or bytes (some of which need not be UTF-8). */
  body?: string | Buffer;
}

interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(request: FuzzRequest): Promise<FuzzAnswer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        agent,
        method: request.method,
        path: request.path,
        headers: { ...request.headers, ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}) },
        timeout: 20_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

/** The codes of a batch answer's calls (none for any other answer). */
function batchCodes(text: string): number[] {
  try {
    const body: unknown = JSON.parse(text);
    return Array.isArray(body) ? body.map((call) => (call as { code?: unknown } | null)?.code).filter((code) => typeof code === 'number') : [];
  } catch {
    return [];
  }
}

/** A refusal: a 4xx, or a GraphQL answer with errors and no data. Such a request must change nothing. */
function rejected(answer: FuzzAnswer): boolean {
  if (answer.status >= 400 && answer.status < 500) return true;
  try {
    const body = JSON.parse(answer.text) as { data?: unknown; errors?: unknown[] };
    return Array.isArray(body.errors) && body.errors.length > 0 && (body.data === null || body.data === undefined);
  } catch {
    return false;
  }
}

const bodyText = (request: FuzzRequest) => (Buffer.isBuffer(request.body) ? request.body.toString('utf8') : request.body);

const describeRequest = (request: FuzzRequest) =>
  `${request.method} ${request.path.slice(0, 300)}\n${JSON.stringify(request.headers).slice(0, 300)}\n${(bodyText(request) ?? '').slice(0, 500)}`;

async function check(generated: FuzzRequest): Promise<void> {
  requestCount++;
  const request = expandDeepValues(generated);
  let answer: FuzzAnswer;
  try {
    answer = await send(request);
  } catch (error) {
    throw new Error(`no answer (${(error as Error).message}) to\n${describeRequest(request)}`);
  }
  const what = `${answer.status} ${answer.text.slice(0, 400)}\nfor\n${describeRequest(request)}`;
  expect(answer.status, what).toBeGreaterThanOrEqual(200);
  expect(answer.status, what).toBeLessThan(500);
  // A batch answers 200 whatever its calls answered: each call's own code must not be a 5xx either.
  for (const code of batchCodes(answer.text)) expect(code, `a batch call's code: ${what}`).toBeLessThan(500);
  const material = requestMaterial([request.path, bodyText(request), ...Object.values(request.headers)]);
  expect(findLeaks(answer.text, material, internalNames), what).toEqual([]);
  const after = await databaseDigest(server.deps.db);
  if (rejected(answer)) expect(changedTables(baseline, after), `a rejected request changed the database: ${what}`).toEqual([]);
  baseline = after;
  const health = await send({ method: 'GET', path: '/healthz', headers: {} });
  expect({ status: health.status, body: health.text }, `/healthz after ${what}`).toEqual({ status: 200, body: '{"status":"ok"}' });
}

/** Runs a property with the fixed seed; the failure message says how to replay it. */
async function fuzz(name: string, arbitrary: fc.Arbitrary<FuzzRequest>, numRuns: number): Promise<void> {
  const sentBefore = requestCount;
  try {
    await fc.assert(fc.asyncProperty(arbitrary, check), { seed: SEED, numRuns, endOnFailure: true });
  } catch (error) {
    const cause = (error as Error).cause;
    const detail = cause instanceof Error ? `\n${cause.message}` : cause !== undefined ? `\n${String(cause)}` : '';
    throw new Error(`fuzz "${name}" failed; replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${FACTOR}\n${(error as Error).message}${detail}`);
  }
  // A fuzzer that silently sends nothing (a broken arbitrary, a filter that rejects everything) proves nothing.
  expect(requestCount - sentBefore, `requests "${name}" sent`).toBe(numRuns);
}

// --- Building blocks -----------------------------------------------------------------------------------------

const ODD_STRINGS = [
  '',
  ' ',
  '\t',
  'null',
  'undefined',
  'true',
  'false',
  '0',
  '-1',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '9007199254740993',
  '1'.repeat(40),
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  '"; select * from sessions; --',
  "1' UNION SELECT token_hash FROM sessions --",
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '\u0000',
  '\u0007',
  '\uFFFF',
  '\uD800',
  '\u202E',
  'é',
  '𝒜𝒷',
  '👍🏽',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '{"__proto__": {"polluted": true}}',
  '{"a":',
  '[',
  ']',
  '{}',
  '[]',
  '[[[[[[[[[[]]]]]]]]]]',
  '{"$where": "1"}',
  'act_',
  'act_act_1',
  'act_-1',
  'act_1e3',
  '1_2_3',
  '_1',
  '1_',
  '0x10',
  '１２３',
  '٣',
  ' 100000000000001',
  '100000000000001 ',
  '100000000000001\n',
  'x'.repeat(5_000),
  'é'.repeat(3_000),
  '{'.repeat(3_000),
  '['.repeat(3_000),
  `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`,
];
const MALFORMED_IDS = [
  '0',
  '-5',
  '1.5',
  '1e5',
  '99999999999999999999999999',
  '100000999999999',
  '00000000000000000001',
  'act_0',
  'act_abc',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-fffffffffffff',
  'FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF',
  '100000000000001_100000000000001_1',
  '100000000000001__1',
  '9'.repeat(400),
];

const oddString = fc.oneof(
  { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 3 },
  { arbitrary: fc.integer().map(String), weight: 1 },
  { arbitrary: fc.double().map(String), weight: 1 },
);
const anyId = fc.oneof(
  // Read when a value is drawn: the ids exist only once beforeAll has built the world.
  { arbitrary: fc.nat().map((index) => ids[index % ids.length]!), weight: 4 },
  { arbitrary: fc.constantFrom(...MALFORMED_IDS), weight: 2 },
  { arbitrary: oddString, weight: 1 },
);
/**
 * JSON nested thousands of levels deep cannot be built as a value and then written with JSON.stringify (which
 * overflows on it: that is the point), so the arbitraries hold a placeholder string, `"@@deep-<levels>-<shape>@@"`,
 * and the request is expanded as it is sent: where the placeholder stands as a JSON string (a JSON body) or a
 * %-encoded one (a form field or query parameter holding JSON), the deep JSON text takes its place.
 */
const DEEP_LEVELS = [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 1_000, 5_000, 20_000];
const DEEP_SHAPES = {
  arrays: (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`,
  objects: (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`,
  mixed: (levels: number) => {
    const [pairs, odd] = [Math.floor(levels / 2), levels % 2];
    return `${'['.repeat(odd)}${'[{"a":'.repeat(pairs)}null${'}]'.repeat(pairs)}${']'.repeat(odd)}`;
  },
};
const deepPlaceholder = fc
  .tuple(fc.constantFrom(...DEEP_LEVELS), fc.constantFrom(...(Object.keys(DEEP_SHAPES) as Array<keyof typeof DEEP_SHAPES>)))
  .map(([levels, shape]) => `@@deep-${levels}-${shape}@@`);
const DEEP_PLACEHOLDER = /"@@deep-(\d+)-(\w+)@@"|%22%40%40deep-(\d+)-(\w+)%40%40%22/g;

function expandDeepValues(request: FuzzRequest): FuzzRequest {
  const expand = (text: string) =>
    text.replace(DEEP_PLACEHOLDER, (_match, levels?: string, shape?: string, encodedLevels?: string, encodedShape?: string) => {
      const deep = DEEP_SHAPES[(shape ?? encodedShape) as keyof typeof DEEP_SHAPES](Number(levels ?? encodedLevels));
      return levels !== undefined ? deep : encodeURIComponent(deep);
    });
  return { ...request, path: expand(request.path), body: typeof request.body === 'string' ? expand(request.body) : request.body };
}

/** A JSON value, sometimes a deep or odd one. */
const jsonValue = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
  { arbitrary: deepPlaceholder, weight: 1 },
  { arbitrary: oddString, weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 400 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown), weight: 1 },
  { arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0.5, 1e308, true, null, [], {}), weight: 1 },
);
/** Header values Node lets a client send: printable Latin-1, no control characters. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((code) => String.fromCharCode(code)),
    maxLength,
  });
const token = fc.oneof(
  {
    arbitrary: fc.constantFrom('session', 'access', 'none').map((kind) => (kind === 'session' ? real.session : kind === 'access' ? real.accessToken : '')),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom(
      'x',
      'null',
      'Bearer',
      'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
      'eyJhbGciOiJIUzI1NiJ9.e30.AAAA',
      'a.b.c',
      '...',
      'x'.repeat(6_000),
      `${'eyJhbGciOiJSUzI1NiJ9'}.${Buffer.from('{"sub":"x","exp":1e99}').toString('base64url')}.sig`,
    ),
    weight: 2,
  },
  { arbitrary: headerText(80), weight: 2 },
);
const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'application/json; charset=klingon',
    'application/x-www-form-urlencoded; charset=koi8-r',
    'multipart/form-data; boundary=xyz',
    'multipart/form-data',
    'application/graphql',
    'application/*',
    '*/*',
    ';;;',
    'application/json; charset="',
    'application/jsonx',
    'APPLICATION/JSON',
    'application/merge-patch+json',
    'application/xml',
  ),
  headerText(40),
);
/** Extra headers: encodings, proxies, request ids, credentials of every shape, and one too large to read. */
const extraHeaders = fc.record(
  {
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip'),
    'x-request-id': headerText(200),
    'x-forwarded-for': fc.oneof(headerText(60), fc.constantFrom('127.0.0.1', '::1', '1.2.3.4, 5.6.7.8', 'unknown', '999.999.999.999')),
    'x-forwarded-host': headerText(60),
    'x-forwarded-proto': fc.constantFrom('https', 'gopher', ''),
    accept: fc.oneof(headerText(40), fc.constantFrom('text/html', 'application/json', 'application/graphql-response+json', 'multipart/mixed')),
    'accept-charset': fc.constantFrom('utf-16', 'x-unknown'),
    'apollo-require-preflight': fc.constantFrom('true', ''),
    'x-apollo-operation-name': headerText(40),
    authorization: fc.oneof(
      token.map((value) => `Bearer ${value}`),
      token.map((value) => `OAuth ${value}`),
      token.map((value) => `bearer  ${value}  x`),
      fc.string({ maxLength: 40 }).map((value) => `Basic ${Buffer.from(value).toString('base64')}`),
      fc.constantFrom('Basic', 'Basic !!!', 'Digest x'),
      headerText(60),
    ),
    'service-session-token': token,
    // Mostly readable; now and then beyond Node's 16 KB of headers (431 before any of our code runs).
    'x-padding': fc
      .oneof({ arbitrary: fc.integer({ min: 1, max: 8_000 }), weight: 6 }, { arbitrary: fc.integer({ min: 16_500, max: 40_000 }), weight: 1 })
      .map((length) => 'p'.repeat(length)),
  },
  { requiredKeys: [] },
);

const encodeQuery = (params: Record<string, string>) => new URLSearchParams(params).toString();
/** Every byte of a name %-escaped (`%61%63...`): a name is decoded as its value is. */
const encodeEveryByte = (name: string) => [...Buffer.from(name)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
/** `name=value` pieces of a query string or form whose %-escapes do not decode to UTF-8, in names and in values. */
const NOT_UTF8_PIECES = [
  'name=Bad%FF%FEname',
  'n%FFme=x',
  'message=Caf%C3',
  'targeting=%ED%A0%80',
  'fields=id%C0%AF',
  '%E9=1',
  'name=%F4%90%80%80',
  'access_token=%80',
  'grant_type=client%FF',
  'variables=%7B%22x%22%3A%22%FF%22%7D',
];
/** Raw pieces to add to a query string or form: not UTF-8, or a known name (a real token's too) %-encoded. */
const rawPieces = (names: readonly string[], value: fc.Arbitrary<string>) =>
  fc.array(
    fc.oneof(
      { arbitrary: fc.constantFrom(...NOT_UTF8_PIECES), weight: 2 },
      { arbitrary: fc.tuple(fc.constantFrom(...names), value).map(([name, text]) => `${encodeEveryByte(name)}=${encodePart(text)}`), weight: 2 },
      { arbitrary: fc.constant(null).map(() => `%61ccess_token=${real.session}`), weight: 1 },
    ),
    { maxLength: 3 },
  );
const withPieces = (encoded: string, pieces: string[]) => [encoded, ...pieces].filter(Boolean).join('&');
/** JSON parameters as a form or query string carries them: JSON text. */
const asJsonText = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, JSON.stringify(value) ?? '']));
/** encodeURIComponent for any string: a lone surrogate (which it refuses) becomes U+FFFD, as it would on the wire. */
const encodePart = (text: string) => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

// --- GraphQL -----------------------------------------------------------------------------------------------

const TEMPLATES = [
  '{ __typename }',
  'query($id: ID!) { node(id: $id) { id __typename ... on AdSet { name targeting { geoLocations { countries } ageMin } campaign { name } ads { nodes { id } } } } }',
  'query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Ad { name creative { id title } adSet { name } } } }',
  'query($id: ID!) { adAccount(id: $id) { id name adSets(first: 100) { totalCount nodes { id name effectiveStatus issues { errorCode } } } } }',
  'query($id: ID!, $first: Int, $after: String) { adSets(accountId: $id, first: $first, after: $after) { pageInfo { endCursor } nodes { id } } }',
  'query($id: ID!) { comment(id: $id) { id message from { ... on Person { name } ... on Page { name } } comments { totalCount } } }',
  'query($checks: [AuthCheckInput!]!) { authCheck(checks: $checks) { label allowed } }',
  'query($format: String!, $lenient: Boolean) { convertDateFormat(format: $format, lenient: $lenient) { output exact } }',
  'query { me { id email memberships { role organization { id name members { totalCount } } } } }',
  'mutation($id: ID!, $input: UpdateAdSetInput!) { updateAdSet(id: $id, input: $input) { id name } }',
  'mutation($account: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $account, input: $input) { id } }',
  'mutation($account: ID!, $input: CreateCampaignInput!) { createCampaign(accountId: $account, input: $input) { id } }',
  'mutation($id: ID!, $input: CommentContentInput!) { publishComment(objectId: $id, input: $input) { id message } }',
  'mutation($id: ID!, $input: CopyAdSetInput, $async: Boolean) { copyAdSet(id: $id, input: $input, async: $async) { copiedAdSet { id } } }',
  'mutation($input: LoginInput!) { login(input: $input) { sessionToken } }',
  'mutation($email: String!) { requestOneTimePasscode(email: $email) }',
  'mutation($input: ChangePasswordWithOneTimePasscodeInput!) { changePasswordWithOneTimePasscode(input: $input) }',
  'mutation($input: AddOrganizationMemberInput!) { addOrganizationMember(input: $input) { id } }',
  'mutation($id: ID!) { deleteComment(id: $id) }',
  'query { __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }',
];

const variablesFor = fc.oneof(
  {
    arbitrary: fc.record(
      { id: anyId, ids: fc.array(anyId, { maxLength: 120 }), account: anyId, first: jsonValue, after: oddString, format: oddString },
      { requiredKeys: [] },
    ),
    weight: 3,
  },
  {
    arbitrary: fc.record(
      {
        input: fc.oneof(
          jsonValue,
          fc.record(
            { name: oddString, campaignId: anyId, billingEvent: oddString, targeting: jsonValue, dailyBudget: jsonValue, status: oddString },
            { requiredKeys: [] },
          ),
          fc.record({ message: oddString, attachmentUrl: oddString, attachmentId: anyId }, { requiredKeys: [] }),
          fc.record({ email: oddString, password: oddString, oneTimePasscode: oddString, organizationId: anyId, role: oddString }, { requiredKeys: [] }),
        ),
        id: anyId,
        account: anyId,
        async: jsonValue,
        email: oddString,
        checks: fc.array(
          fc.record({ label: oddString, action: oddString, object: fc.record({ resourceType: oddString, resourceId: anyId }, { requiredKeys: [] }) }),
          { maxLength: 120 },
        ),
      },
      { requiredKeys: [] },
    ),
    weight: 3,
  },
  { arbitrary: jsonValue, weight: 1 },
);

/** A document: a template as it is or damaged, a deep or wide one, a cycle of fragments, or noise. */
const document = fc.oneof(
  { arbitrary: fc.constantFrom(...TEMPLATES), weight: 3 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...TEMPLATES), fc.nat(), fc.constantFrom('cut', 'insert', 'delete', 'repeat'), fc.string({ maxLength: 8 }))
      .map(([template, at, how, text]) => {
        const position = at % (template.length + 1);
        if (how === 'cut') return template.slice(0, position);
        if (how === 'insert') return `${template.slice(0, position)}${text}${template.slice(position)}`;
        if (how === 'delete') return `${template.slice(0, position)}${template.slice(position + 1 + (text.length % 5))}`;
        return `${template.slice(0, position)}${template.slice(position).repeat(1 + (text.length % 4))}`;
      }),
    weight: 4,
  },
  {
    arbitrary: fc
      .integer({ min: 1, max: 400 })
      .map((depth) => `{ me { ${'memberships { organization { members { nodes { user { '.repeat(depth)}id${' } } } } }'.repeat(depth)} } }`),
    weight: 1,
  },
  { arbitrary: fc.integer({ min: 1, max: 3_000 }).map((depth) => `${'{ a '.repeat(depth)}${'}'.repeat(depth)}`), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 400 }).map((count) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ')} }`), weight: 1 },
  {
    arbitrary: fc
      .integer({ min: 1, max: 60 })
      .map(
        (count) =>
          `{ ${Array.from({ length: count }, (_, i) => `n${i}: nodes(ids: [${ids.map((id) => `"${id}"`).join(',')}]) { id ... on Ad { name creative { id title } adSet { name targeting { geoLocations { countries } } } } }`).join(' ')} }`,
      ),
    weight: 1,
  },
  {
    arbitrary: fc.constantFrom('fragment A on Query { ...B } fragment B on Query { ...A } { ...A }', 'query { ...A } fragment A on Query { __typename ...A }'),
    weight: 1,
  },
  { arbitrary: fc.integer({ min: 1, max: 2_000 }).map((count) => `{ __typename ${'@skip(if: false) '.repeat(count)} }`), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '{ adSets(accountId: "1", first: 99999999999999999999) { totalCount } }',
      '{ node(id: "\\u0000") { id } }',
      '"""',
      '#',
      '{ a(b: """',
      'subscription { a }',
    ),
    weight: 1,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 2 },
);

/**
 * Valid operations with variables of the right types but odd values, so requests get past validation into the
 * resolvers and services (ids of every shape, odd strings, out-of-range numbers, JSON of any shape).
 */
const enumOf = (...values: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 3 }, { arbitrary: oddString, weight: 1 });
const bigIntText = fc.oneof(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), fc.constantFrom('0', '-1', '9007199254740992', '1e3'));
const optional = { requiredKeys: [] as never[] };
const typedOperation: fc.Arbitrary<{ query: string; variables: Record<string, unknown> }> = fc.oneof(
  fc.record({ id: anyId }).map((variables) => ({ query: TEMPLATES[1]!, variables })),
  fc.record({ ids: fc.array(anyId, { maxLength: 120 }) }).map((variables) => ({ query: TEMPLATES[2]!, variables })),
  fc.record({ id: anyId }).map((variables) => ({ query: TEMPLATES[3]!, variables })),
  fc
    .record({ id: anyId, first: fc.integer({ min: -5, max: 1_000 }), after: oddString }, { requiredKeys: ['id'] })
    .map((variables) => ({ query: TEMPLATES[4]!, variables })),
  fc.record({ id: anyId }).map((variables) => ({ query: TEMPLATES[5]!, variables })),
  fc
    .record({
      checks: fc.array(
        fc.record({
          label: oddString,
          action: fc.constantFrom('CREATE', 'READ', 'UPDATE', 'DELETE'),
          object: fc.record(
            {
              resourceType: enumOf('ad_set', 'comment', 'user', '*', 'organization'),
              resourceId: anyId,
              organizationId: anyId,
              ownerId: anyId,
              anyOrg: fc.boolean(),
            },
            { requiredKeys: ['resourceType'] },
          ),
        }),
        { maxLength: 120 },
      ),
    })
    .map((variables) => ({ query: TEMPLATES[6]!, variables })),
  fc.record({ format: oddString, lenient: fc.boolean() }).map((variables) => ({ query: TEMPLATES[7]!, variables })),
  fc
    .record({
      id: anyId,
      input: fc.record(
        { name: oddString, status: enumOf('ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'), targeting: jsonValue, dailyBudget: bigIntText, startTime: oddString },
        optional,
      ),
    })
    .map((variables) => ({ query: TEMPLATES[9]!, variables })),
  fc
    .record({
      account: anyId,
      input: fc.record(
        {
          name: oddString,
          campaignId: anyId,
          billingEvent: enumOf('IMPRESSIONS', 'LINK_CLICKS'),
          optimizationGoal: enumOf('LINK_CLICKS', 'REACH'),
          targeting: fc.oneof(
            jsonValue,
            fc.record(
              {
                geoLocations: fc.record({ countries: fc.array(oddString, { maxLength: 5 }) }),
                customAudiences: fc.array(fc.record({ id: anyId }), { maxLength: 3 }),
                ageMin: fc.integer({ min: -5, max: 200 }),
              },
              optional,
            ),
          ),
          dailyBudget: bigIntText,
          promotedObject: jsonValue,
          dsaPayor: oddString,
          endTime: oddString,
        },
        { requiredKeys: ['name', 'campaignId', 'billingEvent', 'targeting'] },
      ),
    })
    .map((variables) => ({ query: TEMPLATES[10]!, variables })),
  fc
    .record({
      account: anyId,
      input: fc.record(
        {
          name: oddString,
          objective: enumOf('OUTCOME_TRAFFIC', 'OUTCOME_SALES'),
          specialAdCategories: fc.array(oddString, { maxLength: 4 }),
          dailyBudget: bigIntText,
        },
        { requiredKeys: ['name', 'objective', 'specialAdCategories'] },
      ),
    })
    .map((variables) => ({ query: TEMPLATES[11]!, variables })),
  fc
    .record({
      id: anyId,
      input: fc.record({ message: oddString, attachmentUrl: oddString, attachmentId: anyId, attachmentShareUrl: oddString, source: oddString }, optional),
    })
    .map((variables) => ({ query: TEMPLATES[12]!, variables })),
  fc
    .record(
      {
        id: anyId,
        async: fc.boolean(),
        input: fc.record(
          {
            campaignId: anyId,
            deepCopy: fc.boolean(),
            startTime: oddString,
            renameOptions: fc.record({ renamePrefix: oddString, renameSuffix: oddString }, optional),
            statusOption: enumOf('ACTIVE', 'PAUSED'),
          },
          optional,
        ),
      },
      { requiredKeys: ['id'] },
    )
    .map((variables) => ({ query: TEMPLATES[13]!, variables })),
  fc.record({ input: fc.record({ email: oddString, password: oddString }) }).map((variables) => ({ query: TEMPLATES[14]!, variables })),
  // Made-up addresses only: a real one would have a passcode e-mailed after the answer, racing the next check.
  fc.record({ email: oddString }).map((variables) => ({ query: TEMPLATES[15]!, variables })),
  fc
    .record({ input: fc.record({ email: oddString, oneTimePasscode: oddString, password: oddString }) })
    .map((variables) => ({ query: TEMPLATES[16]!, variables })),
  fc
    .record({ input: fc.record({ organizationId: anyId, email: oddString, role: fc.constantFrom('OWNER', 'ADMIN', 'MEMBER') }) })
    .map((variables) => ({ query: TEMPLATES[17]!, variables })),
  fc.record({ id: anyId }).map((variables) => ({ query: TEMPLATES[18]!, variables })),
);

const signedInHeaders = (who: string): Record<string, string> =>
  who === 'session' ? { 'service-session-token': real.session } : who === 'access' ? { authorization: `Bearer ${real.accessToken}` } : {};

const graphqlRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  // A valid operation with odd values, as a signed-in user or API client (or no one).
  {
    arbitrary: fc.tuple(typedOperation, fc.constantFrom('session', 'session', 'access', 'none')).map(([operation, who]) => ({
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify(operation),
      headers: { 'content-type': 'application/json', ...signedInHeaders(who) },
    })),
    weight: 6,
  },
  // A JSON body with a document, variables and an operation name, each possibly of the wrong type.
  {
    arbitrary: fc
      .tuple(
        fc.record(
          {
            query: fc.oneof({ arbitrary: document, weight: 6 }, { arbitrary: jsonValue, weight: 1 }),
            variables: fc.oneof({ arbitrary: variablesFor, weight: 5 }, { arbitrary: fc.constant(undefined), weight: 1 }),
            operationName: fc.oneof(fc.constant(undefined), oddString, jsonValue),
            extensions: fc.oneof(fc.constant(undefined), jsonValue, fc.constant({ persistedQuery: { version: 1, sha256Hash: 'abc' } })),
          },
          { requiredKeys: ['query'] },
        ),
        fc.oneof(
          { arbitrary: fc.constant({ 'content-type': 'application/json' }), weight: 4 },
          { arbitrary: contentType.map((type) => ({ 'content-type': type })), weight: 1 },
        ),
        fc.oneof(fc.constant('session'), fc.constant('access'), fc.constant('none')),
      )
      .map(([envelope, headers, who]) => ({
        method: 'POST',
        path: '/graphql',
        body: JSON.stringify(envelope),
        headers: { ...headers, ...signedInHeaders(who) },
      })),
    weight: 8,
  },
  // The same over GET (queries only), with the variables as JSON text.
  {
    arbitrary: fc
      .tuple(
        document,
        fc.oneof(
          variablesFor.map((value) => JSON.stringify(value)),
          oddString,
        ),
        fc.boolean(),
        fc.option(jsonValue, { nil: undefined }),
        rawPieces(['query', 'variables', 'extensions', 'operationName'], oddString),
      )
      .map(([query, variables, signedIn, extensions, pieces]) => ({
        method: 'GET',
        path: `/graphql?${withPieces(encodeQuery({ query, variables, ...(extensions !== undefined ? { extensions: JSON.stringify(extensions) ?? '' } : {}) }), pieces)}`,
        headers: signedIn ? signedInHeaders('session') : {},
      })),
    weight: 2,
  },
  // Bodies that are not a GraphQL request at all.
  {
    arbitrary: fc
      .tuple(
        fc.oneof(
          oddString,
          jsonValue.map((value) => JSON.stringify(value) ?? 'null'),
          fc.constant('[{"query":"{ __typename }"},{"query":"{ __typename }"}]'),
        ),
        contentType,
        fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'GET'),
      )
      .map(([body, type, method]) => ({
        method,
        path: '/graphql',
        body: method === 'GET' ? undefined : body,
        headers: { 'content-type': type, 'service-session-token': real.session },
      })),
    weight: 2,
  },
);

// --- /api/v2 -----------------------------------------------------------------------------------------------

const IDENTITY_ROUTES: Array<[string, string]> = [
  ['GET', '/auth/scopes'],
  ['POST', '/authcheck'],
  ['POST', '/users/login'],
  ['POST', '/users/logout'],
  ['POST', '/users/otp/request'],
  ['POST', '/users/otp/change-password'],
  ['POST', '/users/validate-password'],
  ['POST', '/users/:user/convert-login'],
  ['GET', '/users/me'],
];

const identityBody = fc
  .oneof(
    {
      arbitrary: fc.record({ email: fc.oneof(oddString, fc.constant('someone@example.com'), fc.constant('a@b')), password: oddString }, { requiredKeys: [] }),
      weight: 2,
    },
    { arbitrary: fc.record({ email: oddString, one_time_passcode: oddString, password: oddString }, { requiredKeys: [] }), weight: 1 },
    {
      arbitrary: fc.record({ to_type: fc.oneof(oddString, fc.constantFrom('github', 'oidc', 'password')), password: oddString }, { requiredKeys: [] }),
      weight: 1,
    },
    {
      arbitrary: fc.record(
        {
          checks: fc.oneof(
            jsonValue,
            fc.dictionary(
              oddString,
              fc.record(
                {
                  action: fc.oneof(oddString, fc.constantFrom('read', 'update', 'create', 'delete')),
                  object: fc.record(
                    {
                      resource_type: fc.oneof(oddString, fc.constantFrom('ad_set', '*', 'user')),
                      resource_id: anyId,
                      organization_id: anyId,
                      owner_id: anyId,
                      any_org: jsonValue,
                    },
                    { requiredKeys: [] },
                  ),
                },
                { requiredKeys: [] },
              ),
              { maxKeys: 120 },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
      weight: 2,
    },
    { arbitrary: jsonValue, weight: 2 },
  )
  .map((value) => JSON.stringify(value) ?? '');

const identityRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom(...IDENTITY_ROUTES), weight: 8 },
      {
        arbitrary: fc.tuple(
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
          oddString.map((text) => `/${encodePart(text)}`),
        ),
        weight: 1,
      },
    ),
    anyId,
    fc.oneof({ arbitrary: identityBody, weight: 5 }, { arbitrary: oddString, weight: 1 }),
    fc.oneof({ arbitrary: fc.constant('application/json'), weight: 4 }, { arbitrary: contentType, weight: 1 }),
    token,
    fc.boolean(),
  )
  .map(([[method, route], user, body, type, credential, asBearer]) => {
    // Logging out with the one real session would sign the fuzzer out: logout gets made-up tokens only.
    const usable = route === '/users/logout' && credential === real.session ? 'not-a-session' : credential;
    const path = `/api/v2${route.replace(':user', encodePart(user))}`;
    return {
      method,
      path,
      body: method === 'GET' ? undefined : body,
      headers: { 'content-type': type, ...(usable ? (asBearer ? { authorization: `Bearer ${usable}` } : { 'service-session-token': usable }) : {}) },
    };
  });

// --- /v24.0 ------------------------------------------------------------------------------------------------

const EDGES = [
  'campaigns',
  'adsets',
  'ads',
  'customaudiences',
  'customconversions',
  'asyncadrequestsets',
  'async_batch_requests',
  'copies',
  'asyncadrequests',
  'requests',
  'feed',
  'posts',
  'comments',
  'likes',
  'reactions',
  'insights',
  '',
  '..',
  '%2e%2e',
  '%2F',
];
const PARAM_NAMES = [
  'fields',
  'limit',
  'after',
  'before',
  'summary',
  'date_format',
  'effective_status',
  'date_preset',
  'time_range',
  'filter',
  'order',
  'name',
  'status',
  'campaign_id',
  'adset_id',
  'billing_event',
  'optimization_goal',
  'daily_budget',
  'lifetime_budget',
  'bid_amount',
  'targeting',
  'promoted_object',
  'start_time',
  'end_time',
  'execution_options',
  'deep_copy',
  'rename_options',
  'status_option',
  'message',
  'attachment_url',
  'attachment_id',
  'is_hidden',
  'objective',
  'special_ad_categories',
  'creative',
  'subtype',
  'lookalike_spec',
  'rule',
  'adbatch',
  'kind',
  'dsa_payor',
  'batch',
  'access_token',
  'include_headers',
  '__proto__',
  'constructor',
];
const FIELD_TOKENS = [
  'id',
  'name',
  'status',
  'targeting',
  'campaign',
  'account',
  'adset',
  'ads',
  'adsets',
  'copies',
  'comments',
  'likes',
  'from',
  'parent',
  'message',
  'effective_status',
  'issues_info',
  'nope',
  '{',
  '}',
  '(',
  ')',
  ',',
  '.',
  'limit',
  '(3)',
  '(-1)',
  '(1e9)',
  'after',
  '["ACTIVE"]',
  'filter(stream)',
  ' ',
  '{{',
  '}}',
  '..',
  'summary(true)',
];
const fieldsParam = fc.oneof(
  fc.array(fc.constantFrom(...FIELD_TOKENS), { maxLength: 40 }).map((tokens) => tokens.join('')),
  fc.integer({ min: 1, max: 300 }).map((depth) => `${'campaign{account{campaigns{adsets{'.repeat(depth)}id${'}}}}'.repeat(depth)}`),
  oddString,
);
const paramValue = fc.oneof(
  { arbitrary: oddString, weight: 3 },
  { arbitrary: jsonValue.map((value) => JSON.stringify(value) ?? ''), weight: 2 },
  { arbitrary: anyId, weight: 2 },
);
const graphParams = fc.record({
  named: fc.dictionary(fc.constantFrom(...PARAM_NAMES), paramValue, { maxKeys: 8 }),
  fields: fc.option(fieldsParam, { nil: undefined }),
  odd: fc.dictionary(oddString, paramValue, { maxKeys: 3 }),
  /** JSON parameters as values: a JSON body holds them as they are, a form or query string as JSON text. */
  structured: fc.dictionary(fc.constantFrom('targeting', 'promoted_object', 'adlabels', 'creative', 'special_ad_categories', 'name'), jsonValue, {
    maxKeys: 2,
  }),
  pieces: rawPieces(PARAM_NAMES, paramValue),
});

const graphPath = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constant('v24.0'), weight: 8 },
      { arbitrary: fc.constantFrom('v23.0', 'v22.0', 'v2.0', 'v24', 'V24.0', 'v99.9', 'v', 'v24.0.1'), weight: 1 },
    ),
    anyId,
    fc.option(fc.constantFrom(...EDGES), { nil: undefined }),
    fc.option(oddString, { nil: undefined, freq: 8 }),
  )
  .map(
    ([version, id, edge, extra]) => `/${version}/${encodePart(id)}${edge !== undefined ? `/${edge}` : ''}${extra !== undefined ? `/${encodePart(extra)}` : ''}`,
  );

const graphRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom('GET', 'GET', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
    graphPath,
    graphParams,
    fc.constantFrom('query', 'form', 'json', 'raw'),
    token,
    fc.constantFrom('param', 'bearer', 'oauth'),
    contentType,
  )
  .map(([method, path, { named, fields, odd, structured, pieces }, encoding, credential, carry, rawType]) => {
    const params: Record<string, string> = { ...odd, ...named, ...(fields !== undefined ? { fields } : {}) };
    const asText = asJsonText(structured);
    const headers: Record<string, string> = {};
    if (credential && carry === 'param') params.access_token = credential;
    else if (credential) headers.authorization = `${carry === 'bearer' ? 'Bearer' : 'OAuth'} ${credential}`;
    if (encoding === 'query' || method === 'GET' || method === 'HEAD')
      return { method, path: `${path}?${withPieces(encodeQuery({ ...params, ...asText }), pieces)}`, headers };
    if (encoding === 'form') {
      return {
        method,
        path,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: withPieces(encodeQuery({ ...params, ...asText }), pieces),
      };
    }
    if (encoding === 'json')
      return { method, path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ ...params, ...structured }) };
    return { method, path, headers: { ...headers, 'content-type': rawType }, body: Object.values(params).join('&') };
  });

const batchItem = fc.record(
  {
    method: fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE', 'get', 'PUT'), jsonValue),
    relative_url: fc.oneof(
      {
        arbitrary: fc
          .tuple(anyId, fc.option(fc.constantFrom(...EDGES), { nil: undefined }), fc.option(fieldsParam, { nil: undefined }))
          .map(([id, edge, fields]) => `${encodePart(id)}${edge ? `/${edge}` : ''}${fields !== undefined ? `?fields=${encodePart(fields)}` : ''}`),
        weight: 4,
      },
      { arbitrary: fc.constantFrom('', '/', '?batch=[]', 'v24.0/', 'v22.0/1', '//', '../..', '?access_token=x'), weight: 1 },
      { arbitrary: fc.tuple(anyId, rawPieces(PARAM_NAMES, paramValue)).map(([id, pieces]) => `${encodePart(id)}?${pieces.join('&')}`), weight: 1 },
      { arbitrary: jsonValue, weight: 1 },
    ),
    body: fc.oneof(
      graphParams.map(({ named, structured, pieces }) => withPieces(encodeQuery({ ...named, ...asJsonText(structured) }), pieces)),
      fc.constantFrom(`batch=${encodePart('[{"relative_url":"me"}]')}`, 'name=x&name=y'),
      jsonValue,
    ),
    name: oddString,
    depends_on: oddString,
  },
  { requiredKeys: [] },
);

const batchRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.array(batchItem, { maxLength: 12 }).map((items) => JSON.stringify(items)), weight: 5 },
      {
        arbitrary: fc.integer({ min: 51, max: 60 }).map((count) => JSON.stringify(Array.from({ length: count }, () => ({ relative_url: real.act })))),
        weight: 1,
      },
      { arbitrary: jsonValue.map((value) => JSON.stringify(value) ?? ''), weight: 1 },
      { arbitrary: oddString, weight: 1 },
    ),
    token,
    fc.constantFrom('form', 'json', 'query'),
    fc.dictionary(fc.constantFrom('include_headers', 'fields', 'access_token', 'name'), paramValue, { maxKeys: 2 }),
  )
  .map(([batch, credential, encoding, extra]) => {
    const params: Record<string, string> = { ...extra, batch, ...(credential ? { access_token: credential } : {}) };
    if (encoding === 'query') return { method: 'POST', path: `/v24.0/?${encodeQuery(params)}`, headers: {} as Record<string, string> };
    if (encoding === 'json') return { method: 'POST', path: '/v24.0/', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) };
    return { method: 'POST', path: '/v24.0', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: encodeQuery(params) };
  });

// --- /oauth2 -----------------------------------------------------------------------------------------------

const oauthValue = (realValue: () => string, others: string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(null).map(realValue), weight: 2 },
    { arbitrary: fc.constantFrom(...others), weight: 1 },
    { arbitrary: oddString, weight: 2 },
  );

const oauthRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constant('/oauth2/token'), weight: 8 },
      { arbitrary: fc.constantFrom('/oauth2/jwks', '/.well-known/oauth-authorization-server', '/oauth2/', '/oauth2/token/x', '/oauth2/authorize'), weight: 1 },
    ),
    fc.oneof({ arbitrary: fc.constant('POST'), weight: 6 }, { arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'), weight: 1 }),
    fc.array(
      fc.tuple(
        fc.oneof(
          { arbitrary: fc.constantFrom('grant_type', 'client_id', 'client_secret', 'scope', 'audience', 'resource'), weight: 5 },
          { arbitrary: oddString, weight: 1 },
        ),
        fc.oneof(
          oauthValue(() => 'client_credentials', ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']),
          oauthValue(() => real.clientId, ['00000000-0000-0000-0000-000000000000', 'admin']),
          oauthValue(() => real.clientSecret, ['secret', 'x'.repeat(200)]),
          oauthValue(() => 'ads_read', ['write', 'ads_read ads_read', 'openid', 'all']),
        ),
      ),
      { maxLength: 8 },
    ),
    fc.option(
      fc.oneof(
        fc.tuple(oddString, oddString).map(([id, secret]) => `Basic ${Buffer.from(`${encodePart(id)}:${encodePart(secret)}`).toString('base64')}`),
        fc.constant(null).map(() => `Basic ${Buffer.from(`${real.clientId}:${encodePart('wrong')}`).toString('base64')}`),
        fc.constantFrom('Basic', 'Basic =', 'Basic Og==', 'Basic ' + 'A'.repeat(5_000), 'Bearer x'),
        headerText(60),
      ),
      { nil: undefined },
    ),
    fc.oneof({ arbitrary: fc.constant('application/x-www-form-urlencoded'), weight: 4 }, { arbitrary: contentType, weight: 1 }),
    fc.option(oddString, { nil: undefined, freq: 6 }),
    rawPieces(['grant_type', 'client_id', 'client_secret', 'scope'], oddString),
  )
  .map(([path, method, pairs, authorization, type, raw, pieces]) => {
    const form = new URLSearchParams();
    for (const [name, value] of pairs) form.append(name, value);
    const headers: Record<string, string> = { 'content-type': type, ...(authorization !== undefined ? { authorization } : {}) };
    return {
      method,
      path,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : (raw ?? withPieces(form.toString(), pieces)),
    } satisfies FuzzRequest;
  });

// --- The runs ------------------------------------------------------------------------------------------------

/**
 * Inputs nested far deeper than any real one: whatever walks them recursively (a parser, a validator,
 * JSON.stringify) must refuse them. Documents and fields 3,000 levels deep; JSON 10,000 (JSON.stringify overflows
 * the stack between 3,000 and 5,000), except in a query string, which holds 16 KB.
 */
const DEEP = 3_000;
const DEEP_JSON = 10_000;
const deepJson = DEEP_SHAPES.arrays(DEEP_JSON);
const deepObject = DEEP_SHAPES.objects(DEEP_JSON);
const deepInUrl = DEEP_SHAPES.arrays(5_000);

const KNOWN_HARD_CASES: Array<[string, () => FuzzRequest]> = [
  ['a GraphQL document nested 3,000 levels', () => graphqlPost({ query: `${'{ a '.repeat(DEEP)}${'}'.repeat(DEEP)}` })],
  ['a GraphQL document of 3,000 nested lists', () => graphqlPost({ query: `{ node(id: ${'['.repeat(DEEP)}1${']'.repeat(DEEP)}) { id } }` })],
  ['GraphQL variables nested 10,000 levels', () => graphqlPost({ query: TEMPLATES[10]!, variables: { account: '1', input: '@@deep-10000-objects@@' } })],
  ['an unused GraphQL variable nested 10,000 levels', () => graphqlPost({ query: TEMPLATES[0]!, variables: { unused: '@@deep-10000-arrays@@' } })],
  ['GraphQL extensions nested 10,000 levels', () => graphqlPost({ query: TEMPLATES[0]!, extensions: { deep: '@@deep-10000-mixed@@' } })],
  [
    'a JSON scalar nested 10,000 levels',
    () => graphqlPost({ query: TEMPLATES[9]!, variables: { id: real.adSet, input: { targeting: '@@deep-10000-objects@@' } } }),
  ],
  ...(['variables', 'extensions'] as const).map((name): [string, () => FuzzRequest] => [
    `GraphQL GET ${name} nested 5,000 levels`,
    () => ({
      method: 'GET',
      path: `/graphql?query=${encodePart(TEMPLATES[0]!)}&${name}=${name === 'variables' ? `{"x":${deepInUrl}}` : deepInUrl}`,
      headers: signedInHeaders('session'),
    }),
  ]),
  [
    '/v24.0 fields nested 3,000 levels',
    () => ({
      method: 'GET',
      path: `/v24.0/${real.adSet}?${encodeQuery({ access_token: real.session, fields: `${'campaign{'.repeat(DEEP)}id${'}'.repeat(DEEP)}` })}`,
      headers: {},
    }),
  ],
  [
    '/v24.0 targeting nested 5,000 levels in the query string',
    () => ({ method: 'POST', path: `/v24.0/${real.adSet}?access_token=${real.session}&targeting=${deepInUrl}`, headers: {} }),
  ],
  [
    '/v24.0 batch item whose body holds targeting nested 10,000 levels',
    () => ({
      method: 'POST',
      path: '/v24.0/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeQuery({
        access_token: real.session,
        batch: JSON.stringify([{ method: 'POST', relative_url: real.adSet, body: encodeQuery({ targeting: deepObject }) }]),
      }),
    }),
  ],
  [
    '/v24.0 targeting nested 10,000 levels',
    () => ({
      method: 'POST',
      path: `/v24.0/${real.adSet}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeQuery({ access_token: real.session, targeting: deepObject }),
    }),
  ],
  [
    '/v24.0 JSON body nested 10,000 levels',
    () => ({
      method: 'POST',
      path: `/v24.0/${real.adSet}?access_token=${real.session}`,
      headers: { 'content-type': 'application/json' },
      body: `{"name":${deepJson}}`,
    }),
  ],
  [
    '/v24.0 batch nested 10,000 levels',
    () => ({
      method: 'POST',
      path: '/v24.0/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeQuery({ access_token: real.session, batch: deepJson }),
    }),
  ],
  [
    '/api/v2 JSON body nested 10,000 levels',
    () => ({
      method: 'POST',
      path: '/api/v2/authcheck',
      headers: { 'content-type': 'application/json', 'service-session-token': real.session },
      body: `{"checks":${deepObject}}`,
    }),
  ],
  // A body that claims a compression it does not have: zlib's error carries a 400 but no body-parser type.
  ...(['gzip', 'deflate', 'br'] as const).flatMap((encoding): Array<[string, () => FuzzRequest]> => [
    [
      `/graphql, Content-Encoding: ${encoding} over plain bytes`,
      () => ({ ...graphqlPost({ query: '{ __typename }' }), headers: { 'content-type': 'application/json', 'content-encoding': encoding } }),
    ],
    [
      `/api/v2, Content-Encoding: ${encoding} over plain bytes`,
      () => ({
        method: 'POST',
        path: '/api/v2/users/login',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: '{"email":"a@b.c","password":"x"}',
      }),
    ],
    [
      `/v24.0, Content-Encoding: ${encoding} over plain bytes`,
      () => ({
        method: 'POST',
        path: `/v24.0/${real.adSet}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': encoding },
        body: encodeQuery({ access_token: real.session, name: 'x' }),
      }),
    ],
    [
      `/oauth2/token, Content-Encoding: ${encoding} over plain bytes`,
      () => ({
        method: 'POST',
        path: '/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': encoding },
        body: 'grant_type=client_credentials',
      }),
    ],
  ]),
];

function graphqlPost(envelope: Record<string, unknown>): FuzzRequest {
  return { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', ...signedInHeaders('session') }, body: JSON.stringify(envelope) };
}

describe('fuzzing every surface (fixed seed, bounded runs)', () => {
  it('GraphQL: malformed documents, variables and envelopes', async () => {
    await fuzz('graphql', graphqlRequest, runs(140));
  });

  it('/api/v2: malformed bodies, ids and credentials on every route', async () => {
    await fuzz('identity', identityRequest, runs(80));
  });

  it('/v24.0: malformed paths, ids, fields, parameters in every encoding', async () => {
    await fuzz('graph', graphRequest, runs(140));
  });

  it('/v24.0 batch: malformed batches and items', async () => {
    await fuzz('batch', batchRequest, runs(60));
  });

  it('/oauth2: malformed token requests and client credentials', async () => {
    await fuzz('oauth', oauthRequest, runs(70));
  });

  it('odd headers on every surface: content types, encodings, proxies, credentials, a header too large', async () => {
    const base = fc.oneof(graphqlRequest, identityRequest, graphRequest, batchRequest, oauthRequest);
    await fuzz(
      'headers',
      fc.tuple(base, extraHeaders).map(([request, headers]) => ({ ...request, headers: { ...request.headers, ...headers } })),
      runs(80),
    );
  });

  it('bytes that are not UTF-8 in the bodies of every surface', async () => {
    const withBody = fc.oneof(graphqlRequest, identityRequest, graphRequest, batchRequest, oauthRequest).filter((request) => typeof request.body === 'string');
    const notUtf8 = fc.constantFrom([0xff], [0xfe, 0xff], [0xc3], [0xe9], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0x80]);
    await fuzz(
      'not utf-8',
      fc.tuple(withBody, fc.nat(), notUtf8).map(([request, at, bytes]) => {
        // Placed inside the body's text: within a string, a name, or between tokens.
        const body = Buffer.from(expandDeepValues(request).body as string);
        const position = at % (body.length + 1);
        return { ...request, body: Buffer.concat([body.subarray(0, position), Buffer.from(bytes), body.subarray(position)]) };
      }),
      runs(40),
    );
  });

  it.each(KNOWN_HARD_CASES)('%s', async (_name, request) => {
    await check(request());
  });
});
