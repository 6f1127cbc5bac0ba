/**
 * The GraphQL IDE in a real browser (DECISIONS.md section 1): Debian's Chromium, driven by playwright-core,
 * opens /graphql on the real server, runs `{ __typename }` and must never contact another host.
 *
 * Needs /usr/bin/chromium (`apt-get install -y chromium`). Without it the suite is skipped locally, with a
 * warning, and fails under CI=true so the check cannot silently disappear there.
 */
// Same on every database: what is tested is the browser and the IDE page; the server behind them only answers.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer } from './helpers/server.ts';
import { PASSWORD, worldBuilder } from './helpers/world.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS, chromiumRequired, hasChromium, warnIfSkipped } from './helpers/chromium.ts';

warnIfSkipped('test/ide.browser.test.ts');

const SCREENSHOT = fileURLToPath(new URL('../.tmp/ide.png', import.meta.url));

const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
const VISIBLE_TOOL_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';

/** The text of the CodeMirror 5 editor under `selector`. */
async function editorText(page: Page, selector: string): Promise<string> {
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });
  return page.evaluate((sel) => (document.querySelector(sel) as Element & { CodeMirror: { getValue(): string } }).CodeMirror.getValue(), selector);
}

/** The Headers tab's text (the editor tools are opened on that tab first). */
async function headersText(page: Page): Promise<string> {
  await page.locator('.graphiql-editor-tools button[data-name="headers"]').click();
  return editorText(page, VISIBLE_TOOL_EDITOR);
}

/**
 * Clicks Execute once GraphiQL has read the editor's one operation. Until it has (it parses an edit a moment
 * later, longer on a busy machine), the starter document's two operations make the button a menu, and a click
 * opens the menu instead of running anything.
 */
async function execute(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('.graphiql-execute-button')?.hasAttribute('aria-haspopup') === false, undefined, {
    timeout: 15_000,
  });
  await page.locator('.graphiql-execute-button').click();
}

/** Runs the query editor's document and waits for a result containing `expected`. */
async function runAndWait(page: Page, expected: string): Promise<string> {
  await execute(page);
  await page.waitForFunction(
    (text) => {
      const el = document.querySelector('.graphiql-response .CodeMirror') as (Element & { CodeMirror?: { getValue(): string } }) | null;
      return el?.CodeMirror?.getValue().includes(text) ?? false;
    },
    expected,
    { timeout: 15_000 },
  );
  return editorText(page, '.graphiql-response .CodeMirror');
}

/** Sets the text of the CodeMirror 5 editor under `selector` (GraphiQL 3 uses CodeMirror 5). */
async function setEditor(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).first().waitFor({ state: 'visible' });
  await page.evaluate(
    ([sel, value]) => {
      const el = document.querySelector(sel) as (Element & { CodeMirror?: { setValue(v: string): void } }) | null;
      if (!el?.CodeMirror) throw new Error(`no CodeMirror at ${sel}`);
      el.CodeMirror.setValue(value);
    },
    [selector, text] as const,
  );
}

