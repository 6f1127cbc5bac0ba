import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { firstError, INCORRECT_LOGIN, restClient, sessionRow, SIGNED_OUT, toDate, type RestClient } from '../helpers/api.ts';

// Scopes, login, sessions and logout on both surfaces (issue 3; DECISIONS sections 1 and 2).
// test/http/identity-routes.test.ts already covers the basic login/logout round trip and some bad input.

const EXPECTED_SCOPES = ['all', 'ads_read', 'ads_management', 'pages_read_engagement', 'pages_manage_engagement', 'pages_read_user_content', 'read', 'write'];

const LOGIN = 'mutation Login($input: LoginInput!) { login(input: $input) { sessionToken expiresAt } }';
const ME = '{ me { id email } }';

let server: TestServer;
let rest: RestClient;
let world: ReturnType<typeof worldBuilder>;

beforeAll(async () => {
  server = await startTestServer();
  rest = restClient(server);
  world = worldBuilder(server.deps);
});
afterAll(() => server?.close());

async function restLogin(email: string, password = PASSWORD): Promise<string> {
  const response = await rest.post('/users/login', { email, password });
  expect(response.status).toBe(201);
  return response.body.session_token as string;
}

describe('key scopes', () => {
  it('GET /api/v2/auth/scopes is public and lists all and every scope', async () => {
    const response = await rest.get('/auth/scopes');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['external']);
    expect([...response.body.external].sort()).toEqual([...EXPECTED_SCOPES].sort());
  });

  it('GET /api/v2/auth/scopes answers the same with a session', async () => {
    const { token } = await world.user();
    const response = await rest.get('/auth/scopes', token);
    expect(response.status).toBe(200);
    expect([...response.body.external].sort()).toEqual([...EXPECTED_SCOPES].sort());
  });

  it('authScopes is public on GraphQL and lists the same scopes', async () => {
    const { status, body } = await server.graphql('{ authScopes { external } }');
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect([...body.data!.authScopes.external].sort()).toEqual([...EXPECTED_SCOPES].sort());
  });
});

