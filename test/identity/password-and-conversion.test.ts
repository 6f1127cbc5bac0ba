import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { firstError, INCORRECT_LOGIN, NOT_FOUND, restClient, sha256Hex, SIGNED_OUT, type RestClient } from '../helpers/api.ts';

// Password validation and login conversion on both surfaces (issue 3).

const STRONG = 'Correct-Horse-9-Battery-Staple';
const WEAK = 'password';
const TOO_LONG = `${'Aa1!'.repeat(16)}x`; // 65 characters, strong otherwise
const VALIDATE = 'query Validate($password: String!) { validatePassword(password: $password) { valid details } }';
const CONVERT = `mutation Convert($user: String!, $input: ConvertLoginInput!) {
  convertLogin(user: $user, input: $input) { expiresAt stateString toType userId }
}`;
const STATE_PATTERN = /^convert-[A-Za-z0-9]{32}$/;
const FIVE_MINUTES = 5 * 60_000;

let server: TestServer;
let rest: RestClient;
let world: ReturnType<typeof worldBuilder>;
let orgId: string;
type Made = Awaited<ReturnType<ReturnType<typeof worldBuilder>['user']>>;
let admin: Made;
let outsider: Made;
let siteAdmin: Made;

beforeAll(async () => {
  server = await startTestServer();
  rest = restClient(server);
  world = worldBuilder(server.deps);
  orgId = (await world.organization()).id;
  const otherOrg = await world.organization();
  admin = await world.user({ organizationId: orgId, role: 'admin' });
  outsider = await world.user({ organizationId: otherOrg.id, role: 'admin' });
  siteAdmin = await world.user({ siteAdmin: true });
});
afterAll(() => server?.close());

const member = () => world.user({ organizationId: orgId, role: 'member' });
const conversionsOf = (userId: string) => server.deps.db('login_conversions').where('user_id', userId);

describe('POST /api/v2/users/validate-password', () => {
  it('needs a session', async () => {
    const response = await rest.post('/users/validate-password', { password: STRONG });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: SIGNED_OUT });
  });

  it('accepts a strong password', async () => {
    const { token } = await member();
    const response = await rest.post('/users/validate-password', { password: STRONG }, token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ valid: true, details: '' });
  });

  it('accepts a strong password of exactly 64 characters', async () => {
    const { token } = await member();
    const response = await rest.post('/users/validate-password', { password: 'Aa1!'.repeat(16) }, token);
    expect(response.body).toEqual({ valid: true, details: '' });
  });

  it.each([
    ['a weak password', WEAK],
    ['a 65-character password', TOO_LONG],
    ['an empty password', ''],
    ['a long run of one character', 'a'.repeat(60)],
  ])('rejects %s with details', async (_case, password) => {
    const { token } = await member();
    const response = await rest.post('/users/validate-password', { password }, token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ valid: false, details: expect.any(String) });
    expect(response.body.details.length).toBeGreaterThan(0);
  });

  // Coder's estimate (wagslane/go-password-validator v0.3.0, minimum 52 bits) counts a run of three or more
  // characters of a common sequence (digits, the alphabet, a keyboard row, either direction) as 2 characters,
  // so these score 20 to 28 bits there; counted character by character they would pass.
  it.each(['abcdefghijklmnopqrstuvwxyz', '12345678901234567890', 'qwertyuiopasdfghjklzxcvbnm', 'zyxwvutsrqponmlkjihgfedcba'])(
    "rejects the common sequence %s, as Coder's entropy estimate does",
    async (password) => {
      const { token } = await member();
      const response = await rest.post('/users/validate-password', { password }, token);
      expect(response.status).toBe(200);
      expect(response.body.valid).toBe(false);
      expect(response.body.details).not.toBe('');
    },
  );

  it('says what to add to a weak password and names the limit for a long one', async () => {
    const { token } = await member();
    const weak = await rest.post('/users/validate-password', { password: WEAK }, token);
    expect(weak.body.details).toMatch(/upper|digit|special|longer/i);
    const long = await rest.post('/users/validate-password', { password: TOO_LONG }, token);
    expect(long.body.details).toContain('64');
  });

  it.each([
    ['a password of the wrong type', { password: 12345678 }, 'password'],
    ['no password', {}, 'password'],
    ['an unknown field', { password: STRONG, username: 'x' }, 'username'],
  ])('answers %s with 400 naming the field', async (_case, body, field) => {
    const { token } = await member();
    const response = await rest.post('/users/validate-password', body, token);
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([{ field, detail: expect.any(String) }]);
  });
});

