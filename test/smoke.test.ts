import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrganization, createUser, issueSession } from '../src/identity/service.ts';

describe('smoke', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('serves me for a session', async () => {
    const org = await createOrganization(server.deps, 'Acme');
    const { user } = await createUser(server.deps, { email: 'a@example.com', password: 'Correct-Horse-9-Battery', organization: 'Acme', role: 'admin' });
    const { sessionToken } = await issueSession(server.deps, user);
    const { body } = await server.graphql('{ me { id email memberships { role organization { id name } } } }', {}, sessionToken);
    expect(body.errors).toBeUndefined();
    expect(body.data?.me).toMatchObject({ id: user.id, email: 'a@example.com', memberships: [{ role: 'ADMIN', organization: { id: org.id } }] });
  });
});