describe('POST /api/v2/users/login', () => {
  it('answers 201 with only a session token, stored as a hash with an expiry and a last-used time', async () => {
    const { user } = await world.user();
    const response = await rest.post('/users/login', { email: user.email, password: PASSWORD });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ session_token: expect.any(String) });
    const token = response.body.session_token as string;

    const row = await sessionRow(server.deps.db, token);
    expect(row).toBeDefined();
    expect(row!.user_id).toBe(user.id);
    expect(row!.revoked_at).toBeNull();
    expect(row!.last_used_at).not.toBeNull();
    // Default lifetime: 24 hours.
    expect(toDate(row!.expires_at).getTime() - toDate(row!.created_at).getTime()).toBe(86_400_000);
    // The token itself is nowhere in the table.
    const all = await server.deps.db('sessions').select();
    expect(JSON.stringify(all)).not.toContain(token);
  });

  it('gives a wrong password and an unknown e-mail the identical 401', async () => {
    const { user } = await world.user();
    const wrong = await rest.post('/users/login', { email: user.email, password: 'Not-The-Password-1' });
    const unknown = await rest.post('/users/login', { email: `nobody-${Date.now()}@example.com`, password: 'Not-The-Password-1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: INCORRECT_LOGIN });
    expect(unknown.body).toEqual(wrong.body);
    // No session came of it: only the one the world builder issued.
    expect(await server.deps.db('sessions').where('user_id', user.id)).toHaveLength(1);
  });

  it('refuses a user of another login type with 403, even with the right password', async () => {
    const { user } = await world.user();
    await server.deps.db('users').where('id', user.id).update({ login_type: 'github' });
    const before = await server.deps.db('sessions').where('user_id', user.id).count({ n: '*' });

    const right = await rest.post('/users/login', { email: user.email, password: PASSWORD });
    expect(right.status).toBe(403);
    expect(right.body.message).toMatch(/login type "github"/);
    expect(right.body.session_token).toBeUndefined();
    // A wrong password still says nothing about the account.
    const wrong = await rest.post('/users/login', { email: user.email, password: 'Not-The-Password-1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: INCORRECT_LOGIN });

    const after = await server.deps.db('sessions').where('user_id', user.id).count({ n: '*' });
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
  });

  it('refuses a suspended user with 401 and issues no session', async () => {
    const { user, token } = await world.user();
    await server.deps.db('users').where('id', user.id).update({ status: 'suspended' });
    const response = await rest.post('/users/login', { email: user.email, password: PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(/suspended/i);
    expect(response.body.session_token).toBeUndefined();
    const sessions = await server.deps.db('sessions').where('user_id', user.id);
    expect(sessions).toHaveLength(1); // only the one the world builder issued
    // A suspended user's existing session stops working too.
    expect((await rest.get('/users/me', token)).status).toBe(401);
  });

  it('accepts a password of exactly 64 characters as input (wrong, so 401, not 400)', async () => {
    const { user } = await world.user();
    const response = await rest.post('/users/login', { email: user.email, password: 'Aa1!'.repeat(16) });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: INCORRECT_LOGIN });
  });

  it.each([
    ['a password over 64 characters', { email: 'x@example.com', password: `${'Aa1!'.repeat(16)}x` }, 'password'],
    ['an e-mail over 256 characters', { email: `${'a'.repeat(245)}@example.com`, password: 'p' }, 'email'],
    ['no password', { email: 'x@example.com' }, 'password'],
    ['an empty password', { email: 'x@example.com', password: '' }, 'password'],
    ['an e-mail that is a number', { email: 42, password: 'p' }, 'email'],
    ['an e-mail that is null', { email: null, password: 'p' }, 'email'],
    ['a password that is an object', { email: 'x@example.com', password: { $ne: '' } }, 'password'],
    ['an unknown field next to valid ones', { email: 'x@example.com', password: 'p', remember_me: true }, 'remember_me'],
  ])('answers %s with 400 naming the field', async (_case, body, field) => {
    const response = await rest.post('/users/login', body);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Validation failed.');
    expect(response.body.validations).toEqual([{ field, detail: expect.any(String) }]);
  });

  it.each([
    ['no body and no content type', { noContentType: true }],
    ['a JSON array', { body: '[{"email":"x@example.com","password":"p"}]' }],
    ['a JSON string', { body: '"x@example.com"' }],
    ['a form-encoded body', { body: 'email=x%40example.com&password=p', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ])('answers %s with 400 in the identity error shape', async (_case, options) => {
    const response = await rest.call('POST', '/users/login', options);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.body.message).toMatch(/JSON/);
  });
});

describe('sessions', () => {
  it('works with Service-Session-Token and Authorization: Bearer on REST', async () => {
    const { user } = await world.user();
    const token = await restLogin(user.email);
    expect((await rest.get('/users/me', token)).body.id).toBe(user.id);
    const bearer = await rest.call('GET', '/users/me', { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
    expect(bearer.body.id).toBe(user.id);
  });

  it('rejects an unknown token on a protected route with the signed-out 401', async () => {
    const response = await rest.get('/users/me', 'not-a-real-token');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: SIGNED_OUT });
  });

  it('honours the expiry: a session past expires_at is refused on both surfaces', async () => {
    const { user } = await world.user();
    const token = await restLogin(user.email);
    const other = await restLogin(user.email);
    expect((await rest.get('/users/me', token)).status).toBe(200);

    const updated = await server.deps
      .db('sessions')
      .where('id', (await sessionRow(server.deps.db, token))!.id)
      .update({ expires_at: new Date(Date.now() - 60_000) });
    expect(updated).toBe(1);

    const response = await rest.get('/users/me', token);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: SIGNED_OUT });
    const graphql = await server.graphql(ME, {}, token);
    expect(firstError(graphql.body).extensions?.code).toBe('UNAUTHENTICATED');
    // Only that session expired.
    expect((await rest.get('/users/me', other)).status).toBe(200);
  });

  it('records when a session was last used', async () => {
    const { user } = await world.user();
    const token = await restLogin(user.email);
    const row = (await sessionRow(server.deps.db, token))!;
    expect(toDate(row.last_used_at).getTime()).toBe(toDate(row.created_at).getTime());

    const longAgo = new Date(Date.now() - 10 * 60_000);
    await server.deps.db('sessions').where('id', row.id).update({ last_used_at: longAgo });
    expect((await rest.get('/users/me', token)).status).toBe(200);
    const touched = (await sessionRow(server.deps.db, token))!;
    expect(toDate(touched.last_used_at).getTime()).toBeGreaterThan(longAgo.getTime());
  });

  it('POST /api/v2/users/logout revokes only the session it was sent with', async () => {
    const { user } = await world.user();
    const first = await restLogin(user.email);
    const second = await restLogin(user.email);
    const logout = await rest.post('/users/logout', undefined, first);
    expect(logout.status).toBe(200);
    expect((await sessionRow(server.deps.db, first))!.revoked_at).not.toBeNull();
    expect((await rest.get('/users/me', first)).status).toBe(401);
    expect((await rest.get('/users/me', second)).status).toBe(200);
    // The revoked token cannot log out again.
    expect((await rest.post('/users/logout', undefined, first)).status).toBe(401);
  });

  it('POST /api/v2/users/logout without a session is 401', async () => {
    const response = await rest.post('/users/logout');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: SIGNED_OUT });
  });
});

