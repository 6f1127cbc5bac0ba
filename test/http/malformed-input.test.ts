import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/oauth/service.ts';
import { MAX_JSON_DEPTH } from '../../src/text/json-limits.ts';
import { expectGraphError } from '../helpers/graph.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { databaseDigest, expectUnchanged } from '../helpers/table-hash.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * Input every surface must refuse in its own shape, naming what was wrong, without a 500, without logging above
 * info, and changing nothing (issue 25, part 3): JSON nested thousands of levels deep, text that is not UTF-8,
 * and /v24.0 bodies the server cannot read.
 */

// pino's info level: a caller's mistake is logged no higher.
const INFO = 30;
const DEEP = 5_000;

const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** A body of bytes, some of them not UTF-8. */
const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part)))));

let server: TestServer;
const real = { session: '', adSet: '', clientId: '', clientSecret: '' };

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  real.session = (await world.user({ organizationId: org.id, role: 'owner' })).token;
  const [campaign] = await world.campaigns(await world.adAccount(org.id), 1);
  const [adSet] = await world.adSets(campaign!, 1, () => ({ billingEvent: 'IMPRESSIONS', optimizationGoal: 'LINK_CLICKS', dailyBudget: '1000' }));
  real.adSet = adSet!.id;
  const { client, clientSecret } = await createClient(server.deps, { name: 'malformed', scope: 'write', organization: org.id });
  real.clientId = client.clientId;
  real.clientSecret = clientSecret;
});
afterAll(() => server?.close());

