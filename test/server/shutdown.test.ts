import { describe, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { eventually, INCORRECT_LOGIN } from '../helpers/api.ts';
import { connectionRefused, holdRequest, spawnServe, type ServeChild } from '../helpers/serve-child.ts';

/**
 * Stopping `adgraph serve` the way an orchestrator (SIGTERM) or a terminal (Ctrl-C: SIGINT) does, in
 * production mode: the request in flight gets its normal answer, new connections are refused, the process
 * says so and exits 0; a second signal while draining stops at once, non-zero, and says that too.
 */
type Cleanup = typeof onTestFinished;
/** Child processes start slowly on a loaded machine (each loads the server anew): a generous bound. */
const CHILD_TEST_TIMEOUT_MS = 90_000;

/** Each test has its own database and process (the tests run at the same time). */
async function serveOnFreshDatabase(cleanup: Cleanup): Promise<ServeChild> {
  const database: TestDatabase = await createTestDatabase();
  cleanup(() => database.dispose());
  // A long grace period, so nothing but the test ends the draining.
  const serve = spawnServe(database, { SEED_DEMO: 'false', SHUTDOWN_TIMEOUT_MS: '60000' });
  cleanup(() => serve.dispose());
  return serve;
}

const logged = (serve: ServeChild, message: RegExp) => serve.logs().filter((line) => message.test(String(line.msg)));

describe.concurrent('adgraph serve stops cleanly', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it.for(['SIGTERM', 'SIGINT'] as const)(
    'on %s: finishes the request in flight, refuses new connections, exits 0',
    async (signal, { expect, onTestFinished }) => {
      const serve = await serveOnFreshDatabase(onTestFinished);
      const url = await serve.url();
      // A login reads the database and uses the bcrypt workers: both must outlive the request.
      const held = await holdRequest(url, '/api/v2/users/login', { email: 'nobody@example.com', password: 'Not-The-Password-1' });
      onTestFinished(() => held.destroy());

      serve.signal(signal);
      await serve.waitFor(/shutting down/);
      expect(await eventually(() => connectionRefused(url), 10_000, 'new connections to be refused')).toBe(true);

      const answer = await held.finish();
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ message: INCORRECT_LOGIN });

      const exit = await serve.exited;
      expect(exit, serve.stdout() + serve.stderr()).toMatchObject({ code: 0, signal: null });
      expect(logged(serve, /^shutting down/)).toEqual([expect.objectContaining({ level: 30, signal })]);
      expect(logged(serve, /^shut down cleanly$/)).toHaveLength(1);
      expect(serve.stderr()).toBe('');
    },
  );

  it("takes the same signal twice at once as one (a terminal's Ctrl-C, and npm relaying it): drains and exits 0", async ({ expect, onTestFinished }) => {
    const serve = await serveOnFreshDatabase(onTestFinished);
    const url = await serve.url();
    const held = await holdRequest(url, '/graphql', { query: '{ __typename }' });
    onTestFinished(() => held.destroy());

    serve.signal('SIGINT');
    // npm relays the terminal's signal a few milliseconds later: after the first was handled, not merged with it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    serve.signal('SIGINT');
    await serve.waitFor(/shutting down/);
    expect((await held.finish()).status).toBe(200);
    const exit = await serve.exited;
    expect(exit, serve.stdout() + serve.stderr()).toMatchObject({ code: 0, signal: null });
    expect(logged(serve, /exiting now/)).toEqual([]);
    expect(logged(serve, /^shut down cleanly$/)).toHaveLength(1);
  });

  it('exits at once, non-zero and saying why, on a second signal while draining', async ({ expect, onTestFinished }) => {
    const serve = await serveOnFreshDatabase(onTestFinished);
    const url = await serve.url();
    const held = await holdRequest(url, '/graphql', { query: '{ __typename }' });
    onTestFinished(() => held.destroy());

    serve.signal('SIGTERM');
    await serve.waitFor(/shutting down/);
    // Later than a relayed copy of the first signal could come (RELAYED_SIGNAL_MS, src/server/index.ts).
    await new Promise((resolve) => setTimeout(resolve, 600));
    serve.signal('SIGTERM');

    const exit = await serve.exited;
    expect(exit.code, serve.stdout() + serve.stderr()).toBe(128 + 15); // as a shell reports a process SIGTERM ended
    expect(await held.closedWithoutAnswer()).toBe(true);
    expect(logged(serve, /SIGTERM while shutting down: exiting now/)).toEqual([expect.objectContaining({ level: 40, signal: 'SIGTERM' })]);
    expect(logged(serve, /shut down cleanly/)).toEqual([]);
  });
});