describe('a configured session lifetime', () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startTestServer({ SESSION_TTL_SECONDS: '120' });
  });
  afterAll(() => short?.close());

  it('sets expires_at from SESSION_TTL_SECONDS on both surfaces', async () => {
    const { user } = await worldBuilder(short.deps).user();
    const response = await restClient(short).post('/users/login', { email: user.email, password: PASSWORD });
    expect(response.status).toBe(201);
    const row = (await sessionRow(short.deps.db, response.body.session_token))!;
    expect(toDate(row.expires_at).getTime() - toDate(row.created_at).getTime()).toBe(120_000);

    const { body } = await short.graphql(LOGIN, { input: { email: user.email, password: PASSWORD } });
    expect(body.errors).toBeUndefined();
    const graphRow = (await sessionRow(short.deps.db, body.data!.login.sessionToken))!;
    expect(new Date(body.data!.login.expiresAt).getTime()).toBe(toDate(graphRow.expires_at).getTime());
    expect(toDate(graphRow.expires_at).getTime() - toDate(graphRow.created_at).getTime()).toBe(120_000);
  });
});

describe('GraphQL login and logout', () => {
  it('login returns a session token that works on REST and GraphQL', async () => {
    const { user } = await world.user();
    const { status, body } = await server.graphql(LOGIN, { input: { email: user.email, password: PASSWORD } });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const { sessionToken, expiresAt } = body.data!.login;
    expect(typeof sessionToken).toBe('string');
    expect(expiresAt).toMatch(/Z$/);
    const row = (await sessionRow(server.deps.db, sessionToken))!;
    expect(row.user_id).toBe(user.id);
    expect(new Date(expiresAt).getTime()).toBe(toDate(row.expires_at).getTime());
    expect((await rest.get('/users/me', sessionToken)).body.id).toBe(user.id);
    expect((await server.graphql(ME, {}, sessionToken)).body.data).toEqual({ me: { id: user.id, email: user.email } });
  });

  it('gives a wrong password and an unknown e-mail the identical UNAUTHENTICATED error, without the access-token code 190', async () => {
    const { user } = await world.user();
    const wrong = await server.graphql(LOGIN, { input: { email: user.email, password: 'Not-The-Password-1' } });
    const unknown = await server.graphql(LOGIN, { input: { email: `nobody-${Date.now()}@example.com`, password: 'Not-The-Password-1' } });
    for (const result of [wrong, unknown]) {
      expect(result.body.data ?? null).toBeNull();
      expect(firstError(result.body).message).toBe(INCORRECT_LOGIN);
      // Nothing but the code: OAuth's 190 is about access tokens, and login is not a /v24.0 call.
      expect(firstError(result.body).extensions).toEqual({ code: 'UNAUTHENTICATED' });
    }
  });

  it('refuses another login type with FORBIDDEN and a suspended user with UNAUTHENTICATED', async () => {
    const { user: oidc } = await world.user();
    await server.deps.db('users').where('id', oidc.id).update({ login_type: 'oidc' });
    const forbidden = await server.graphql(LOGIN, { input: { email: oidc.email, password: PASSWORD } });
    expect(firstError(forbidden.body).extensions?.code).toBe('FORBIDDEN');
    expect(firstError(forbidden.body).message).toMatch(/login type "oidc"/);

    const { user: suspended } = await world.user();
    await server.deps.db('users').where('id', suspended.id).update({ status: 'suspended' });
    const refused = await server.graphql(LOGIN, { input: { email: suspended.email, password: PASSWORD } });
    expect(firstError(refused.body).extensions).toEqual({ code: 'UNAUTHENTICATED' });
    expect(firstError(refused.body).message).toMatch(/suspended/i);
    expect(await server.deps.db('sessions').whereIn('user_id', [oidc.id, suspended.id])).toHaveLength(2); // the world builder's two
  });

  it.each([
    ['an e-mail over 256 characters', { email: `${'a'.repeat(245)}@example.com`, password: 'p' }, 'input.email'],
    ['a malformed e-mail', { email: 'not-an-address', password: 'p' }, 'input.email'],
    ['a password over 64 characters', { email: 'x@example.com', password: 'x'.repeat(65) }, 'input.password'],
    ['an empty password', { email: 'x@example.com', password: '' }, 'input.password'],
  ])('answers %s with BAD_USER_INPUT naming the field', async (_case, input, field) => {
    const { body } = await server.graphql(LOGIN, { input });
    expect(firstError(body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });

  it('answers wrong types and unknown input fields with BAD_USER_INPUT naming the field', async () => {
    const wrongType = await server.graphql(LOGIN, { input: { email: 42, password: 'p' } });
    expect(wrongType.status).toBe(400);
    expect(firstError(wrongType.body).extensions?.code).toBe('BAD_USER_INPUT');
    expect(firstError(wrongType.body).message).toContain('input.email');

    const unknownField = await server.graphql(LOGIN, { input: { email: 'x@example.com', password: 'p', rememberMe: true } });
    expect(unknownField.status).toBe(400);
    expect(firstError(unknownField.body).extensions?.code).toBe('BAD_USER_INPUT');
    expect(firstError(unknownField.body).message).toContain('rememberMe');

    const missing = await server.graphql(LOGIN, { input: { email: 'x@example.com' } });
    expect(missing.status).toBe(400);
    expect(firstError(missing.body).message).toContain('password');
  });

  it('logout revokes the session it was sent with', async () => {
    const { user, token: other } = await world.user();
    const token = await restLogin(user.email);
    const { body } = await server.graphql('mutation { logout }', {}, token);
    expect(body).toEqual({ data: { logout: true } });
    expect((await sessionRow(server.deps.db, token))!.revoked_at).not.toBeNull();
    const after = await server.graphql(ME, {}, token);
    expect(after.status).toBe(401);
    expect(firstError(after.body).extensions?.code).toBe('UNAUTHENTICATED');
    expect((await rest.get('/users/me', token)).status).toBe(401);
    expect((await server.graphql(ME, {}, other)).body.data?.me.id).toBe(user.id);
  });

  it('logout without a session is UNAUTHENTICATED', async () => {
    const { body } = await server.graphql('mutation { logout }');
    expect(firstError(body).extensions?.code).toBe('UNAUTHENTICATED');
    expect(firstError(body).message).toBe(SIGNED_OUT);
  });
});