describe('validatePassword (GraphQL)', () => {
  it('needs a session', async () => {
    const { body } = await server.graphql(VALIDATE, { password: STRONG });
    expect(firstError(body).extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('answers valid for a strong password and invalid with details for a weak or over-long one', async () => {
    const { token } = await member();
    expect((await server.graphql(VALIDATE, { password: STRONG }, token)).body).toEqual({ data: { validatePassword: { valid: true, details: '' } } });
    for (const password of [WEAK, TOO_LONG]) {
      const { body } = await server.graphql(VALIDATE, { password }, token);
      expect(body.errors).toBeUndefined();
      expect(body.data!.validatePassword.valid).toBe(false);
      expect(body.data!.validatePassword.details).not.toBe('');
    }
  });
});

describe('POST /api/v2/users/{user}/convert-login', () => {
  const convert = (user: string, body: unknown, token?: string) => rest.post(`/users/${encodeURIComponent(user)}/convert-login`, body, token);

  function expectConversion(body: any, userId: string, toType: string, before: number, after: number) {
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'state_string', 'to_type', 'user_id']);
    expect(body.user_id).toBe(userId);
    expect(body.to_type).toBe(toType);
    expect(body.state_string).toMatch(STATE_PATTERN);
    // UTC ISO 8601, five minutes from the request.
    expect(body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const expires = new Date(body.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + FIVE_MINUTES);
    expect(expires).toBeLessThanOrEqual(after + FIVE_MINUTES);
  }

  it.each([
    ['me', () => 'me'],
    ['the user id', (user: Made['user']) => user.id],
    ['the user id in upper case', (user: Made['user']) => user.id.toUpperCase()],
    ['the username', (user: Made['user']) => user.username],
  ])('converts the caller named by %s: 201, stored only as a hash', async (_case, name) => {
    const { user, token } = await member();
    const before = Date.now();
    const response = await convert(name(user), { to_type: 'github', password: PASSWORD }, token);
    const after = Date.now();
    expect(response.status).toBe(201);
    expectConversion(response.body, user.id, 'github', before, after);

    const rows = await conversionsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].state_hash).toBe(sha256Hex(response.body.state_string));
    expect(rows[0].to_type).toBe('github');
    expect(rows[0].from_type).toBe('password');
    expect(JSON.stringify(rows)).not.toContain(response.body.state_string);
    // Nothing about the account changed yet.
    expect((await server.deps.db('users').where('id', user.id).first()).login_type).toBe('password');
  });

  it('accepts oidc, and gives every conversion its own state', async () => {
    const { user, token } = await member();
    const first = await convert('me', { to_type: 'oidc', password: PASSWORD }, token);
    const second = await convert('me', { to_type: 'oidc', password: PASSWORD }, token);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.body.to_type).toBe('oidc');
    expect(first.body.state_string).not.toBe(second.body.state_string);
    expect(await conversionsOf(user.id)).toHaveLength(2);
  });

  it.each(['password', 'token', 'none'])('refuses to_type %s with 400', async (toType) => {
    const { user, token } = await member();
    const response = await convert('me', { to_type: toType, password: PASSWORD }, token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: `Cannot convert to login type "${toType}".` });
    expect(await conversionsOf(user.id)).toHaveLength(0);
  });

  it('refuses an unknown to_type with 400', async () => {
    const { token } = await member();
    const response = await convert('me', { to_type: 'foo', password: PASSWORD }, token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Unknown login type "foo".' });
  });

  it('refuses a wrong password with 401', async () => {
    const { user, token } = await member();
    const response = await convert('me', { to_type: 'github', password: 'Not-The-Password-1' }, token);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: INCORRECT_LOGIN });
    expect(await conversionsOf(user.id)).toHaveLength(0);
    // The session is untouched.
    expect((await rest.get('/users/me', token)).status).toBe(200);
  });

  it('refuses an account that does not use password login with 400', async () => {
    const { user, token } = await member();
    await server.deps.db('users').where('id', user.id).update({ login_type: 'oidc' });
    const response = await convert('me', { to_type: 'github', password: PASSWORD }, token);
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual(expect.any(String));
    expect(await conversionsOf(user.id)).toHaveLength(0);
  });

  it('refuses a plain member converting a fellow member with 403', async () => {
    const { user: target } = await member();
    const { token } = await member();
    const response = await convert(target.id, { to_type: 'github', password: PASSWORD }, token);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'Forbidden.' });
    expect(await conversionsOf(target.id)).toHaveLength(0);
  });

  it("lets an organization admin convert a member of the organization (with that member's password)", async () => {
    const { user: target } = await member();
    const before = Date.now();
    const response = await convert(target.username, { to_type: 'github', password: PASSWORD }, admin.token);
    const after = Date.now();
    expect(response.status).toBe(201);
    expectConversion(response.body, target.id, 'github', before, after);
    expect(await conversionsOf(target.id)).toHaveLength(1);
  });

  it('lets a site admin convert any user', async () => {
    const { user: target } = await member();
    const response = await convert(target.id, { to_type: 'oidc', password: PASSWORD }, siteAdmin.token);
    expect(response.status).toBe(201);
    expect(response.body.user_id).toBe(target.id);
  });

  it('answers 404 for a user of another organization, by id and by username', async () => {
    const { user: target } = await member();
    for (const name of [target.id, target.username]) {
      const response = await convert(name, { to_type: 'github', password: PASSWORD }, outsider.token);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: NOT_FOUND });
    }
    expect(await conversionsOf(target.id)).toHaveLength(0);
  });

  it('answers 404 for an unknown id and an unknown username', async () => {
    const { token } = await member();
    for (const name of [randomUUID(), 'no-such-user-here']) {
      const response = await convert(name, { to_type: 'github', password: PASSWORD }, token);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: NOT_FOUND });
    }
  });

  it.each(['bad!name', 'a'.repeat(33), 'user name'])('answers the malformed user %j with 400 naming user', async (name) => {
    const { token } = await member();
    const response = await convert(name, { to_type: 'github', password: PASSWORD }, token);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Validation failed.');
    expect(response.body.validations).toEqual([{ field: 'user', detail: expect.any(String) }]);
  });

  it('needs a session', async () => {
    const response = await convert('me', { to_type: 'github', password: PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: SIGNED_OUT });
  });

  it.each([
    ['no to_type', { password: PASSWORD }, 'to_type'],
    ['a to_type of the wrong type', { to_type: 7, password: PASSWORD }, 'to_type'],
    ['no password', { to_type: 'github' }, 'password'],
    ['a password over 64 characters', { to_type: 'github', password: TOO_LONG }, 'password'],
    ['an unknown field', { to_type: 'github', password: PASSWORD, user_id: 'x' }, 'user_id'],
  ])('answers %s with 400 naming the field', async (_case, body, field) => {
    const { user, token } = await member();
    const response = await convert('me', body, token);
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([{ field, detail: expect.any(String) }]);
    expect(await conversionsOf(user.id)).toHaveLength(0);
  });

  it('answers bad JSON with 400', async () => {
    const { token } = await member();
    const response = await convert('me', '{"to_type":', token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Request body must be valid JSON.' });
  });
});

