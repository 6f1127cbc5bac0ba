/**
 * CORS in a real browser: a page served from another loopback origin (a second tiny HTTP server, as an SPA dev
 * server would be) signs in and runs `{ me { id } }` through fetch against the gateway, which lists that origin in
 * CORS_ORIGINS; the same page on an unlisted origin is refused by Chromium. The HTTP-level answers are in
 * test/http/cors.test.ts.
 */
// Same on every database: what is tested is what the browser lets through; the server behind it only answers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { PASSWORD, worldBuilder } from './helpers/world.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS, chromiumRequired, hasChromium, warnIfSkipped } from './helpers/chromium.ts';

warnIfSkipped('test/cors.browser.test.ts');

/** A frontend's origin: serves one empty page; the test runs its fetches in that page. */
async function frontend(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>frontend</title><link rel="icon" href="data:,"></head><body>frontend</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What the page does: sign in through GraphQL, then ask who it is with the session token, as a frontend would. */
async function signInAndAskWhoAmI({
  gateway,
  email,
  password,
}: {
  gateway: string;
  email: string;
  password: string;
}): Promise<{ ok: true; id: string } | { ok: false; error: string }> {
  try {
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${gateway}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { data: Record<string, any> };
    };
    const login = await post({
      query: 'mutation SignIn($input: LoginInput!) { login(input: $input) { sessionToken } }',
      variables: { input: { email, password } },
    });
    const me = await post({ query: '{ me { id } }' }, { 'Service-Session-Token': login.data.login.sessionToken });
    return { ok: true, id: me.data.me.id };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

describe.skipIf(!hasChromium && !chromiumRequired)('CORS in Chromium', () => {
  let gateway: TestServer | undefined;
  let listed: Awaited<ReturnType<typeof frontend>> | undefined;
  let unlisted: Awaited<ReturnType<typeof frontend>> | undefined;
  let browser: Browser | undefined;
  let user: { id: string; email: string };

  beforeAll(async () => {
    assertChromium();
    listed = await frontend();
    unlisted = await frontend();
    gateway = await startTestServer({ ASYNC_RUNNER: 'false', CORS_ORIGINS: `http://localhost:5173,${listed.origin}` });
    const world = worldBuilder(gateway.deps);
    const org = await world.organization();
    user = (await world.user({ organizationId: org.id, role: 'member' })).user;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    for (const page of [listed, unlisted]) await new Promise((resolve) => page?.server.close(resolve));
  });

  async function runFrom(origin: string) {
    const page = await browser!.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    await page.goto(`${origin}/`);
    const result = await page
      .evaluate(signInAndAskWhoAmI, { gateway: gateway!.url, email: user.email, password: PASSWORD })
      .catch((error: Error) => ({ ok: false, error: error.message }));
    await page.close();
    return { result, console };
  }

  it('a page on a listed origin signs in and runs { me { id } }, after preflights', async () => {
    const { result } = await runFrom(listed!.origin);
    expect(result).toEqual({ ok: true, id: user.id });
    // JSON bodies and the token header are not "simple": Chromium asked first, and was answered 204.
    const preflights = gateway!.logs.filter((line: any) => line.req?.method === 'OPTIONS' && line.req?.url === '/graphql');
    expect(preflights.length).toBeGreaterThanOrEqual(1);
    expect(preflights.every((line: any) => line.res?.statusCode === 204)).toBe(true);
  }, 60_000);

  it('a page on an unlisted origin is refused by the browser', async () => {
    const { result, console } = await runFrom(unlisted!.origin);
    expect(result).toEqual({ ok: false, error: expect.stringContaining('Failed to fetch') });
    expect(console.join('\n')).toMatch(/blocked by CORS policy/);
  }, 60_000);
});
