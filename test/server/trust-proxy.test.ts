import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { INCORRECT_LOGIN } from '../helpers/api.ts';

/**
 * The per-IP brute-force limit counts by the client address. Unless TRUST_PROXY names a proxy, that is the
 * TCP peer, whatever X-Forwarded-For claims; with TRUST_PROXY=loopback (the test's proxy is this machine) the
 * forwarded address counts.
 */
const IP_LIMIT = 10;

/** A wrong password for a different address each time (so only the per-IP limit can trip), claiming `forwardedFor`. */
async function failedLogin(server: TestServer, attempt: number, forwardedFor: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}/api/v2/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ email: `nobody-${attempt}@example.com`, password: 'Wrong-Password-123' }),
  });
  return { status: response.status, body: await response.json() };
}

const INCORRECT = { status: 401, body: { message: INCORRECT_LOGIN } };

function serverWith(env: Record<string, string>) {
  const holder: { server?: TestServer } = {};
  beforeAll(async () => {
    holder.server = await startTestServer({ LOG_LEVEL: 'warn', RATE_LIMIT_LOGIN_IP: `${IP_LIMIT}/900`, ...env });
  });
  afterAll(() => holder.server?.close());
  return () => holder.server!;
}

describe('without TRUST_PROXY (the default)', () => {
  const server = serverWith({});

  it('ignores X-Forwarded-For: failures from "different" forwarded addresses share the peer\'s limit', async () => {
    for (let attempt = 1; attempt <= IP_LIMIT; attempt++) {
      expect(await failedLogin(server(), attempt, `203.0.113.${attempt}`), `attempt ${attempt}`).toEqual(INCORRECT);
    }
    const over = await failedLogin(server(), IP_LIMIT + 1, '198.51.100.77');
    expect(over.status).toBe(429);
  });
});

describe('with TRUST_PROXY=loopback', () => {
  const server = serverWith({ TRUST_PROXY: 'loopback' });

  it('counts by the forwarded address', async () => {
    for (let attempt = 1; attempt <= IP_LIMIT; attempt++) {
      expect(await failedLogin(server(), attempt, '203.0.113.7'), `attempt ${attempt}`).toEqual(INCORRECT);
    }
    expect((await failedLogin(server(), IP_LIMIT + 1, '203.0.113.7')).status).toBe(429);
    // Another forwarded address has its own count.
    expect(await failedLogin(server(), IP_LIMIT + 2, '203.0.113.8')).toEqual(INCORRECT);
  });
});
