import express, { type Request, type Router } from 'express';
import type { AppDeps } from '../context/index.ts';
import { expandScopes, EXTERNAL_SCOPES } from '../authz/policy.ts';
import { DomainError } from '../errors/index.ts';
import { formBody } from '../http/body.ts';
import { oauthErrorHandler, setNoStore } from '../http/errors/oauth.ts';
import { authenticateClient, invalidClient } from './client-auth.ts';
import { issueAccessToken } from './tokens.ts';

const invalidRequest = (message: string) => new DomainError('BAD_USER_INPUT', message, { oauthError: 'invalid_request' });
const TOKEN_PARAMETERS = ['grant_type', 'scope', 'client_id', 'client_secret'];

/** `Authorization: Basic` credentials (client_secret_basic): base64, split at the first colon, both parts URL-decoded. */
function basicCredentials(req: Request): { clientId: string; secret: string } | undefined {
  const header = req.headers.authorization;
  if (!header || !/^Basic\s/i.test(header)) return undefined;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient();
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw invalidClient();
  }
}

/** One value per parameter (RFC 6749 section 3.2: parameters must not be repeated). */
function singleParameters(body: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) throw invalidRequest(`Parameter ${name} is repeated.`);
    if (typeof value === 'string' && TOKEN_PARAMETERS.includes(name)) params[name] = value;
  }
  return params;
}

/**
 * The OAuth 2.0 endpoints (after Spring Authorization Server's client-credentials flow): the token endpoint,
 * the JWKS and the RFC 8414 metadata. Errors in RFC 6749 section 5.2 shape, never cached.
 */
export function oauthRoutes(deps: AppDeps): Router {
  const router = express.Router();
  const form = formBody({ limit: '16kb', maxParameters: 20 });

  router.post('/oauth2/token', ...form, async (req, res) => {
    setNoStore(res);
    if (!req.is('application/x-www-form-urlencoded')) throw invalidRequest('The request body must be application/x-www-form-urlencoded.');
    const params = singleParameters(req.body);
    const basic = basicCredentials(req);
    if (basic && (params.client_id !== undefined || params.client_secret !== undefined)) {
      throw invalidRequest('Use one client authentication method: Authorization: Basic or client_id/client_secret, not both.');
    }
    const credentials =
      basic ??
      (params.client_id !== undefined && params.client_secret !== undefined ? { clientId: params.client_id, secret: params.client_secret } : undefined);
    if (!credentials) {
      if (params.client_id !== undefined || params.client_secret !== undefined) throw invalidRequest('client_id and client_secret go together.');
      throw invalidClient();
    }
    const client = await authenticateClient(deps, credentials.clientId, credentials.secret, req.ip);
    if (params.grant_type === undefined) throw invalidRequest('grant_type is required.');
    if (params.grant_type !== 'client_credentials') {
      throw new DomainError('BAD_USER_INPUT', 'Only the client_credentials grant is supported.', { oauthError: 'unsupported_grant_type' });
    }
    let narrowed: string[] | undefined;
    if (params.scope !== undefined) {
      narrowed = [...new Set(params.scope.split(' ').filter(Boolean))];
      const granted = expandScopes(client.scope.split(' '));
      const outside = narrowed.find((word) => !EXTERNAL_SCOPES.includes(word) || word === 'all' || [...expandScopes([word])].some((s) => !granted.has(s)));
      if (narrowed.length === 0 || outside !== undefined) {
        throw new DomainError(
          'BAD_USER_INPUT',
          `The requested scope is invalid, unknown, or exceeds the client's scope${outside ? `: ${outside.slice(0, 64)}` : ''}.`,
          { oauthError: 'invalid_scope' },
        );
      }
    }
    const token = await issueAccessToken(deps, client, narrowed);
    res.json({ access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, ...(token.scope ? { scope: token.scope } : {}) });
  });

  router.all('/oauth2/token', (_req, res) => {
    setNoStore(res);
    res.setHeader('Allow', 'POST');
    res.status(405).json({ error: 'invalid_request', error_description: 'The token endpoint accepts POST only.' });
  });

  router.get('/oauth2/jwks', async (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json({ keys: await deps.keys.publicJwks() });
  });

  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    const base = deps.config.publicUrl;
    res.json({
      issuer: deps.config.tokenIssuer,
      token_endpoint: `${base}/oauth2/token`,
      jwks_uri: `${base}/oauth2/jwks`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: EXTERNAL_SCOPES.filter((scope) => scope !== 'all'),
      response_types_supported: [],
    });
  });

  // Any other path under /oauth2 (a mistyped or malformed one) is answered in RFC 6749's shape too.
  router.use('/oauth2', (_req, res) => {
    setNoStore(res);
    res.status(404).json({ error: 'invalid_request', error_description: 'No such endpoint: the token endpoint is POST /oauth2/token.' });
  });
  router.use('/oauth2', oauthErrorHandler);
  return router;
}
