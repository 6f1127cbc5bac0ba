import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { authenticateSessionToken } from '../../src/identity/service.ts';
import { insertMembership } from '../../src/identity/store.ts';
import { isBackgroundWork } from '../../src/telemetry/request-scope.ts';

/**
 * Every authenticated request reads its session, the user and the user's memberships in one statement
 * (src/identity/store.ts findLiveSession, a row per membership): the principal must hold every role, none for a
 * user in no organization, and nothing for a session that is not live.
 */
describe("a session's principal", () => {
  let server: TestServer;
  let world: ReturnType<typeof worldBuilder>;

  beforeAll(async () => {
    server = await startTestServer();
    world = worldBuilder(server.deps);
  });
  afterAll(() => server?.close());

  async function principalCountingStatements(token: string) {
    let statements = 0;
    // The server's background work (the event relay, webhook deliveries) queries beside this; it is not the session's.
    const count = () => void (isBackgroundWork() || (statements += 1));
    server.deps.db.on('query', count);
    try {
      return { principal: await authenticateSessionToken(server.deps, token), statements };
    } finally {
      server.deps.db.off('query', count);
    }
  }

  it('holds every organization and role of the user, read in one statement', async () => {
    const [a, b, c] = [await world.organization(), await world.organization(), await world.organization()];
    const { user, token } = await world.user({ organizationId: a.id, role: 'admin' });
    await insertMembership(server.deps.db, b.id, user.id, 'member');
    await insertMembership(server.deps.db, c.id, user.id, 'advertiser');
    const { principal, statements } = await principalCountingStatements(token);
    expect(principal).toMatchObject({ kind: 'user', userId: user.id, siteAdmin: false });
    expect(principal?.kind === 'user' ? Object.fromEntries(principal.roles) : null).toEqual({ [a.id]: 'admin', [b.id]: 'member', [c.id]: 'advertiser' });
    expect(statements).toBe(1);
  });

  it('holds no role for a user in no organization', async () => {
    const { user, token } = await world.user({ siteAdmin: true });
    const { principal } = await principalCountingStatements(token);
    expect(principal).toMatchObject({ kind: 'user', userId: user.id, siteAdmin: true });
    expect(principal?.kind === 'user' ? principal.roles.size : null).toBe(0);
  });

  it('is null for an unknown token and for a revoked session, whatever the memberships', async () => {
    const org = await world.organization();
    const { token } = await world.user({ organizationId: org.id, role: 'owner' });
    expect((await principalCountingStatements(`${token}x`)).principal).toBeNull();
    await server.deps.db('sessions').update({ revoked_at: new Date() });
    expect((await principalCountingStatements(token)).principal).toBeNull();
  });
});