describe.skipIf(!hasChromium && !chromiumRequired)('GraphQL IDE in Chromium', () => {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    assertChromium();
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves GraphiQL from this server and runs { __typename }', async () => {
    const base = new URL(server!.url);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });

    // Every request the page makes; data: and blob: URLs never leave the browser.
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // A CSP violation is reported as a console error; it means the page relies on something the policy forbids.
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });

    const response = await page.goto(new URL('/graphql', base).href);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    const queryEditor = '.graphiql-query-editor .CodeMirror';
    await page.locator(queryEditor).waitFor({ state: 'visible', timeout: 30_000 });
    await setEditor(page, queryEditor, '{ __typename }');
    await execute(page);

    // The result pane is a read-only CodeMirror too; poll its value.
    await page.waitForFunction(
      () => {
        const el = document.querySelector('.graphiql-response .CodeMirror') as (Element & { CodeMirror?: { getValue(): string } }) | null;
        return el?.CodeMirror?.getValue().includes('"__typename": "Query"') ?? false;
      },
      undefined,
      { timeout: 15_000 },
    );
    const result = await page.evaluate(() =>
      (document.querySelector('.graphiql-response .CodeMirror') as Element & { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
    );
    expect(result).toContain('"__typename": "Query"');
    // For a human to look at (.tmp/ is gitignored).
    mkdirSync(fileURLToPath(new URL('../.tmp/', import.meta.url)), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    // Headers typed into GraphiQL's headers editor go out with the query (this is how a session token is sent).
    await page.locator('.graphiql-editor-tools button[data-name="headers"]').click();
    await setEditor(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror', '{"Service-Session-Token": "ide-test-token"}');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/graphql' && r.postData()?.includes('__typename') === true);
    await execute(page);
    const request = await sent;
    expect(request.headers()['service-session-token']).toBe('ide-test-token');
    expect(request.headers()['content-type']).toContain('application/json');

    const foreign = requested.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== base.origin);
    expect(foreign).toEqual([]);
    expect(requested.length).toBeGreaterThan(4); // the page, its assets and the fetcher's requests were all seen
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  describe('sign-in panel and remembered headers', () => {
    let email: string;

    beforeAll(async () => {
      const world = worldBuilder(server!.deps);
      const org = await world.organization();
      email = (await world.user({ organizationId: org.id, role: 'advertiser' })).user.email;
    });

    /** Opens the IDE in a fresh browser profile and signs in through the panel. */
    async function signIn(remember: boolean) {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
      await page.goto(new URL('/graphql', server!.url).href);

      // A first visit opens on the starter document: how to sign in, then the README's query.
      const starter = await editorText(page, QUERY_EDITOR);
      expect(starter).toContain('mutation SignIn($input: LoginInput!)');
      expect(starter).toContain('query AdAccounts');

      await page.locator('.graphiql-sidebar button[aria-label="Show Sign in"]').click();
      await page.locator('.adgraph-sign-in input[name="email"]').fill(email);
      await page.locator('.adgraph-sign-in input[name="password"]').fill(PASSWORD);
      await page.locator('.adgraph-sign-in input[name="remember"]').setChecked(remember);
      await page.locator('.adgraph-sign-in button[type="submit"]').click();
      await page.locator('.adgraph-sign-in-status', { hasText: 'Signed in until' }).waitFor({ timeout: 15_000 });
      const headers = JSON.parse(await headersText(page)) as Record<string, string>;
      const token = headers['Service-Session-Token']!;
      // A real session of that user, and the password went nowhere but the login request.
      expect((await server!.graphql('{ me { email } }', {}, token)).body.data?.me?.email).toBe(email);
      expect(await page.locator('.adgraph-sign-in input[name="password"]').inputValue()).toBe('');
      const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
      expect(stored).not.toContain(PASSWORD);
      return { context, page, token, problems };
    }

    it('puts the token into the headers, keeps it over a reload when asked, and a query works', async () => {
      const { context, page, token, problems } = await signIn(true);
      // GraphiQL writes the headers to localStorage half a second after they change.
      await page.waitForFunction((value) => JSON.stringify({ ...window.localStorage }).includes(value), token, { timeout: 10_000 });
      await page.reload();
      expect(JSON.parse(await headersText(page))).toEqual({ 'Service-Session-Token': token });
      await setEditor(page, QUERY_EDITOR, '{ me { email } }');
      const sent = page.waitForRequest((r) => r.method() === 'POST' && r.postData()?.includes('me { email }') === true);
      const result = await runAndWait(page, email);
      expect((await sent).headers()['service-session-token']).toBe(token);
      expect(JSON.parse(result)).toEqual({ data: { me: { email } } });
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);

    it('runs a subscription over WebSocket with the signed-in token and shows each event as it comes', async () => {
      const { context, page, token, problems } = await signIn(false);
      const world = worldBuilder(server!.deps);
      const org = await world.organization();
      const fanPage = await world.page(org.id);
      const post = await world.post(fanPage);
      await setEditor(page, QUERY_EDITOR, `subscription { commentEvents(pageId: "${fanPage.id}") { verb comment { message } } }`);
      const socket = page.waitForEvent('websocket');
      await execute(page);
      expect((await socket).url()).toBe(new URL('/graphql', server!.url).href.replace(/^http/, 'ws'));
      // The subscription is listening once its socket carried the subscribe message; then a comment arrives.
      await page.waitForTimeout(500);
      const written = await fetch(`${server!.url}/v24.0/${post.id}/comments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'message=Heard+in+the+IDE',
      });
      expect(written.status).toBe(200);
      await page.waitForFunction(
        () =>
          ((document.querySelector('.graphiql-response .CodeMirror') as Element & { CodeMirror: { getValue(): string } }).CodeMirror.getValue() ?? '').includes(
            'Heard in the IDE',
          ),
        undefined,
        { timeout: 15_000 },
      );
      expect(JSON.parse(await editorText(page, '.graphiql-response .CodeMirror'))).toEqual({
        data: { commentEvents: { verb: 'ADD', comment: { message: 'Heard in the IDE' } } },
      });
      mkdirSync(fileURLToPath(new URL('../.tmp/', import.meta.url)), { recursive: true });
      await page.screenshot({ path: fileURLToPath(new URL('../.tmp/ide-subscription.png', import.meta.url)) });
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);

    it('forgets the token on reload unless asked to remember it (the opt-in)', async () => {
      const { context, page, token, problems } = await signIn(false);
      await page.waitForTimeout(1_000); // past GraphiQL's half-second delay before it stores anything
      expect(await page.evaluate(() => JSON.stringify({ ...window.localStorage }))).not.toContain(token);
      await page.reload();
      expect(await headersText(page)).not.toContain(token);
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  });
});
