import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';

describe('/api/v2 sessions', () => {
  let server: TestServer;
  let email: string;
  const post = (path: string, body: string | undefined, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/v2${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  beforeAll(async () => {
    server = await startTestServer();
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    email = (await world.user({ organizationId: org.id, role: 'member' })).user.email;
  });
  afterAll(() => server?.close());

  it('logs in, serves the session on both surfaces, and logs out', async () => {
    const login = await post('/users/login', JSON.stringify({ email: email.toUpperCase(), password: PASSWORD }));
    expect(login.status).toBe(201);
    const { session_token: token } = (await login.json()) as { session_token: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // Only a hash of the token is stored.
    expect(await server.deps.db('sessions').where('token_hash', token).first()).toBeUndefined();

    const me = await fetch(`${server.url}/api/v2/users/me`, { headers: { 'service-session-token': token } });
    expect(((await me.json()) as { email: string }).email).toBe(email);
    const bearer = await server.graphql('{ me { email } }', {}, undefined);
    expect(bearer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const viaBearer = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ me { email } }' }),
    });
    expect(await viaBearer.json()).toEqual({ data: { me: { email } } });

    expect((await post('/users/logout', undefined, { 'service-session-token': token })).status).toBe(200);
    const after = await fetch(`${server.url}/api/v2/users/me`, { headers: { 'service-session-token': token } });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: 'You are signed out or your session has expired. Please sign in again to continue.' });
  });

  it.each([
    ['a wrong password', JSON.stringify({ email: 'x@example.com', password: 'nope' }), 401, { message: 'Incorrect email or password.' }],
    ['bad JSON', '{"email":', 400, { message: 'Request body must be valid JSON.' }],
    [
      'no body',
      undefined,
      400,
      {
        message: 'Validation failed.',
        validations: [
          { field: 'email', detail: 'An e-mail address is required.' },
          { field: 'password', detail: 'A password is required.' },
        ],
      },
    ],
    [
      'an unknown field',
      JSON.stringify({ email: 'x@example.com', password: 'p', admin: true }),
      400,
      { message: 'Validation failed.', validations: [{ field: 'admin', detail: 'Unknown field "admin".' }] },
    ],
    [
      'a bad e-mail',
      JSON.stringify({ email: 'nope', password: 'p' }),
      400,
      { message: 'Validation failed.', validations: [{ field: 'email', detail: 'Must be a valid e-mail address.' }] },
    ],
    [
      'an over-long e-mail',
      JSON.stringify({ email: `${'a'.repeat(250)}@example.com`, password: 'p' }),
      400,
      { message: 'Validation failed.', validations: [{ field: 'email', detail: 'E-mail address must be at most 256 characters.' }] },
    ],
    [
      'a password of the wrong type',
      JSON.stringify({ email: 'x@example.com', password: 42 }),
      400,
      { message: 'Validation failed.', validations: [{ field: 'password', detail: 'A password is required.' }] },
    ],
  ])('answers %s in the identity error shape', async (_case, body, status, expected) => {
    const response = await post('/users/login', body);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(expected);
  });

  it('answers unknown routes with JSON 404', async () => {
    const response = await fetch(`${server.url}/api/v2/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Route not found.' });
  });
});