describe('convertLogin (GraphQL)', () => {
  const convert = (user: string, input: Record<string, unknown>, token?: string) => server.graphql(CONVERT, { user, input }, token);

  it('converts me and the username, stored only as a hash', async () => {
    for (const pick of [() => 'me', (u: Made['user']) => u.username, (u: Made['user']) => u.id]) {
      const { user, token } = await member();
      const before = Date.now();
      const { body } = await convert(pick(user), { toType: 'GITHUB', password: PASSWORD }, token);
      const after = Date.now();
      expect(body.errors).toBeUndefined();
      const result = body.data!.convertLogin;
      expect(result.userId).toBe(user.id);
      expect(result.toType).toBe('GITHUB');
      expect(result.stateString).toMatch(STATE_PATTERN);
      expect(result.expiresAt).toMatch(/Z$/);
      expect(new Date(result.expiresAt).getTime()).toBeGreaterThanOrEqual(before + FIVE_MINUTES);
      expect(new Date(result.expiresAt).getTime()).toBeLessThanOrEqual(after + FIVE_MINUTES);
      const rows = await conversionsOf(user.id);
      expect(rows.map((r) => r.state_hash)).toEqual([sha256Hex(result.stateString)]);
    }
  });

  it.each([
    ['PASSWORD', 'Cannot convert to login type "password".'],
    ['TOKEN', 'Cannot convert to login type "token".'],
    ['NONE', 'Cannot convert to login type "none".'],
    // Not a LoginType at all: GraphQL's own validation, naming where in the variables.
    ['FOO', 'Variable "$input" got invalid value "FOO" at "input.toType"; Value "FOO" does not exist in "LoginType" enum.'],
    [
      'github',
      'Variable "$input" got invalid value "github" at "input.toType"; Value "github" does not exist in "LoginType" enum. Did you mean the enum value "GITHUB"?',
    ],
  ])('refuses toType %s with BAD_USER_INPUT', async (toType, message) => {
    const { token } = await member();
    const { body } = await convert('me', { toType, password: PASSWORD }, token);
    expect(firstError(body)).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('refuses a wrong password, another member, an invisible user and a malformed name', async () => {
    const { user: target } = await member();
    const { token } = await member();

    const wrong = await convert('me', { toType: 'GITHUB', password: 'Not-The-Password-1' }, token);
    expect(firstError(wrong.body)).toMatchObject({ message: INCORRECT_LOGIN, extensions: { code: 'UNAUTHENTICATED' } });

    const forbidden = await convert(target.id, { toType: 'GITHUB', password: PASSWORD }, token);
    expect(firstError(forbidden.body).extensions?.code).toBe('FORBIDDEN');

    const invisible = await convert(target.id, { toType: 'GITHUB', password: PASSWORD }, outsider.token);
    expect(firstError(invisible.body).extensions?.code).toBe('NOT_FOUND');

    const unknown = await convert(randomUUID(), { toType: 'GITHUB', password: PASSWORD }, token);
    expect(firstError(unknown.body).extensions?.code).toBe('NOT_FOUND');

    const malformed = await convert('bad!name', { toType: 'GITHUB', password: PASSWORD }, token);
    expect(firstError(malformed.body).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'user' });

    expect(await conversionsOf(target.id)).toHaveLength(0);
  });

  it('lets an organization admin and a site admin convert a member', async () => {
    const { user: target } = await member();
    for (const caller of [admin, siteAdmin]) {
      const { body } = await convert(target.id, { toType: 'OIDC', password: PASSWORD }, caller.token);
      expect(body.errors).toBeUndefined();
      expect(body.data!.convertLogin.userId).toBe(target.id);
    }
    expect(await conversionsOf(target.id)).toHaveLength(2);
  });

  it('refuses a non-password account and needs a session', async () => {
    const { user, token } = await member();
    await server.deps.db('users').where('id', user.id).update({ login_type: 'github' });
    const { body } = await convert('me', { toType: 'OIDC', password: PASSWORD }, token);
    expect(firstError(body).extensions?.code).toBe('BAD_USER_INPUT');

    const anonymous = await convert('me', { toType: 'GITHUB', password: PASSWORD });
    expect(firstError(anonymous.body).extensions?.code).toBe('UNAUTHENTICATED');
  });
});
