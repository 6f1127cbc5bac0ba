import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { redactUrl } from '../../src/server/http-logging.ts';
import type { AdAccountRecord } from '../../src/ads/store.ts';

/**
 * The request log never holds a secret sent in a URL, in any spelling the server accepts: the names are decoded as
 * Express decodes the query string (`access%5Ftoken` is `access_token`), so a token the server took is a token the log
 * redacted. A real session token is sent in every accepted spelling and the whole captured log is searched for it.
 */
let server: TestServer;
let token: string;
let account: AdAccountRecord;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  account = await world.adAccount(org.id, { name: 'Logged account' });
});
afterAll(() => server?.close());

/** Every character %-escaped, upper- or lower-case hex: still the same name or value to the query parser. */
const escapeAll = (text: string, lower = false) =>
  [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')[lower ? 'toLowerCase' : 'toUpperCase']()}`).join('');

/** The spellings of `access_token=<token>` the /v24.0 layer accepts (each answers the account). */
const ACCEPTED = (t: string): Array<[string, string]> => [
  ['plain', `access_token=${t}`],
  ['underscore escaped', `access%5Ftoken=${t}`],
  ['underscore escaped, lower-case hex', `access%5ftoken=${t}`],
  ['first letter escaped', `%61ccess_token=${t}`],
  ['every letter of the name escaped', `${escapeAll('access_token', true)}=${t}`],
  ['the value escaped too', `${escapeAll('access_token')}=${escapeAll(t)}`],
  ['after other parameters', `fields=name&limit=5&access_token=${t}`],
  ['an empty parameter before it', `&&access_token=${t}&`],
];

describe('secrets in the query string never reach the request log', () => {
  it('redacts a token the server accepts, however its name and value are spelled', async () => {
    const requestIds: string[] = [];
    for (const [spelling, query] of ACCEPTED(token)) {
      const response = await fetch(`${server.url}/v24.0/act_${account.id}?${query}${query.includes('fields=') ? '' : '&fields=name'}`);
      expect(response.status, `${spelling}: ${await response.clone().text()}`).toBe(200);
      expect(((await response.json()) as { name: string }).name, spelling).toBe('Logged account');
      requestIds.push(response.headers.get('x-request-id')!);
    }
    // A repeated token is refused (error 100), and logged without either copy.
    const repeated = await fetch(`${server.url}/v24.0/act_${account.id}?access_token=${token}&access%5Ftoken=${token}`);
    expect(repeated.status).toBe(400);
    requestIds.push(repeated.headers.get('x-request-id')!);

    // Not accepted (the name must be exactly access_token, and the token endpoint reads a form body only), redacted all the same.
    for (const path of [
      `/v24.0/act_${account.id}?ACCESS_TOKEN=${token}`,
      `/v24.0/act_${account.id}?access_token+=${token}`,
      `/v24.0/act_${account.id}?Access%20Token=${token}&fields=name`,
      `/v24.0/act_${account.id}?accessToken=${token}&session-token=${token}`,
      `/oauth2/token?client_secret=${token}&password=${token}&token=${token}`,
    ]) {
      const response = await fetch(`${server.url}${path}`, { method: path.startsWith('/oauth2') ? 'POST' : 'GET' });
      expect(response.status).toBeGreaterThanOrEqual(400);
      requestIds.push(response.headers.get('x-request-id')!);
    }

    // GraphQL over GET serves queries, and validatePassword is one: the document and its variables hold the secret.
    for (const query of [
      `query=${encodeURIComponent(`{ validatePassword(password: "${token}") { valid } }`)}`,
      `query=${encodeURIComponent('query ($p: String!) { validatePassword(password: $p) { valid } }')}&variables=${encodeURIComponent(JSON.stringify({ p: token }))}`,
      `%71uery=${escapeAll(`{ validatePassword(password: "${token}") { valid } }`)}`,
    ]) {
      const response = await fetch(`${server.url}/graphql?${query}`, { headers: { 'service-session-token': token } });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(((await response.json()) as { data: { validatePassword: { valid: boolean } } }).data.validatePassword.valid).toBe(true);
      requestIds.push(response.headers.get('x-request-id')!);
    }

    // A batch item's relative_url may carry a token too; the batch's body is never logged.
    const batch = await fetch(`${server.url}/v24.0/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ batch: JSON.stringify([{ method: 'GET', relative_url: `act_${account.id}?fields=name&access%5Ftoken=${token}` }]) }),
    });
    expect(((await batch.json()) as Array<{ code: number }>)[0]!.code).toBe(200);
    requestIds.push(batch.headers.get('x-request-id')!);

    // Each request has its line, and its URL kept what was not secret.
    for (const id of requestIds) {
      const line = server.logs.find((entry) => (entry.req as { id?: string } | undefined)?.id === id && entry.res !== undefined);
      expect(line, `request ${id} logged`).toBeDefined();
    }
    const logged = server.logs.map((line) => JSON.stringify(line)).join('\n');
    for (const spelling of [token, escapeAll(token), encodeURIComponent(token)]) expect(logged.split('\n').filter((l) => l.includes(spelling))).toEqual([]);
    expect(logged).toContain(`/v24.0/act_${account.id}?fields=name&limit=5&access_token=[redacted]`);
  });

  it.each([
    ['/v24.0/1?access%5Ftoken=SECRET', '/v24.0/1?access%5Ftoken=[redacted]'],
    ['/v24.0/1?a=1&%61ccess_token=SECRET&b=2', '/v24.0/1?a=1&%61ccess_token=[redacted]&b=2'],
    ['/v24.0/1?access_token=SECRET&access_token=SECRET2', '/v24.0/1?access_token=[redacted]&access_token=[redacted]'],
    ['/v24.0/1?Client%5FSecret=SECRET', '/v24.0/1?Client%5FSecret=[redacted]'],
    ['/v24.0/1?+password+=SECRET', '/v24.0/1?+password+=[redacted]'],
    ['/v24.0/1?oneTimePasscode=SECRET', '/v24.0/1?oneTimePasscode=[redacted]'],
    // A webhook subscription's verify token, and its signing secret, in any spelling.
    ['/v24.0/7/subscriptions?object=page&verify_token=SECRET', '/v24.0/7/subscriptions?object=page&verify_token=[redacted]'],
    ['/v24.0/7/subscriptions?signingSecret=SECRET', '/v24.0/7/subscriptions?signingSecret=[redacted]'],
    // A name that does not decode to UTF-8 is refused by the server, and its value kept out of the log whatever it is.
    ['/v24.0/1?access_token%FF=SECRET&fields=name', '/v24.0/1?access_token%FF=[redacted]&fields=name'],
    ['/v24.0/1?fields=access_token', '/v24.0/1?fields=access_token'],
    ['/v24.0/1?x=1#&token=SECRET', '/v24.0/1?x=1#&token=[redacted]'],
    ['/v24.0/1?token', '/v24.0/1?token'],
    ['/healthz', '/healthz'],
    ['/graphql?query={me{id}}&operationName=Me&variables={}', '/graphql?query=[redacted]&operationName=Me&variables=[redacted]'],
    ['/v24.0/1?query=x', '/v24.0/1?query=x'],
  ])('redactUrl(%s) is %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});
