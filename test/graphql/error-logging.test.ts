import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';

// pino's numeric levels.
const DEBUG = 20;
const ERROR = 50;

describe('GraphQL error logging', () => {
  let server: TestServer;
  let token: string;
  let conversionId: string;

  beforeAll(async () => {
    // Debug, so that what is logged about a caller's mistake is seen, not just what is not.
    server = await startTestServer({ LOG_LEVEL: 'debug' });
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    token = (await world.user({ organizationId: org.id, role: 'admin' })).token;
    conversionId = (await world.conversion(await world.adAccount(org.id))).id;
  });
  afterAll(() => server?.close());

  /** POSTs a raw body to /graphql with a request id of its own; the answer and every log line written meanwhile. */
  async function send(body: string, options: { token?: string } = {}) {
    const requestId = `log-test-${Math.random().toString(36).slice(2)}`;
    const before = server.logs.length;
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...(options.token ? { 'service-session-token': options.token } : {}) },
      body,
    });
    const answer = (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
    // The request's own line (pino-http) is written when the response finishes: wait for it.
    await expect
      .poll(() => server.logs.slice(before).some((line) => line.msg === 'request completed' && (line.req as { id?: string })?.id === requestId))
      .toBe(true);
    return {
      status: response.status,
      answer,
      requestId,
      lines: server.logs.slice(before).filter((line) => (line.req as { id?: string } | undefined)?.id === requestId),
    };
  }
  const query = (text: string, variables?: Record<string, unknown>) => JSON.stringify({ query: text, variables });

  const deep =
    '{ me { memberships { organization { adAccounts { nodes { campaigns { nodes { adSets { nodes { ads { nodes { adSet { campaign { account { name } } } } } } } } } } } } } } }';
  const manyIds = JSON.stringify(Array.from({ length: 100 }, (_, i) => String(100000000000001 + i)));
  it.each([
    ['a syntax error', query('{ me { '), 'GRAPHQL_PARSE_FAILED', 400],
    ['an unknown field', query('{ me { emal } }'), 'GRAPHQL_VALIDATION_FAILED', 400],
    ['an unknown argument', query('{ me(first: 1) { id } }'), 'GRAPHQL_VALIDATION_FAILED', 400],
    ['an enum value that does not exist', query('{ adAccounts { nodes { adSets(status: [SLEEPING]) { totalCount } } } }'), 'GRAPHQL_VALIDATION_FAILED', 400],
    ['a variable of the wrong type', query('query ($id: ID!) { node(id: $id) { id } }', { id: { not: 'an id' } }), 'BAD_USER_INPUT', 400],
    ['a missing variable', query('query ($id: ID!) { node(id: $id) { id } }'), 'BAD_USER_INPUT', 400],
    ['a query too deep', query(deep), 'QUERY_TOO_DEEP', 400],
    ['too many aliases', query(`{ ${Array.from({ length: 31 }, (_, i) => `m${i}: me { id }`).join(' ')} }`), 'TOO_MANY_ALIASES', 400],
    ['a query too complex', query(`{ ${Array.from({ length: 30 }, (_, i) => `a${i}: nodes(ids: ${manyIds}) { id }`).join(' ')} }`), 'QUERY_TOO_COMPLEX', 400],
    ['a malformed id (a service refuses it)', query('{ adSet(id: "abc") { id } }'), 'BAD_USER_INPUT', 200],
  ])("%s is logged at debug, without a stack, and answered as the caller's mistake", async (_case, body, code, status) => {
    const sent = await send(body, { token });
    expect(sent.status).toBe(status);
    expect(sent.answer.errors?.[0]?.extensions?.code).toBe(code);
    expect(sent.lines.filter((line) => (line.level as number) >= ERROR)).toEqual([]);
    // Not one line carries a stack trace or a path on this machine.
    for (const line of sent.lines) {
      const text = JSON.stringify(line);
      expect(text).not.toMatch(/"stack"|\bat .+:\d+:\d+/);
      expect(text).not.toContain(process.cwd());
    }
    const refused = sent.lines.filter((line) => line.msg === 'GraphQL request refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ level: DEBUG, graphqlError: { code } });
  });

  it('logs a request without a session at debug too', async () => {
    const sent = await send(query('{ me { id } }'));
    expect(sent.answer.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(sent.lines.filter((line) => (line.level as number) >= ERROR)).toEqual([]);
    expect(sent.lines.find((line) => line.msg === 'GraphQL request refused')).toMatchObject({ level: DEBUG, graphqlError: { code: 'UNAUTHENTICATED' } });
  });

  it('logs a real fault at error, with its stack and the request id, and answers it masked', async () => {
    // A resolver that fails in a way no caller can cause: its table is gone.
    await server.deps.db.schema.renameTable('custom_conversions', 'custom_conversions_away');
    try {
      const sent = await send(query('query ($id: ID!) { node(id: $id) { id } }', { id: conversionId }), { token });
      expect(sent.status).toBe(200);
      expect(sent.answer).toEqual({
        data: { node: null },
        errors: [{ message: 'Internal server error', locations: [{ line: 1, column: 20 }], path: ['node'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
      });
      const errors = sent.lines.filter((line) => (line.level as number) >= ERROR);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ level: ERROR, msg: 'unexpected GraphQL error', req: { id: sent.requestId } });
      expect((errors[0]!.err as { stack?: string }).stack).toMatch(/custom_conversions/);
      expect((errors[0]!.err as { stack?: string }).stack).toMatch(/\n\s+at /);
    } finally {
      await server.deps.db.schema.renameTable('custom_conversions_away', 'custom_conversions');
    }
  });
});
