import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { SIGNED_OUT_MESSAGE } from '../../src/errors/index.ts';

/**
 * /graphql's HTTP status policy (src/graphql/server.ts, graphqlRouter): no credential is 200 with an
 * UNAUTHENTICATED error per field that needs a principal; any credential presented that cannot be used is 401
 * for the whole request with RFC 6750's challenge; a good one is 200.
 */
const PROBE = '{ me { id } }';
const SESSION_CHALLENGE = `Bearer realm="adgraph", error="invalid_token", error_description="${SIGNED_OUT_MESSAGE}"`;

describe('GraphQL HTTP status policy', () => {
  let server: TestServer;
  let credentials: Record<'live' | 'revoked' | 'expired' | 'suspended' | 'accessToken', string>;
  let userId: string;

  const post = async (headers: Record<string, string>, query = PROBE, variables?: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, challenge: response.headers.get('www-authenticate'), body: (await response.json()) as GraphQLBody };
  };

  beforeAll(async () => {
    server = await startTestServer();
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    const live = await world.user({ organizationId: org.id, role: 'admin' });
    userId = live.user.id;
    const revoked = await world.user();
    await server.deps.db('sessions').where('user_id', revoked.user.id).update({ revoked_at: new Date() });
    const expired = await world.user();
    await server.deps
      .db('sessions')
      .where('user_id', expired.user.id)
      .update({ expires_at: new Date(Date.now() - 60_000) });
    const suspended = await world.user();
    await server.deps.db('users').where('id', suspended.user.id).update({ status: 'suspended' });
    const { client, clientSecret } = await createClient(server.deps, { name: 'reporting', scope: 'ads_read', organization: org.id });
    credentials = {
      live: live.token,
      revoked: revoked.token,
      expired: expired.token,
      suspended: suspended.token,
      accessToken: await fetchAccessToken(server.url, client.clientId, clientSecret),
    };
  });
  afterAll(() => server?.close());

  it('no credential: 200, each field that needs a principal answers UNAUTHENTICATED, no challenge', async () => {
    const { status, challenge, body } = await post({}, '{ me { id } adAccounts { totalCount } }');
    expect(status).toBe(200);
    expect(challenge).toBeNull();
    expect(body.errors?.map((e) => [e.path?.[0], e.extensions?.code])).toEqual([
      ['me', 'UNAUTHENTICATED'],
      ['adAccounts', 'UNAUTHENTICATED'],
    ]);
  });

  it('no credential: a public operation (login) runs', async () => {
    const { user } = await worldBuilder(server.deps).user();
    const { status, body } = await post({}, 'mutation ($input: LoginInput!) { login(input: $input) { expiresAt } }', {
      input: { email: user.email, password: PASSWORD },
    });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  it.each([
    ['a live session in Service-Session-Token', () => ({ 'service-session-token': credentials.live })],
    ['a live session as a bearer token', () => ({ authorization: `Bearer ${credentials.live}` })],
  ])('%s: 200 with the data', async (_case, headers) => {
    const { status, challenge, body } = await post(headers());
    expect([status, challenge]).toEqual([200, null]);
    expect(body).toEqual({ data: { me: { id: userId } } });
  });

  it('a good access token: 200 (an API client has no user, so me is null)', async () => {
    const { status, body } = await post({ authorization: `Bearer ${credentials.accessToken}` });
    expect(status).toBe(200);
    expect(body).toEqual({ data: { me: null } });
  });

  it.each([
    ['an unknown session token', () => ({ 'service-session-token': 'no-such-session' })],
    ['an unknown session token as a bearer token', () => ({ authorization: 'Bearer no-such-session' })],
    ['a revoked session', () => ({ 'service-session-token': credentials.revoked })],
    ['an expired session', () => ({ 'service-session-token': credentials.expired })],
    ["a suspended user's session", () => ({ authorization: `Bearer ${credentials.suspended}` })],
    ['a session token over 8 KiB', () => ({ 'service-session-token': 'x'.repeat(9_000) })],
  ])('%s: 401 with the signed-out message and a bearer challenge, nothing executed', async (_case, headers) => {
    const { status, challenge, body } = await post(headers());
    expect([status, challenge]).toEqual([401, SESSION_CHALLENGE]);
    expect(body).toEqual({ errors: [{ message: SIGNED_OUT_MESSAGE, extensions: { code: 'UNAUTHENTICATED', oauthError: 'invalid_token' } }] });
  });

  it('an access token that fails verification: 401 with the challenge naming why', async () => {
    const [header, payload] = credentials.accessToken.split('.');
    const { status, challenge, body } = await post({ authorization: `Bearer ${header}.${payload}.AAAA` });
    expect(status).toBe(401);
    expect(challenge).toMatch(/^Bearer realm="adgraph", error="invalid_token", error_description="[^"]+"$/);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHENTICATED', oauthError: 'invalid_token' });
  });

  it('a stale credential is refused even for login: the client drops it and signs in without one', async () => {
    const { status } = await post(
      { 'service-session-token': credentials.revoked },
      'mutation { login(input: { email: "a@example.com", password: "p" }) { expiresAt } }',
    );
    expect(status).toBe(401);
  });

  it('a body that is not JSON: 400 BAD_REQUEST, before any credential is looked at', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-session-token': 'no-such-session' },
      body: '{"query":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as GraphQLBody).errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  });

  it("a persisted query's hash that does not match its text, or an unknown version: 400 BAD_REQUEST in Apollo's words, not an error of ours", async () => {
    const logged = server.logs.length;
    const refusal = async (persistedQuery: Record<string, unknown>) => {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery } }),
      });
      return { status: response.status, error: ((await response.json()) as GraphQLBody).errors?.[0] };
    };
    const mismatch = await refusal({ version: 1, sha256Hash: 'a'.repeat(64) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.error).toMatchObject({ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } });
    const version = await refusal({ version: 2, sha256Hash: 'a'.repeat(64) });
    expect(version.status).toBe(400);
    expect(version.error).toMatchObject({ message: 'Unsupported persisted query version', extensions: { code: 'BAD_REQUEST' } });
    expect(server.logs.slice(logged).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