interface Sent {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/**
 * Sends one request that must be refused: the answer, after checking that nothing was written and that no log line
 * of the request is above info (its own "request completed" line is waited for).
 */
async function refused(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> | FormData } = {},
): Promise<Sent> {
  const before = await databaseDigest(server.deps.db);
  const requestId = `malformed-${Math.random().toString(36).slice(2)}`;
  const firstLine = server.logs.length;
  const response = await fetch(`${server.url}${path}`, { method, headers: { 'x-request-id': requestId, ...init.headers }, body: init.body });
  const text = await response.text();
  await expect
    .poll(() => server.logs.slice(firstLine).some((line) => line.msg === 'request completed' && (line.req as { id?: string })?.id === requestId))
    .toBe(true);
  const loud = server.logs.slice(firstLine).filter((line) => (line.level as number) > INFO);
  expect(loud, `log lines above info for ${method} ${path.slice(0, 80)}`).toEqual([]);
  await expectUnchanged(server.deps.db, before, `${method} ${path.slice(0, 80)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const signedIn = () => ({ 'service-session-token': real.session });
const graphql = (envelope: string) => refused('POST', '/graphql', { headers: { ...json, ...signedIn() }, body: envelope });
const graphqlGet = (search: string) => refused('GET', `/graphql?${search}`, { headers: signedIn() });
const expectGraphQLRefusal = (sent: Sent, status: number, code: string, message: string | RegExp, field?: string) => {
  expect(sent.status, sent.text).toBe(status);
  expect(sent.body.errors, sent.text).toHaveLength(1);
  const [error] = sent.body.errors;
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  expect(error.extensions).toEqual({ code, ...(field !== undefined ? { field } : {}) });
};
const UPDATE_AD_SET = JSON.stringify('mutation($id: ID!, $input: UpdateAdSetInput!) { updateAdSet(id: $id, input: $input) { id name } }');

describe('JSON nested deeper than the limit', () => {
  const nested = `is nested more than ${MAX_JSON_DEPTH} levels deep`;

  describe('GraphQL: 400 BAD_USER_INPUT naming the variable', () => {
    it('an unused variable 5,000 levels deep (the cache key of the complexity estimate overflowed the stack)', async () => {
      const sent = await graphql(`{"query":"{ __typename }","variables":{"unused":${deepArrays(DEEP)}}}`);
      expectGraphQLRefusal(sent, 400, 'BAD_USER_INPUT', `Variable "$unused" ${nested}.`, 'unused');
    });

    it('a JSON scalar inside an input 5,000 levels deep', async () => {
      const sent = await graphql(`{"query":${UPDATE_AD_SET},"variables":{"id":"${real.adSet}","input":{"bidAdjustments":${deepObjects(DEEP)}}}}`);
      expectGraphQLRefusal(sent, 400, 'BAD_USER_INPUT', `Variable "$input" ${nested}.`, 'input');
    });

    it('extensions 5,000 levels deep', async () => {
      const sent = await graphql(`{"query":"{ __typename }","extensions":${deepObjects(DEEP)}}`);
      expectGraphQLRefusal(sent, 400, 'BAD_USER_INPUT', `Request field "extensions" ${nested}.`, 'extensions');
    });

    it('variables and extensions of a GET, 5,000 levels deep', async () => {
      // Brackets go unescaped in a query string: 5,000 levels fit in Node's 16 KB of request line.
      const query = `query=${encodeURIComponent('{ __typename }')}`;
      expectGraphQLRefusal(await graphqlGet(`${query}&variables={"x":${deepArrays(DEEP)}}`), 400, 'BAD_USER_INPUT', `Variable "$x" ${nested}.`, 'x');
      expectGraphQLRefusal(
        await graphqlGet(`${query}&extensions=${deepArrays(DEEP)}`),
        400,
        'BAD_USER_INPUT',
        `Request field "extensions" ${nested}.`,
        'extensions',
      );
    });

    it(`a variable ${MAX_JSON_DEPTH} levels deep is not refused for its depth`, async () => {
      const response = await server.graphql('{ __typename }', { unused: JSON.parse(deepArrays(MAX_JSON_DEPTH)) }, real.session);
      expect(response.body).toEqual({ data: { __typename: 'Query' } });
      // One level more is.
      const refusal = await server.graphql('{ __typename }', { unused: JSON.parse(deepArrays(MAX_JSON_DEPTH + 1)) }, real.session);
      expect(refusal.status).toBe(400);
      expect(refusal.body.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'unused' });
    });
  });

  describe('/v24.0: error 100 naming the parameter', () => {
    const expectParamError = (sent: Sent, message: string) => expectGraphError(sent, { status: 400, code: 100, message: `(#100) ${message}` });
    const path = () => `/v24.0/${real.adSet}?access_token=${real.session}`;

    it('targeting 5,000 levels deep in a form body (a 500 with code 1 and is_transient before)', async () => {
      const body = new URLSearchParams({ access_token: real.session, targeting: deepObjects(DEEP) }).toString();
      expectParamError(await refused('POST', `/v24.0/${real.adSet}`, { headers: form, body }), `Param targeting ${nested}`);
    });

    it('targeting 5,000 levels deep in a JSON body', async () => {
      expectParamError(await refused('POST', path(), { headers: json, body: `{"targeting":${deepObjects(DEEP)}}` }), `Param targeting ${nested}`);
    });

    it('any member of a JSON body 5,000 levels deep, whatever its reader', async () => {
      expectParamError(await refused('POST', path(), { headers: json, body: `{"name":${deepArrays(DEEP)}}` }), `Param name ${nested}`);
    });

    it('targeting 5,000 levels deep in the query string', async () => {
      expectParamError(await refused('POST', `${path()}&targeting=${deepArrays(DEEP)}`), `Param targeting ${nested}`);
    });

    it('a batch 5,000 levels deep, and an item whose body holds targeting 5,000 levels deep', async () => {
      const deepBatch = new URLSearchParams({ access_token: real.session, batch: deepArrays(DEEP) }).toString();
      expectParamError(await refused('POST', '/v24.0/', { headers: form, body: deepBatch }), `Param batch ${nested}`);

      const item = { method: 'POST', relative_url: real.adSet, body: `targeting=${encodeURIComponent(deepObjects(DEEP))}` };
      const batch = new URLSearchParams({ access_token: real.session, batch: JSON.stringify([item]) }).toString();
      const sent = await refused('POST', '/v24.0/', { headers: form, body: batch });
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body[0].code).toBe(400);
      expect(JSON.parse(sent.body[0].body).error).toMatchObject({ code: 100, message: `(#100) Param targeting ${nested}` });
    });
  });

  describe('/api/v2: 400 "Validation failed." naming the field', () => {
    it.each([
      ['/authcheck', () => `{"checks":${deepObjects(DEEP)}}`, 'checks'],
      ['/users/login', () => `{"email":${deepArrays(DEEP)},"password":"x"}`, 'email'],
    ])('%s with a field 5,000 levels deep', async (route, body, field) => {
      const sent = await refused('POST', `/api/v2${route}`, { headers: { ...json, ...signedIn() }, body: body() });
      expect({ status: sent.status, body: sent.body }).toEqual({
        status: 400,
        body: { message: 'Validation failed.', validations: [{ field, detail: `"${field}" ${nested}.` }] },
      });
    });
  });
});

