import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSPKI, generateKeyPair, importJWK, SignJWT } from 'jose';
import { startTestServer, type TestServer, type GraphQLBody } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { activeSigningKey, assembleJwt, decodeJwt, expectOAuthError, fetchAccessToken, nowSeconds, signWithServerKey, tokenRequest } from '../helpers/oauth.ts';
import { cliEnv, cliJson } from '../helpers/cli.ts';
import { createClient } from '../../src/oauth/service.ts';
import { TOKEN_FAILURE_MESSAGES, type TokenFailure } from '../../src/oauth/tokens.ts';
import { expectGraphError, graphClient } from '../helpers/graph.ts';

/**
 * Access tokens as bearer credentials (DECISIONS sections 2 and 3): every token that fails a check is answered
 * as an OAuth resource server answers (RFC 6750 invalid_token, issue 13 item 5): 401 with
 * `WWW-Authenticate: Bearer error="invalid_token"` on /api/v2 (the identity error shape) and on GraphQL
 * (UNAUTHENTICATED, oauthError invalid_token), error 190 with the same words on /v24.0; never the session's
 * "signed out" wording. A good one acts for its client's organization with the token's scopes.
 */
const ISSUER = 'https://adgraph.test';
const SIGNED_OUT = 'You are signed out or your session has expired. Please sign in again to continue.';
const PROBE = '{ me { id } adAccounts { totalCount } }';

