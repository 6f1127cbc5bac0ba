import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

/**
 * A broken %-escape (`%E0%A4%A`: a three-byte UTF-8 sequence cut short) in the path of every surface. Express's
 * router refuses to decode a route parameter that holds one with a URIError of status 400; each surface answers in
 * its own shape, with its own 400 or 404, and the log says no more than that a request was answered (info).
 */
const BROKEN = '%E0%A4%A';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
});
afterAll(() => server?.close());

type Shape = 'identity' | 'graph' | 'oauth' | 'graphql' | 'generic';

interface Case {
  what: string;
  method: string;
  path: string;
  /** Sent as the session token (`Service-Session-Token`, which /v24.0 does not read: it gets `access_token`). */
  signedIn?: boolean;
  body?: Record<string, unknown>;
  status: number;
  shape: Shape;
}

const CASES: Case[] = [
  { what: 'identity route parameter', method: 'POST', path: `/api/v2/users/${BROKEN}/convert-login`, signedIn: true, body: {}, status: 400, shape: 'identity' },
  { what: 'identity route parameter, signed out', method: 'POST', path: `/api/v2/users/${BROKEN}/convert-login`, body: {}, status: 400, shape: 'identity' },
  { what: 'identity, no such route', method: 'GET', path: `/api/v2/${BROKEN}`, signedIn: true, status: 404, shape: 'identity' },
  { what: 'Graph object', method: 'GET', path: `/v24.0/${BROKEN}?access_token=TOKEN`, status: 400, shape: 'graph' },
  { what: 'Graph edge write', method: 'POST', path: `/v24.0/${BROKEN}/campaigns?access_token=TOKEN`, body: { name: 'x' }, status: 400, shape: 'graph' },
  { what: 'Graph version', method: 'GET', path: `/v${BROKEN}/me?access_token=TOKEN`, status: 400, shape: 'graph' },
  { what: 'OAuth, under /oauth2', method: 'POST', path: `/oauth2/${BROKEN}`, status: 404, shape: 'oauth' },
  { what: 'OAuth, after the token endpoint', method: 'POST', path: `/oauth2/token/${BROKEN}`, status: 404, shape: 'oauth' },
  { what: 'GraphQL endpoint', method: 'GET', path: `/graphql/${BROKEN}`, status: 400, shape: 'graphql' },
  { what: "the IDE's static assets", method: 'GET', path: `/graphql/ide/${BROKEN}.js`, status: 404, shape: 'generic' },
  { what: 'an unknown route', method: 'GET', path: `/${BROKEN}`, status: 404, shape: 'generic' },
  { what: 'an unknown route under .well-known', method: 'GET', path: `/.well-known/${BROKEN}`, status: 404, shape: 'generic' },
];

function expectShape(shape: Shape, body: any): void {
  switch (shape) {
    case 'identity':
    case 'generic':
      // {message, detail?, validations?}: the identity API's, which the generic 404 shares.
      expect(body).toEqual({ message: expect.any(String), ...(body.detail !== undefined ? { detail: expect.any(String) } : {}) });
      return;
    case 'graph':
      expect(body).toEqual({
        error: expect.objectContaining({ message: expect.any(String), type: expect.any(String), code: 100, fbtrace_id: expect.any(String) }),
        __fb_trace_id__: expect.any(String),
        __www_request_id__: expect.any(String),
      });
      return;
    case 'oauth':
      expect(body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      return;
    case 'graphql':
      expect(body).toEqual({
        errors: [expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code: expect.any(String) }) })],
      });
  }
}

describe('a path with a %-escape that does not decode', () => {
  it.each(CASES.map((c) => [c.what, c] as const))('%s: its own 4xx in its own shape, nothing above info in the log', async (_what, c) => {
    const headers: Record<string, string> = {};
    if (c.signedIn) headers['service-session-token'] = token;
    if (c.body) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.url}${c.path.replace('TOKEN', token)}`, {
      method: c.method,
      headers,
      body: c.body ? JSON.stringify(c.body) : undefined,
    });
    const text = await response.text();
    expect(response.status, text).toBe(c.status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expectShape(c.shape, JSON.parse(text));
    expect(text).not.toMatch(/URIError|\n\s+at |node_modules|decodeURIComponent/);
    if (c.shape === 'oauth') expect(response.headers.get('cache-control')).toBe('no-store');

    const requestId = response.headers.get('x-request-id')!;
    const lines = server.logs.filter((line) => JSON.stringify(line).includes(requestId));
    expect(lines.length).toBeGreaterThan(0);
    expect(
      lines.filter((line) => (line.level as number) > 30),
      JSON.stringify(lines),
    ).toEqual([]);
  });

  it('inside a batch, the item is answered with the Graph envelope and the batch goes on', async () => {
    const response = await fetch(`${server.url}/v24.0/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        access_token: token,
        batch: JSON.stringify([
          { method: 'GET', relative_url: `${BROKEN}?fields=id` },
          { method: 'GET', relative_url: 'me' },
        ]),
      }),
    });
    expect(response.status).toBe(200);
    const answers = (await response.json()) as Array<{ code: number; body: string }>;
    expect(answers).toHaveLength(2);
    expect(answers[0]!.code).toBe(400);
    expectShape('graph', JSON.parse(answers[0]!.body));
    const requestId = response.headers.get('x-request-id')!;
    expect(server.logs.filter((line) => JSON.stringify(line).includes(requestId) && (line.level as number) > 30)).toEqual([]);
  });
});
