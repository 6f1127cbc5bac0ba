import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { corsForApi, CORS_REQUEST_HEADERS } from '../../src/http/cors.ts';
import { CSRF_PREFLIGHT_HEADERS } from '../../src/graphql/server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';

/**
 * CORS at the HTTP level (the browser's side is test/cors.browser.test.ts): preflights on every surface, the
 * headers an allowed origin gets on answers and refusals, nothing for any other origin; and Apollo's CSRF
 * prevention, which a GET query passes with a session token or Apollo's header.
 */
const APP = 'http://localhost:5173';
const OTHER = 'http://localhost:3000';

let server: TestServer;
let token: string;
let email: string;
let accountId: string;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false', CORS_ORIGINS: `${APP}, https://admin.example.com`, CORS_MAX_AGE_SECONDS: '900' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  const user = await world.user({ organizationId: org.id, role: 'advertiser' });
  token = user.token;
  email = user.user.email;
  accountId = (await world.adAccount(org.id)).id;
});
afterAll(() => server?.close());

function preflight(base: string, path: string, origin: string, method = 'POST', headers = 'content-type,service-session-token') {
  return fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const SURFACES: Array<[surface: string, path: string, method: string]> = [
  ['GraphQL', '/graphql', 'POST'],
  ['identity sign-in', '/api/v2/users/login', 'POST'],
  ['identity read', '/api/v2/users/me', 'GET'],
  ['Graph-style API', '/v24.0/me/adaccounts', 'GET'],
  ['Graph-style write', '/v24.0/act_1/campaigns', 'POST'],
  ['OAuth token endpoint', '/oauth2/token', 'POST'],
  ['OAuth metadata', '/.well-known/oauth-authorization-server', 'GET'],
];

describe('preflight', () => {
  it.each(SURFACES)('%s (%s) answers an allowed origin 204 with what it may send', async (_surface, path, method) => {
    const response = await preflight(server.url, path, APP, method);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-methods')).toContain(method);
    const allowedHeaders = response.headers.get('access-control-allow-headers')!.toLowerCase().split(',');
    for (const header of ['authorization', 'content-type', 'service-session-token', 'apollo-require-preflight']) expect(allowedHeaders).toContain(header);
    expect(response.headers.get('access-control-max-age')).toBe('900');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/Origin/);
    expect(await response.text()).toBe('');
  });

  it.each(SURFACES)('%s (%s) answers an unlisted origin 204 without any CORS header', async (_surface, path, method) => {
    const response = await preflight(server.url, path, OTHER, method);
    expect(response.status).toBe(204);
    const corsHeaders: string[] = [];
    response.headers.forEach((_value, name) => void (name.startsWith('access-control-') && corsHeaders.push(name)));
    expect(corsHeaders).toEqual([]);
    expect(response.headers.get('vary')).toMatch(/Origin/);
  });

  it('is not answered for paths outside the API surfaces', async () => {
    for (const path of ['/healthz', '/metrics', '/nowhere']) {
      const response = await preflight(server.url, path, APP, 'GET');
      expect(response.status).not.toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('allows every header the CSRF prevention counts as proof of a preflight', () => {
    const allowed = CORS_REQUEST_HEADERS.map((name) => name.toLowerCase());
    for (const header of CSRF_PREFLIGHT_HEADERS) expect(allowed).toContain(header);
  });
});

describe('answers to an allowed origin', () => {
  it('GraphQL: sign in, then a query, with the request id readable', async () => {
    const login = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($input: LoginInput!) { login(input: $input) { sessionToken } }',
        variables: { input: { email, password: PASSWORD } },
      }),
    });
    expect(login.headers.get('access-control-allow-origin')).toBe(APP);
    const session = ((await login.json()) as { data: { login: { sessionToken: string } } }).data.login.sessionToken;
    const me = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json', 'service-session-token': session },
      body: JSON.stringify({ query: '{ me { email } }' }),
    });
    expect(((await me.json()) as { data: { me: { email: string } } }).data.me.email).toBe(email);
    expect(me.headers.get('access-control-allow-origin')).toBe(APP);
    expect(me.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(me.headers.get('vary')).toMatch(/Origin/);
  });

  it('identity: a refusal carries the headers too, so the page can read WWW-Authenticate', async () => {
    const response = await fetch(`${server.url}/api/v2/users/me`, { headers: { origin: APP } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
  });

  it('Graph-style API: usage headers are readable', async () => {
    const response = await fetch(`${server.url}/v24.0/act_${accountId}?fields=name&access_token=${token}`, { headers: { origin: APP } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Business-Use-Case-Usage');
  });

  it('OAuth: the token endpoint answers with the headers', async () => {
    const response = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=nobody&client_secret=nothing',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('an unlisted origin gets the answer without CORS headers (its browser withholds it)', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { origin: OTHER, 'content-type': 'application/json', 'service-session-token': token },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('settings', () => {
  /** corsForApi on a bare Express app, for the settings the shared server does not use. */
  async function withApp(env: Record<string, string>, probe: (base: string) => Promise<void>): Promise<void> {
    const app = express();
    app.use(corsForApi(loadConfig(env).cors));
    app.all('/graphql', (_req, res) => void res.json({ ok: true }));
    const listening: Server = await new Promise((resolve) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      await probe(`http://127.0.0.1:${(listening.address() as AddressInfo).port}`);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  }

  it('by default no origin is allowed, and preflights still answer 204', async () => {
    await withApp({}, async (base) => {
      const response = await preflight(base, '/graphql', APP);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect((await fetch(`${base}/graphql`, { headers: { origin: APP } })).headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  it('* allows any origin without credentials', async () => {
    await withApp({ CORS_ORIGINS: '*' }, async (base) => {
      const response = await preflight(base, '/graphql', OTHER);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-max-age')).toBe('600');
    });
  });

  it('CORS_CREDENTIALS=true allows credentials for the listed origins', async () => {
    await withApp({ CORS_ORIGINS: APP, CORS_CREDENTIALS: 'true' }, async (base) => {
      const response = await fetch(`${base}/graphql`, { headers: { origin: APP } });
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    });
  });
});

describe('CSRF prevention on /graphql', () => {
  const getQuery = (headers: Record<string, string>) => fetch(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers });

  it('refuses a GET query with no header a simple cross-site request could not carry', async () => {
    const response = await getQuery({});
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors[0]!.extensions.code).toBe('BAD_REQUEST');
    expect(body.errors[0]!.message).toContain('apollo-require-preflight');
  });

  it.each([
    ['apollo-require-preflight', () => ({ 'apollo-require-preflight': 'true' })],
    ['x-apollo-operation-name', () => ({ 'x-apollo-operation-name': 'Typename' })],
    // A live one: a token that names no session is refused with 401 before CSRF matters (the status policy).
    ['a session token', () => ({ 'service-session-token': token })],
  ])('answers a GET query carrying %s', async (_what, headers) => {
    const response = await getQuery(headers());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('refuses a form-typed POST (what an HTML form on another site sends)', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: 'mutation { requestOneTimePasscode(email: "a@b.example") }' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toContain('Cross-Site Request Forgery');
  });
});
