import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { basicAuth, expectOAuthError, fetchAccessToken, stableHeaders, tokenRequest } from '../helpers/oauth.ts';
import { cliEnv, cliJson } from '../helpers/cli.ts';
import { createClient } from '../../src/oauth/service.ts';

/**
 * Client secrets and signing keys through the operator's CLI against a running server sharing its
 * database: a secret is shown once, a rotated secret stops working at once (even one the server had just
 * verified and remembered), a key rotation is published, and nothing secret reaches the server's log.
 */
const ISSUER = 'https://adgraph.test';

describe('client secrets and signing keys', () => {
  let server: TestServer;
  let env: NodeJS.ProcessEnv;
  let bcryptChecks = 0;
  /** Everything that must never be logged: secrets (good, old and wrong ones), hashes, access tokens. */
  const secrets = new Set<string>();
  const accessTokens = new Set<string>();

  /**
   * Each test's own client, made through the service (the CLI's own `clients create` has its test): a new
   * organization holding one client with scope ads_read. Its secret joins the ones no log line may hold.
   */
  async function newClient(name = 'exporter'): Promise<{ orgId: string; id: string; clientId: string; secret: string }> {
    const org = await worldBuilder(server.deps).organization();
    const { client, clientSecret } = await createClient(server.deps, { name, scope: 'ads_read', organization: org.id });
    secrets.add(clientSecret);
    secrets.add(client.clientSecret); // the stored bcrypt hash
    return { orgId: org.id, id: client.id, clientId: client.clientId, secret: clientSecret };
  }

  const post = (clientId: string, secret: string, extra: Record<string, string> = {}) =>
    tokenRequest(server.url, { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, ...extra } });
  const remember = (token: string) => {
    accessTokens.add(token);
    return token;
  };

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: ISSUER });
    env = cliEnv(server.database);
    const verify = server.deps.passwords.verify.bind(server.deps.passwords);
    server.deps.passwords.verify = (plain, hash) => {
      bcryptChecks += 1;
      return verify(plain, hash);
    };
  });
  afterAll(() => server?.close());

  it('clients create prints the secret once, as JSON; only a bcrypt hash is stored', async () => {
    await worldBuilder(server.deps).organization('Secrets Inc');
    const created = await cliJson(['clients', 'create', '--name', 'exporter', '--scope', 'ads_read', '--org', 'Secrets Inc'], env);
    const client = created.value as { id: string; client_id: string; client_secret: string; scope: string };
    expect(Object.keys(client).sort()).toEqual(['client_id', 'client_secret', 'id', 'scope']);
    // 32 random bytes, base64url.
    expect(client.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.run.stdout.split(client.client_secret)).toHaveLength(2); // printed exactly once
    expect(created.run.stderr).not.toContain(client.client_secret);
    secrets.add(client.client_secret);

    const row = await server.database.db('api_clients').where({ client_id: client.client_id }).first();
    expect(row.client_secret).toMatch(/^\$2[aby]\$\d\d\$/);
    secrets.add(row.client_secret);
  });

  it('clients list --json never shows a secret or a hash', async () => {
    const client = await newClient();
    const { value: listing, run } = await cliJson<{ clients: Array<Record<string, unknown>> }>(['clients', 'list'], env);
    const value = listing.clients;
    expect(value.find((c) => c.client_id === client.clientId)).toMatchObject({
      id: client.id,
      client_name: 'exporter',
      scope: 'ads_read',
      organization_id: client.orgId,
    });
    for (const listed of value) for (const key of Object.keys(listed)) expect(key).not.toMatch(/secret|hash|password/i);
    expect(run.stdout).not.toContain(client.secret);
    expect(run.stdout).not.toContain('$2');
  });

  it('a secret the server verified and remembered stops working the moment clients rotate-secret replaces it', async () => {
    const { clientId, secret: oldSecret } = await newClient();
    bcryptChecks = 0;
    remember(await fetchAccessToken(server.url, clientId, oldSecret));
    expect(bcryptChecks).toBe(1);
    remember(await fetchAccessToken(server.url, clientId, oldSecret));
    expect(bcryptChecks).toBe(1); // remembered: no bcrypt the second time

    const rotated = await cliJson(['clients', 'rotate-secret', clientId], env);
    expect(rotated.value).toMatchObject({ client_id: clientId, client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const newSecret = rotated.value.client_secret as string;
    expect(newSecret).not.toBe(oldSecret);
    secrets.add(newSecret);
    secrets.add((await server.database.db('api_clients').where({ client_id: clientId }).first()).client_secret);

    // The old secret: refused at once, the same answer as an unknown client.
    const old = await post(clientId, oldSecret);
    expectOAuthError(old, 401, 'invalid_client');
    const unknown = await post('00000000-0000-4000-8000-000000000000', oldSecret);
    expect(old.text).toBe(unknown.text);
    expect(stableHeaders(old.headers)).toEqual(stableHeaders(unknown.headers));
    const oldBasic = await tokenRequest(server.url, { body: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(clientId, oldSecret) } });
    expectOAuthError(oldBasic, 401, 'invalid_client');

    // The new one works, by either method.
    remember(await fetchAccessToken(server.url, clientId, newSecret));
    const basic = await tokenRequest(server.url, { body: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(clientId, newSecret) } });
    expect(basic.status, basic.text).toBe(200);
    remember(basic.body.access_token);

    const listed = await cliJson(['clients', 'list'], env);
    expect(listed.run.stdout).not.toContain(newSecret);
    expect(listed.run.stdout).not.toContain('$2');
  });

  it("GraphQL: admins list the organization's clients, with no secret or hash anywhere; others see none", async () => {
    const { orgId, id, clientId } = await newClient();
    const world = worldBuilder(server.deps);
    const admin = await world.user({ organizationId: orgId, role: 'admin' });
    const advertiser = await world.user({ organizationId: orgId, role: 'advertiser' });
    const query = `query ($org: ID!, $id: ID!) {
      organization(id: $org) { apiClients { totalCount nodes { id clientId name scopes createdAt organization { id } } } }
      node(id: $id) { ... on ApiClient { clientId } }
    }`;
    const seen = await server.graphql(query, { org: orgId, id: id }, admin.token);
    expect(seen.body.errors).toBeUndefined();
    expect(seen.body.data!.organization.apiClients).toMatchObject({
      totalCount: 1,
      nodes: [{ id: id, clientId: clientId, name: 'exporter', scopes: ['ads_read'], organization: { id: orgId } }],
    });
    expect(seen.body.data!.node).toEqual({ clientId: clientId });
    const text = JSON.stringify(seen.body);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('$2');

    const hidden = await server.graphql(query, { org: orgId, id: id }, advertiser.token);
    expect(hidden.body.data).toMatchObject({ organization: { apiClients: { totalCount: 0, nodes: [] } }, node: null });

    // Nor can a query ask for one: the type has no field that could hold it.
    const type = await server.graphql('{ __type(name: "ApiClient") { fields { name } } }', {}, admin.token);
    const fields = (type.body.data!.__type.fields as Array<{ name: string }>).map((f) => f.name);
    expect(fields.filter((name) => /secret|hash|password/i.test(name))).toEqual([]);
  });

  it('keys rotate: the running server publishes both keys and signs with the new one', async () => {
    const { clientId, secret } = await newClient();
    const before = remember(await fetchAccessToken(server.url, clientId, secret));
    const oldKid = decodeProtectedHeader(before).kid!;

    const published = async () => ((await (await fetch(`${server.url}/oauth2/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
    const { value } = await cliJson<{ kid: string; retired: string[] }>(['keys', 'rotate'], env);
    expect(value.retired).toEqual([oldKid]);
    expect(value.kid).not.toBe(oldKid);

    // The CLI is another process: this server rereads the keys from the database on its own within seconds.
    const deadline = Date.now() + 20_000;
    let kids: string[] = [];
    while (Date.now() < deadline) {
      kids = await published();
      if (kids.includes(value.kid)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(kids.sort()).toEqual([oldKid, value.kid].sort());

    const after = remember(await fetchAccessToken(server.url, clientId, secret));
    expect(decodeProtectedHeader(after).kid).toBe(value.kid);
    const jwks = createRemoteJWKSet(new URL(`${server.url}/oauth2/jwks`));
    for (const token of [before, after]) {
      await expect(jwtVerify(token, jwks, { issuer: ISSUER, audience: clientId, algorithms: ['RS256'] })).resolves.toBeDefined();
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ adAccounts { totalCount } }' }),
      });
      expect(await response.json()).toEqual({ data: { adAccounts: { totalCount: 0 } } });
    }
  }, 60_000);

  it('no log line holds a client secret, a bcrypt hash or an access token', async () => {
    // A client whose secret was rotated while the server remembered the old one, so the log had both to leak.
    const { clientId, secret: oldSecret } = await newClient();
    remember(await fetchAccessToken(server.url, clientId, oldSecret));
    const newSecret = (await cliJson(['clients', 'rotate-secret', clientId], env)).value.client_secret as string;
    secrets.add(newSecret);
    secrets.add((await server.database.db('api_clients').where({ client_id: clientId }).first()).client_secret);
    await post(clientId, oldSecret);
    // A mixed run of successes and failures, including credentials where they do not belong.
    const wrong = `${newSecret.slice(0, 20)}-wrong-${newSecret.slice(20)}`;
    secrets.add(wrong);
    await post(clientId, wrong);
    await post('no-such-client', newSecret);
    await tokenRequest(server.url, { body: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(clientId, wrong) } });
    await tokenRequest(server.url, { body: { grant_type: 'password', client_id: clientId, client_secret: newSecret } });
    await tokenRequest(server.url, {
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: newSecret }),
      contentType: 'application/json',
    });
    await tokenRequest(server.url, { body: `grant_type=client_credentials&client_id=${clientId}&client_secret=${newSecret}&client_secret=${wrong}` });
    // Credentials in the query string, where a careless client puts them.
    await fetch(`${server.url}/oauth2/token?grant_type=client_credentials&client_id=${clientId}&client_secret=${newSecret}`, { method: 'POST' });
    const token = remember(await fetchAccessToken(server.url, clientId, newSecret));
    await fetch(`${server.url}/graphql?access_token=${token}&query=${encodeURIComponent('{ adAccounts { totalCount } }')}`);
    await fetch(`${server.url}/api/v2/users/me`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${server.url}/api/v2/users/me`, { headers: { authorization: `Bearer ${token.slice(0, -2)}xx` } });

    expect(server.logs.length).toBeGreaterThan(10);
    const offending: string[] = [];
    for (const line of server.logs) {
      const text = JSON.stringify(line);
      if (text.includes('$2')) offending.push(`bcrypt hash: ${text}`);
      for (const secret of secrets) if (text.includes(secret)) offending.push(`secret: ${text}`);
      for (const accessToken of accessTokens) {
        // The whole token, or its signature alone (enough to replay it with the visible header and payload).
        if (text.includes(accessToken) || text.includes(accessToken.split('.')[2]!)) offending.push(`access token: ${text}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
