import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { basicAuth, expectOAuthError, percentEncodeAll, stableHeaders, tokenRequest, type TokenRequestOptions } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';

/**
 * The token endpoint's failures (DECISIONS section 3, RFC 6749 section 5.2): the status, exactly
 * `{error, error_description}`, and `Cache-Control: no-store` / `Pragma: no-cache` on every one of them.
 * The happy paths are in token-flow.test.ts.
 */
describe('POST /oauth2/token errors', () => {
  let server: TestServer;
  let client: { clientId: string; secret: string };
  let bcryptChecks = 0;
  const send = (options: TokenRequestOptions) => tokenRequest(server.url, options);
  const good = () => ({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret });

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://adgraph.test' });
    const org = await worldBuilder(server.deps).organization();
    const created = await createClient(server.deps, { name: 'errors', scope: 'ads_read pages_read_engagement', organization: org.id });
    client = { clientId: created.client.clientId, secret: created.clientSecret };
    // Count the bcrypt checks (the work is what makes both failures cost the same; counting is not timing).
    const verify = server.deps.passwords.verify.bind(server.deps.passwords);
    server.deps.passwords.verify = (plain, hash) => {
      bcryptChecks += 1;
      return verify(plain, hash);
    };
  });
  afterAll(() => server?.close());

  describe('invalid_client', () => {
    it('unknown client and wrong secret get byte-identical 401 answers after the same bcrypt work', async () => {
      // A first failure computes the dummy hash for unknown ids once; compare warm answers.
      await send({ body: { grant_type: 'client_credentials', client_id: 'warm-up', client_secret: 'x' } });

      bcryptChecks = 0;
      const unknown = await send({
        body: { grant_type: 'client_credentials', client_id: '3f0e6a9c-1d2b-4c5e-8f7a-0b1c2d3e4f50', client_secret: client.secret },
      });
      const unknownChecks = bcryptChecks;
      bcryptChecks = 0;
      const wrong = await send({ body: { ...good(), client_secret: client.secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) } });
      const wrongChecks = bcryptChecks;

      expectOAuthError(unknown, 401, 'invalid_client');
      expectOAuthError(wrong, 401, 'invalid_client');
      expect(wrong.status).toBe(unknown.status);
      expect(wrong.text).toBe(unknown.text);
      expect(stableHeaders(wrong.headers)).toEqual(stableHeaders(unknown.headers));
      expect({ unknownChecks, wrongChecks }).toEqual({ unknownChecks: 1, wrongChecks: 1 });
    });

    it('unknown client and wrong secret by Basic are identical too, and carry WWW-Authenticate: Basic', async () => {
      const unknown = await send({ body: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth('no-such-client', client.secret) } });
      const wrong = await send({ body: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(client.clientId, 'not-the-secret') } });
      for (const response of [unknown, wrong]) {
        expectOAuthError(response, 401, 'invalid_client');
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
      }
      expect(wrong.text).toBe(unknown.text);
      expect(stableHeaders(wrong.headers)).toEqual(stableHeaders(unknown.headers));
    });

    it('a Basic header that does not decode to id:secret, or with broken percent-encoding, is invalid_client', async () => {
      for (const authorization of [`Basic ${Buffer.from('no-colon-here').toString('base64')}`, basicAuth(client.clientId, '%ZZ', (part) => part)]) {
        const response = await send({ body: { grant_type: 'client_credentials' }, headers: { authorization } });
        expectOAuthError(response, 401, 'invalid_client');
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
      }
    });

    it('no client credentials at all is 401 invalid_client', async () => {
      expectOAuthError(await send({ body: { grant_type: 'client_credentials' } }), 401, 'invalid_client');
    });
  });

  describe('client_secret_basic decoding', () => {
    it('URL-decodes both parts: a header whose id and secret are percent-encoded character by character works', async () => {
      const response = await send({
        body: { grant_type: 'client_credentials' },
        headers: { authorization: basicAuth(client.clientId, client.secret, percentEncodeAll) },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('pragma')).toBe('no-cache');
    });

    it('the percent-encoded secret is not accepted as it is in the form (only Basic URL-decodes)', async () => {
      // The secret is base64url, so encoding changes it; the form already carries it decoded.
      const response = await send({ body: { ...good(), client_secret: percentEncodeAll(client.secret) } });
      expectOAuthError(response, 401, 'invalid_client');
    });
  });

  describe('invalid_request', () => {
    it('Basic and form credentials at once', async () => {
      const authorization = basicAuth(client.clientId, client.secret);
      expectOAuthError(await send({ body: good(), headers: { authorization } }), 400, 'invalid_request');
      expectOAuthError(
        await send({ body: { grant_type: 'client_credentials', client_id: client.clientId }, headers: { authorization } }),
        400,
        'invalid_request',
      );
      expectOAuthError(
        await send({ body: { grant_type: 'client_credentials', client_secret: client.secret }, headers: { authorization } }),
        400,
        'invalid_request',
      );
    });

    it('client_id in the form without client_secret, and the other way round', async () => {
      expectOAuthError(await send({ body: { grant_type: 'client_credentials', client_id: client.clientId } }), 400, 'invalid_request');
      expectOAuthError(await send({ body: { grant_type: 'client_credentials', client_secret: client.secret } }), 400, 'invalid_request');
    });

    it('a missing grant_type', async () => {
      expectOAuthError(await send({ body: { client_id: client.clientId, client_secret: client.secret } }), 400, 'invalid_request');
    });

    it('a repeated parameter', async () => {
      const id = encodeURIComponent(client.clientId);
      const secret = encodeURIComponent(client.secret);
      const bodies = [
        `grant_type=client_credentials&grant_type=client_credentials&client_id=${id}&client_secret=${secret}`,
        `grant_type=client_credentials&scope=ads_read&scope=ads_read&client_id=${id}&client_secret=${secret}`,
        `grant_type=client_credentials&client_id=${id}&client_id=${id}&client_secret=${secret}`,
        `grant_type=client_credentials&client_id=${id}&client_secret=${secret}&client_secret=${secret}`,
      ];
      for (const body of bodies) expectOAuthError(await send({ body }), 400, 'invalid_request');
    });

    it('a JSON body, even with valid credentials in it', async () => {
      const response = await send({ body: JSON.stringify(good()), contentType: 'application/json' });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('a form body with an unsupported charset', async () => {
      const response = await send({ body: good(), contentType: 'application/x-www-form-urlencoded; charset=latin1' });
      expectOAuthError(response, 400, 'invalid_request');
    });

    it('a form body with more parameters than the endpoint reads', async () => {
      const extra = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, 'x']));
      const response = await send({ body: { ...good(), ...extra } });
      expectOAuthError(response, 400, 'invalid_request');
    });
  });

  describe('grant type and scope', () => {
    it('grant_type=password (or any other grant) is unsupported_grant_type', async () => {
      for (const grant of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
        expectOAuthError(await send({ body: { ...good(), grant_type: grant, username: 'a', password: 'b' } }), 400, 'unsupported_grant_type');
      }
    });

    it('an unknown scope word, or one beyond the client, is invalid_scope', async () => {
      // The client has ads_read and pages_read_engagement.
      for (const scope of ['mind_control', 'ads_read mind_control', 'ads_management', 'ads_read ads_management', 'write', 'read']) {
        expectOAuthError(await send({ body: { ...good(), scope } }), 400, 'invalid_scope');
      }
    });
  });

  describe('other methods', () => {
    it('GET /oauth2/token is 405 with Allow: POST', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await send({ method });
        expectOAuthError(response, 405, 'invalid_request');
        expect(response.headers.get('allow')).toBe('POST');
      }
    });
  });
});
