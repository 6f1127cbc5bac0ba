import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { basicAuth, expectOAuthError, fetchAccessToken, tokenRequest, type TokenResponse } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { answerKey, expectOnlyTheLimitCompared, freshAddresses, guessBurst } from '../helpers/guesses.ts';

/**
 * Failed client authentications are limited per client_id (RATE_LIMIT_TOKEN_CLIENT) and per IP
 * (RATE_LIMIT_TOKEN_IP); going over answers 429 in the OAuth error shape with Retry-After.
 */
function expectRateLimited(response: TokenResponse, windowSeconds: number): void {
  expect(response.status, response.text).toBe(429);
  expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
  expect(response.body.error).toMatch(/^[a-z_]+$/);
  expect(response.body.error_description).toEqual(expect.any(String));
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  const retryAfter = response.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

async function clientIn(server: TestServer, name: string) {
  const org = await worldBuilder(server.deps).organization();
  const created = await createClient(server.deps, { name, scope: 'ads_read', organization: org.id });
  return { clientId: created.client.clientId, secret: created.clientSecret };
}

const attempt = (server: TestServer, clientId: string, secret: string) =>
  tokenRequest(server.url, { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret } });

describe('token endpoint rate limits per client_id', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_TOKEN_CLIENT: '3/900' });
  });
  afterAll(() => server?.close());

  it('the 4th failed attempt for one client_id is 429; other clients are not affected', async () => {
    const victim = await clientIn(server, 'victim');
    const bystander = await clientIn(server, 'bystander');
    for (let i = 0; i < 3; i++) expectOAuthError(await attempt(server, victim.clientId, `wrong-${i}`), 401, 'invalid_client');
    expectRateLimited(await attempt(server, victim.clientId, 'wrong-3'), 900);
    // Basic counts against the same client_id.
    expectRateLimited(
      await tokenRequest(server.url, { body: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(victim.clientId, 'wrong-4') } }),
      900,
    );
    // The limit is per client_id: another client from the same address still gets its token.
    await fetchAccessToken(server.url, bystander.clientId, bystander.secret);
  });

  it('counts unknown client ids the same way', async () => {
    const id = 'a0a0a0a0-0000-4000-8000-000000000001';
    for (let i = 0; i < 3; i++) expectOAuthError(await attempt(server, id, 'x'), 401, 'invalid_client');
    expectRateLimited(await attempt(server, id, 'x'), 900);
  });
});

describe('token endpoint rate limits per IP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_TOKEN_IP: '3/900' });
  });
  afterAll(() => server?.close());

  it('failures across different client ids from one address: the 4th is 429', async () => {
    const real = await clientIn(server, 'real');
    // Successes do not count.
    for (let i = 0; i < 5; i++) await fetchAccessToken(server.url, real.clientId, real.secret);
    expectOAuthError(await attempt(server, real.clientId, 'wrong'), 401, 'invalid_client');
    expectOAuthError(await attempt(server, 'b0b0b0b0-0000-4000-8000-000000000001', 'x'), 401, 'invalid_client');
    expectOAuthError(
      await tokenRequest(server.url, {
        body: { grant_type: 'client_credentials' },
        headers: { authorization: basicAuth('b0b0b0b0-0000-4000-8000-000000000002', 'x') },
      }),
      401,
      'invalid_client',
    );
    expectRateLimited(await attempt(server, 'b0b0b0b0-0000-4000-8000-000000000003', 'x'), 900);
  });
});

// Guesses sent at the same moment (issue 25): each secret comparison takes its point before it runs, so at most
// the allowance is compared however many arrive together, and over it the right secret is refused as a wrong one.
describe('concurrent token requests', () => {
  const LIMIT = 5;
  const BURST = 40;
  const RIGHT_AT = 29;
  const INVALID_CLIENT = `401 ${JSON.stringify({ error: 'invalid_client', error_description: 'Client authentication failed.' })}`;
  const SLOW_DOWN = `429 ${JSON.stringify({ error: 'slow_down', error_description: 'Too many attempts. Try again later.' })}`;
  const limit = { limit: LIMIT, rightAt: RIGHT_AT, wrong: INVALID_CLIENT, refused: SLOW_DOWN, success: 200 };
  let server: TestServer;
  beforeAll(async () => {
    // The forwarded address is the client's (TRUST_PROXY), so each test chooses whose per-IP count it spends.
    server = await startTestServer({
      LOG_LEVEL: 'warn',
      // Slow enough that guesses sent together are compared together, as they are at a production cost.
      BCRYPT_COST: '8',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_TOKEN_CLIENT: `${LIMIT}/900`,
      RATE_LIMIT_TOKEN_IP: `${LIMIT}/900`,
    });
  });
  afterAll(() => server?.close());

  const freshIp = freshAddresses();
  const from = (ip: string, clientId: string, secret: string) =>
    tokenRequest(server.url, {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
      headers: { 'x-forwarded-for': ip },
    });

  it(`a burst of ${BURST} secrets for one client_id (the right one among them) compares ${LIMIT}; then the right one is refused like a wrong one`, async () => {
    const victim = await clientIn(server, 'victim');
    const burst = await guessBurst([server], BURST, (i) => from(freshIp(), victim.clientId, i === RIGHT_AT ? victim.secret : `wrong-${i}`));
    await expectOnlyTheLimitCompared(burst, limit, () => from(freshIp(), victim.clientId, 'wrong-again'));
    // Whether or not the burst's right secret got through (and so is remembered), it is now refused.
    expect(answerKey(await from(freshIp(), victim.clientId, victim.secret))).toBe(SLOW_DOWN);
    expect(answerKey(await from(freshIp(), victim.clientId, 'wrong'))).toBe(SLOW_DOWN);
  });

  it(`a burst of ${BURST} requests from one address to other client ids (one right secret among them) compares ${LIMIT}`, async () => {
    const real = await clientIn(server, 'real');
    const ip = freshIp();
    const burst = await guessBurst([server], BURST, (i) =>
      i === RIGHT_AT ? from(ip, real.clientId, real.secret) : from(ip, `c0c0c0c0-0000-4000-8000-${String(i).padStart(12, '0')}`, 'x'),
    );
    await expectOnlyTheLimitCompared(burst, limit, () => from(ip, 'c0c0c0c0-0000-4000-8000-999999999999', 'x'));
    expect(answerKey(await from(ip, real.clientId, real.secret))).toBe(SLOW_DOWN);
  });

  it(`a client fetching ${BURST} tokens at once with its secret gets them all for one comparison, and again for none`, async () => {
    const busy = await clientIn(server, 'busy');
    for (const round of [1, 0]) {
      const burst = await guessBurst([server], BURST, () => from(freshIp(), busy.clientId, busy.secret));
      const statuses = burst.answers.map(({ status }) => status);
      expect({ statuses, matches: burst.matches, mismatches: burst.mismatches }).toEqual({ statuses: statuses.map(() => 200), matches: round, mismatches: 0 });
    }
  });
});
