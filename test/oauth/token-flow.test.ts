import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { createClient } from '../../src/oauth/service.ts';
import { rotateKeys } from '../../src/oauth/keys.ts';

describe('client-credentials flow', () => {
  let server: TestServer;
  let client: { clientId: string; secret: string };
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://adgraph.test' });
    orgId = (await worldBuilder(server.deps).organization()).id;
    const created = await createClient(server.deps, { name: 'reporting', scope: 'ads_read pages_read_engagement', organization: orgId });
    client = { clientId: created.client.clientId, secret: created.clientSecret };
  });
  afterAll(() => server?.close());

  const token = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(params).toString(),
    });

  it('issues a verifiable RS256 token by client_secret_post and client_secret_basic', async () => {
    const post = await token({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret });
    expect(post.status).toBe(200);
    expect(post.headers.get('cache-control')).toBe('no-store');
    expect(post.headers.get('pragma')).toBe('no-cache');
    const body = (await post.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 300 });

    const basic = await token(
      { grant_type: 'client_credentials' },
      {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`).toString('base64')}`,
      },
    );
    expect(basic.status).toBe(200);

    const jwks = createRemoteJWKSet(new URL(`${server.url}/oauth2/jwks`));
    const { payload, protectedHeader } = await jwtVerify(body.access_token, jwks, {
      issuer: 'https://adgraph.test',
      audience: client.clientId,
      algorithms: ['RS256'],
    });
    expect(protectedHeader.kid).toEqual(expect.any(String));
    expect(payload.sub).toBe(client.clientId);
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(payload.nbf).toBe(payload.iat);
    expect(payload.jti).toEqual(expect.any(String));
    expect(payload.scope).toBeUndefined();
  });

  it('accepts the token as a bearer on GraphQL, acting for the client organization', async () => {
    const { access_token: accessToken } = (await (
      await token({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret })
    ).json()) as { access_token: string };
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ query: 'query ($id: ID!) { organization(id: $id) { id } me { id } }', variables: { id: orgId } }),
    });
    expect(await response.json()).toEqual({ data: { organization: { id: orgId }, me: null } });
  });

  it('narrows the scope on request and puts it in the token', async () => {
    const response = await token({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret, scope: 'ads_read' });
    const body = (await response.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe('ads_read');
    const { payload } = await jwtVerify(body.access_token, createRemoteJWKSet(new URL(`${server.url}/oauth2/jwks`)));
    expect(payload.scope).toEqual(['ads_read']);
    const wider = await token({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret, scope: 'ads_management' });
    expect(wider.status).toBe(400);
    expect(((await wider.json()) as { error: string }).error).toBe('invalid_scope');
  });

  it('keeps verifying tokens of the old key after a rotation, and signs with the new one', async () => {
    const before = (await (await token({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret })).json()) as {
      access_token: string;
    };
    const oldKid = decodeProtectedHeader(before.access_token).kid;
    const { kid: newKid } = await rotateKeys(server.deps.db, server.deps.config);
    // Another process (the CLI) rotated; this server would reread within seconds, and waiting has no place in a test.
    server.deps.keys.invalidate();
    // A fresh JWKS client, as a relying party starting after the rotation would have.
    const jwks = createRemoteJWKSet(new URL(`${server.url}/oauth2/jwks`));
    await expect(jwtVerify(before.access_token, jwks)).resolves.toBeDefined();
    const published = ((await (await fetch(`${server.url}/oauth2/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining([oldKid, newKid]));
    const after = (await (await token({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret })).json()) as {
      access_token: string;
    };
    expect(decodeProtectedHeader(after.access_token).kid).toBe(newKid);
    await expect(jwtVerify(after.access_token, jwks)).resolves.toBeDefined();
  });

  it('publishes RFC 8414 metadata', async () => {
    const metadata = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: 'https://adgraph.test',
      token_endpoint: 'https://adgraph.test/oauth2/token',
      jwks_uri: 'https://adgraph.test/oauth2/jwks',
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
    expect(metadata.scopes_supported).toContain('ads_read');
  });
});