describe('bearer access tokens', () => {
  let server: TestServer;
  let orgA: string;
  let orgB: string;
  let pageA: string;
  let accountA: string;
  let clientA: { clientId: string; secret: string };
  let clientB: { clientId: string; secret: string };

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: ISSUER });
    const world = worldBuilder(server.deps);
    orgA = (await world.organization()).id;
    orgB = (await world.organization()).id;
    accountA = (await world.adAccount(orgA)).id;
    await world.adAccount(orgB);
    pageA = (await world.page(orgA)).id;
    await world.page(orgB);
    const a = await createClient(server.deps, { name: 'reporting', scope: 'ads_read pages_read_engagement', organization: orgA });
    clientA = { clientId: a.client.clientId, secret: a.clientSecret };
    const b = await createClient(server.deps, { name: 'other org', scope: 'write', organization: orgB });
    clientB = { clientId: b.client.clientId, secret: b.clientSecret };
  });
  afterAll(() => server?.close());

  const me = (token: string) => fetch(`${server.url}/api/v2/users/me`, { headers: { authorization: `Bearer ${token}` } });
  async function graphql(token: string, query = PROBE, variables?: Record<string, unknown>): Promise<{ status: number; body: GraphQLBody }> {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as GraphQLBody };
  }
  async function authcheck(token: string, checks: Record<string, unknown>): Promise<{ status: number; body: any }> {
    const response = await fetch(`${server.url}/api/v2/authcheck`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ checks }),
    });
    return { status: response.status, body: await response.json() };
  }

  const challenge = (failure: TokenFailure) => `Bearer realm="adgraph", error="invalid_token", error_description="${TOKEN_FAILURE_MESSAGES[failure]}"`;

  /** The token is refused on every surface as an invalid token, saying why, with RFC 6750's challenge. */
  async function expectRefused(token: string, failure: TokenFailure = 'invalid'): Promise<void> {
    const message = TOKEN_FAILURE_MESSAGES[failure];
    const rest = await me(token);
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toBe(challenge(failure));
    expect(await rest.json()).toEqual({ message });
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: PROBE }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(challenge(failure));
    expect(await response.json()).toEqual({ errors: [{ message, extensions: { code: 'UNAUTHENTICATED', oauthError: 'invalid_token' } }] });
    // /v24.0 keeps its envelope and status (error 190, HTTP 400: DECISIONS section 4), with the same words and challenge.
    const graph = await graphClient(server).call('GET', `/v24.0/act_${accountA}`, { headers: { authorization: `Bearer ${token}` } });
    expectGraphError(graph, { status: 400, code: 190, type: 'OAuthException', message });
    expect(graph.headers.get('www-authenticate')).toBe(challenge(failure));
  }

  /** The token is accepted: REST knows a principal (an API client has no user: 404, not 401), GraphQL answers. */
  async function expectAccepted(token: string): Promise<void> {
    const rest = await me(token);
    expect(rest.status).toBe(404);
    const { body } = await graphql(token);
    expect(body).toEqual({ data: { me: null, adAccounts: { totalCount: 1 } } });
  }

  const sign = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    signWithServerKey(server.deps.db, { clientId: clientA.clientId, issuer: ISSUER, claims, header });

  describe('controls', () => {
    it('a token from /oauth2/token is accepted', async () => {
      await expectAccepted(await fetchAccessToken(server.url, clientA.clientId, clientA.secret));
    });

    it('a token signed by hand with the server key and the right claims is accepted (the refusals below differ in one thing)', async () => {
      await expectAccepted(await sign());
    });

    it('an expired token within the 30 s clock tolerance still works (exp 10 s ago)', async () => {
      const now = nowSeconds();
      await expectAccepted(await sign({ iat: now - 310, nbf: now - 310, exp: now - 10 }));
    });

    it('no token at all, or a session that is not valid, is the session wording: /api/v2 without a challenge, /graphql 401 for a session', async () => {
      const attempts: Array<Record<string, string>> = [{}, { 'service-session-token': 'no-such-session' }, { authorization: 'Bearer no-such-session' }];
      for (const headers of attempts) {
        const rest = await fetch(`${server.url}/api/v2/users/me`, { headers });
        expect(rest.status).toBe(401);
        expect(rest.headers.get('www-authenticate')).toBeNull();
        expect(await rest.json()).toEqual({ message: SIGNED_OUT });
        const response = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ query: PROBE }),
        });
        const body = (await response.json()) as GraphQLBody;
        if (Object.keys(headers).length === 0) {
          // No credential: 200, one error per field that needs a principal (me, adAccounts), in the session's words.
          expect(response.status).toBe(200);
          expect(response.headers.get('www-authenticate')).toBeNull();
          expect(new Set(body.errors?.map((e) => JSON.stringify([e.message, e.extensions?.code, e.extensions?.oauthError])))).toEqual(
            new Set([JSON.stringify([SIGNED_OUT, 'UNAUTHENTICATED', undefined])]),
          );
        } else {
          // A credential /graphql cannot use: the whole request is refused (test/graphql/status-policy.test.ts).
          expect(response.status).toBe(401);
          expect(response.headers.get('www-authenticate')).toBe(`Bearer realm="adgraph", error="invalid_token", error_description="${SIGNED_OUT}"`);
          expect(body).toEqual({ errors: [{ message: SIGNED_OUT, extensions: { code: 'UNAUTHENTICATED', oauthError: 'invalid_token' } }] });
        }
      }
    });

    it('public operations still take a lapsed session (the caller is anonymous), but not an invalid access token', async () => {
      const scopes = (headers: Record<string, string>) => fetch(`${server.url}/api/v2/auth/scopes`, { headers });
      expect((await scopes({ 'service-session-token': 'no-such-session' })).status).toBe(200);
      const refused = await scopes({ authorization: `Bearer ${await sign({ aud: 'someone-else' })}` });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(challenge('invalid'));
    });
  });

  describe('refused', () => {
    it('expired beyond the tolerance', async () => {
      const now = nowSeconds();
      await expectRefused(await sign({ iat: now - 400, nbf: now - 400, exp: now - 100 }), 'expired');
    });

    it('not yet valid (nbf 5 minutes ahead)', async () => {
      const now = nowSeconds();
      await expectRefused(await sign({ iat: now, nbf: now + 300, exp: now + 600 }), 'not_yet_valid');
    });

    it('without an exp claim', async () => {
      await expectRefused(await sign({ exp: undefined }));
    });

    it('a wrong issuer', async () => {
      await expectRefused(await sign({ iss: 'https://evil.example' }));
      await expectRefused(await sign({ iss: `${ISSUER}/` }));
      await expectRefused(await sign({ iss: undefined }));
    });

    it('a wrong audience', async () => {
      await expectRefused(await sign({ aud: 'someone-else' }));
      await expectRefused(await sign({ aud: clientB.clientId }));
      await expectRefused(await sign({ aud: [clientA.clientId, clientB.clientId] }));
      await expectRefused(await sign({ aud: undefined }));
    });

    it('alg: none (an unsecured JWT)', async () => {
      const { kid } = await activeSigningKey(server.deps.db);
      const now = nowSeconds();
      const payload = { sub: clientA.clientId, aud: clientA.clientId, iss: ISSUER, iat: now, nbf: now, exp: now + 300, jti: 'none-1' };
      await expectRefused(assembleJwt({ alg: 'none', typ: 'JWT' }, payload));
      await expectRefused(assembleJwt({ alg: 'none', typ: 'JWT', kid }, payload));
      await expectRefused(assembleJwt({ alg: 'NONE', kid }, payload));
      // A valid token's signature, re-labelled as unsecured.
      const real = decodeJwt(await sign());
      await expectRefused(assembleJwt({ ...real.header, alg: 'none' }, real.payload, real.signature));
    });

    it('HS256 with the public key as the HMAC secret (algorithm confusion)', async () => {
      const { kid, publicJwk } = await activeSigningKey(server.deps.db);
      const publicPem = await exportSPKI((await importJWK(publicJwk, 'RS256', { extractable: true })) as CryptoKey);
      const now = nowSeconds();
      const payload = { sub: clientA.clientId, aud: clientA.clientId, iss: ISSUER, iat: now, nbf: now, exp: now + 300, jti: 'hs-1' };
      for (const secret of [publicPem, publicPem.trim(), JSON.stringify(publicJwk), String(publicJwk.n)]) {
        const forged = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
        await expectRefused(forged);
      }
    });

    it('an unknown kid, and a foreign key using the published kid', async () => {
      const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
      const { kid } = await activeSigningKey(server.deps.db);
      const now = nowSeconds();
      const payload = { sub: clientA.clientId, aud: clientA.clientId, iss: ISSUER, iat: now, nbf: now, exp: now + 300, jti: 'kid-1' };
      await expectRefused(await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'not-a-published-kid' }).sign(privateKey));
      await expectRefused(await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey));
      // The server's own key, but a kid it does not publish, and no kid at all.
      await expectRefused(await sign({}, { kid: 'not-a-published-kid' }));
      await expectRefused(await sign({}, { kid: undefined }));
    });

    it('a tampered payload with the original signature', async () => {
      const issued = await fetchAccessToken(server.url, clientA.clientId, clientA.secret, 'ads_read');
      const { header, payload, signature } = decodeJwt(issued);
      await expectAccepted(issued);
      // Wider scope, another client's identity, a longer life: each with the signature of the original.
      await expectRefused(assembleJwt(header, { ...payload, scope: ['ads_read', 'pages_read_engagement'] }, signature));
      await expectRefused(assembleJwt(header, { ...payload, sub: clientB.clientId, aud: clientB.clientId }, signature));
      await expectRefused(assembleJwt(header, { ...payload, exp: Number(payload.exp) + 3600 }, signature));
      // And a signature with one character changed.
      const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
      await expectRefused(assembleJwt(header, payload, flipped));
    });

    it('a deleted client: its token stops working at once (adgraph clients delete)', async () => {
      const created = await createClient(server.deps, { name: 'short-lived', scope: 'ads_read', organization: orgA });
      const token = await fetchAccessToken(server.url, created.client.clientId, created.clientSecret);
      await expectAccepted(token);
      const { value } = await cliJson(['clients', 'delete', created.client.clientId], cliEnv(server.database));
      expect(value).toMatchObject({ client_id: created.client.clientId, deleted: true });
      await expectRefused(token, 'client_deleted');
      // Nor does it get a new one, though the server had just verified (and remembered) its secret.
      const again = await tokenRequest(server.url, {
        body: { grant_type: 'client_credentials', client_id: created.client.clientId, client_secret: created.clientSecret },
      });
      expectOAuthError(again, 401, 'invalid_client');
    });
  });

  describe('what a good token may do', () => {
    const checks = () => ({
      readAccounts: { action: 'read', object: { resource_type: 'ad_account', organization_id: orgA } },
      readAccount: { action: 'read', object: { resource_type: 'ad_account', resource_id: accountA } },
      readOtherOrgAccounts: { action: 'read', object: { resource_type: 'ad_account', organization_id: orgB } },
      createCampaign: { action: 'create', object: { resource_type: 'campaign', organization_id: orgA } },
      readPage: { action: 'read', object: { resource_type: 'page', resource_id: pageA } },
      readOrganization: { action: 'read', object: { resource_type: 'organization', organization_id: orgA } },
    });

    it('authcheck answers for the client principal, in its own organization, with its scopes', async () => {
      const token = await fetchAccessToken(server.url, clientA.clientId, clientA.secret);
      const result = await authcheck(token, checks());
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        readAccounts: true,
        readAccount: true,
        readOtherOrgAccounts: false,
        createCampaign: false,
        readPage: true,
        readOrganization: true,
      });
    });

    it('a token narrowed to ads_read cannot read a page its client could', async () => {
      const wide = await fetchAccessToken(server.url, clientA.clientId, clientA.secret);
      const narrow = await fetchAccessToken(server.url, clientA.clientId, clientA.secret, 'ads_read');
      expect((await authcheck(narrow, checks())).body).toEqual({
        readAccounts: true,
        readAccount: true,
        readOtherOrgAccounts: false,
        createCampaign: false,
        readPage: false,
        readOrganization: true,
      });

      const query = 'query ($page: ID!, $account: ID!) { page(id: $page) { id } adAccount(id: $account) { id } }';
      expect((await graphql(wide, query, { page: pageA, account: accountA })).body).toEqual({ data: { page: { id: pageA }, adAccount: { id: accountA } } });
      expect((await graphql(narrow, query, { page: pageA, account: accountA })).body).toEqual({ data: { page: null, adAccount: { id: accountA } } });
    });

    it('a token acts for its own organization only', async () => {
      const tokenB = await fetchAccessToken(server.url, clientB.clientId, clientB.secret);
      const query = 'query ($page: ID!) { page(id: $page) { id } adAccounts { totalCount } }';
      expect((await graphql(tokenB, query, { page: pageA })).body).toEqual({ data: { page: null, adAccounts: { totalCount: 1 } } });
      expect((await authcheck(tokenB, checks())).body).toMatchObject({ readAccount: false, readPage: false, readAccounts: false });
    });
  });
});
