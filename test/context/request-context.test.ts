// Same on every database: the shape of a context, which reads nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../src/context/index.ts';
import { ANONYMOUS } from '../../src/authz/policy.ts';
import { createLogger } from '../../src/logging/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * A request context inherits the process's dependencies (src/context/index.ts): it holds its own few fields, sees
 * what is set on the dependencies later, and keeps its lazily made logger through Apollo's per-operation copy.
 */
describe('a request context', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ASYNC_RUNNER: 'false' });
  });
  afterAll(() => server?.close());

  /** Apollo's copy of a context for each operation (cloneObject in @apollo/server's ApolloServer.js). */
  const apolloCopy = <T extends object>(object: T): T => Object.assign(Object.create(Object.getPrototypeOf(object) as object) as T, object);

  it('holds only its own fields, and reads the dependencies, as they are now, through its prototype', () => {
    const ctx = createRequestContext(server.deps, { requestId: 'r1', viewer: ANONYMOUS, ip: '127.0.0.1' });
    expect(Object.keys(ctx).sort()).toEqual(['ip', 'loaders', 'requestId', 'viewer']);
    expect(ctx.db).toBe(server.deps.db);
    expect(ctx.config).toBe(server.deps.config);
    const clock = () => new Date('2026-01-01T00:00:00Z');
    server.deps.clock = clock;
    try {
      expect(ctx.clock).toBe(clock);
    } finally {
      server.deps.clock = undefined;
    }
  });

  it('makes its logger on first use, once, also in the copy Apollo makes; a given logger or the process’s otherwise', () => {
    let made = 0;
    const own = createLogger('silent');
    const lazy = createRequestContext(server.deps, {
      requestId: 'r2',
      viewer: ANONYMOUS,
      log: () => {
        made += 1;
        return own;
      },
    });
    const copy = apolloCopy(lazy);
    expect(made).toBe(0);
    expect(copy.log).toBe(own);
    expect(copy.log).toBe(own);
    expect(made).toBe(1);
    const given = createRequestContext(server.deps, { requestId: 'r3', viewer: ANONYMOUS, log: own });
    expect(apolloCopy(given).log).toBe(own);
    expect(createRequestContext(server.deps, { requestId: 'r4', viewer: ANONYMOUS }).log).toBe(server.deps.log);
    // Two requests' contexts share nothing of their own.
    const [a, b] = [
      createRequestContext(server.deps, { requestId: 'a', viewer: ANONYMOUS }),
      createRequestContext(server.deps, { requestId: 'b', viewer: ANONYMOUS }),
    ];
    expect(a.loaders).not.toBe(b.loaders);
    expect([a.requestId, b.requestId]).toEqual(['a', 'b']);
  });
});