describe('text that is not UTF-8 (or not Unicode) is refused, not stored as U+FFFD', () => {
  const notUtf8 = '(#100) Param name is not valid UTF-8';

  it('/v24.0: %-escapes that are not UTF-8 in a form body and in the query string, naming the parameter', async () => {
    // qs kept the form's escapes undecoded and stored them so; the query string's came out as U+FFFD.
    const body = `access_token=${real.session}&name=Bad%FF%FEname`;
    expectGraphError(await refused('POST', `/v24.0/${real.adSet}`, { headers: form, body }), { status: 400, code: 100, message: notUtf8 });
    expectGraphError(await refused('POST', `/v24.0/${real.adSet}?access_token=${real.session}&name=Bad%FF%FEname`), {
      status: 400,
      code: 100,
      message: notUtf8,
    });
  });

  it('/v24.0: raw bytes that are not UTF-8 in a form body, naming the parameter', async () => {
    const body = bytes(`access_token=${real.session}&name=Caf`, [0xe9]);
    expectGraphError(await refused('POST', `/v24.0/${real.adSet}`, { headers: form, body }), { status: 400, code: 100, message: notUtf8 });
  });

  it('/v24.0: raw bytes that are not UTF-8 in a JSON body, and a lone surrogate escape, are refused', async () => {
    const path = `/v24.0/${real.adSet}?access_token=${real.session}`;
    const raw = await refused('POST', path, { headers: json, body: bytes('{"name":"Raw', [0xff, 0xfe], 'name"}') });
    expectGraphError(raw, { status: 400, code: 100, message: '(#100) Request body could not be read.' });
    const lone = await refused('POST', path, { headers: json, body: '{"name":"half \\ud83d of an emoji"}' });
    expectGraphError(lone, { status: 400, code: 100, message: /^\(#100\) Param name holds a lone UTF-16 surrogate/ });
  });

  it('/v24.0: a batch item whose body is not UTF-8 is answered error 100 naming the parameter', async () => {
    const item = { method: 'POST', relative_url: real.adSet, body: 'name=Bad%FF%FEname' };
    const sent = await refused('POST', '/v24.0/', {
      headers: form,
      body: new URLSearchParams({ access_token: real.session, batch: JSON.stringify([item]) }).toString(),
    });
    expect(sent.body[0].code, sent.text).toBe(400);
    expect(JSON.parse(sent.body[0].body).error).toMatchObject({ code: 100, message: notUtf8 });
  });

  it('/oauth2/token: a form field that is not UTF-8 is invalid_request naming it', async () => {
    const body = `grant_type=client_credentials&client_id=${encodeURIComponent(real.clientId)}&client_secret=${encodeURIComponent(real.clientSecret)}&scope=ads%FF`;
    const sent = await refused('POST', '/oauth2/token', { headers: form, body });
    expect({ status: sent.status, body: sent.body }).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Param scope is not valid UTF-8' },
    });
  });

  it('GraphQL: a GET query string that is not UTF-8, raw bytes in a JSON body, and a lone surrogate in a variable', async () => {
    expectGraphQLRefusal(
      await graphqlGet(`query=${encodeURIComponent('query($x: String) { convertDateFormat(format: $x) { output } }')}&variables={"x":"%FF"}`),
      400,
      'BAD_USER_INPUT',
      'Param variables is not valid UTF-8',
      'variables',
    );
    const raw = await refused('POST', '/graphql', {
      headers: { ...json, ...signedIn() },
      body: bytes('{"query":"{ __typename }","variables":{"x":"', [0xc0, 0xaf], '"}}'),
    });
    expectGraphQLRefusal(raw, 400, 'BAD_REQUEST', 'Request body must be valid JSON.');
    const input = `{"id":"${real.adSet}","input":{"name":"half \\ud83d of an emoji"}}`;
    expectGraphQLRefusal(
      await graphql(`{"query":${UPDATE_AD_SET},"variables":${input}}`),
      400,
      'BAD_USER_INPUT',
      /^Variable "\$input" holds a lone UTF-16 surrogate/,
      'input',
    );
  });

  it('/api/v2: raw bytes that are not UTF-8 are its bad-JSON answer; a lone surrogate escape names the field', async () => {
    const raw = await refused('POST', '/api/v2/users/login', { headers: json, body: bytes('{"email":"a', [0xff], '@example.com","password":"x"}') });
    expect({ status: raw.status, body: raw.body }).toEqual({ status: 400, body: { message: 'Request body must be valid JSON.' } });
    const lone = await refused('POST', '/api/v2/users/login', { headers: json, body: '{"email":"a\\udc00@example.com","password":"x"}' });
    expect(lone.status).toBe(400);
    expect(lone.body).toMatchObject({
      message: 'Validation failed.',
      validations: [{ field: 'email', detail: expect.stringMatching(/^"email" holds a lone UTF-16 surrogate/) }],
    });
  });
});

describe('/v24.0 bodies the server cannot read are error 100 naming the content type', () => {
  const readable = 'send parameters as application/x-www-form-urlencoded or application/json (or multipart/form-data with a media file)';

  it.each([
    ['text/plain', 'name=Renamed', 'text/plain'],
    ['XML', '<name>Renamed</name>', 'application/xml'],
    ['JSON under another type', '{"name":"Renamed"}', 'application/merge-patch+json'],
  ])('%s (answered {"success": true} before, having read nothing)', async (_case, body, type) => {
    const sent = await refused('POST', `/v24.0/${real.adSet}?access_token=${real.session}`, { headers: { 'content-type': type }, body });
    expectGraphError(sent, { status: 400, code: 100, message: `(#100) Content type ${type} is not supported: ${readable}` });
  });

  it('multipart/form-data (curl -F): its fields are the parameters (a file is a comment photo, test/comments/media-upload.test.ts)', async () => {
    const fields = new FormData();
    fields.append('name', 'Renamed by a form');
    const sent = await fetch(`${server.url}/v24.0/${real.adSet}?access_token=${real.session}`, { method: 'POST', body: fields });
    expect(await sent.json()).toEqual({ success: true });
    expect((await server.deps.db('ad_sets').where('id', real.adSet).first()).name).toBe('Renamed by a form');
  });

  it('a body without a content type; an empty body of any type is no body, and the query string is read', async () => {
    const sent = await refused('POST', `/v24.0/${real.adSet}?access_token=${real.session}`, { body: bytes('name=Renamed') });
    expectGraphError(sent, { status: 400, code: 100, message: `(#100) A request body needs a content type: ${readable}` });
    const empty = await fetch(`${server.url}/v24.0/${real.adSet}?access_token=${real.session}&name=Renamed`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '',
    });
    expect(await empty.json()).toEqual({ success: true });
    expect((await server.deps.db('ad_sets').where('id', real.adSet).first()).name).toBe('Renamed');
  });
});
