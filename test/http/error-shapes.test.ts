import { describe, expect, it } from 'vitest';
import { badInput, DomainError, forbidden, invalidAccessToken, notFound, serviceUnavailable, unauthenticated } from '../../src/errors/index.ts';
import { bearerChallenge } from '../../src/http/errors/challenge.ts';
import { identityError } from '../../src/http/errors/identity.ts';
import { graphError } from '../../src/http/errors/graph.ts';
import { oauthError } from '../../src/http/errors/oauth.ts';

// One domain error, three REST shapes (DECISIONS sections 1, 3 and 4).
describe('identity API error shape', () => {
  it.each([
    [
      badInput('email', 'Must be a valid e-mail address.'),
      400,
      { message: 'Validation failed.', validations: [{ field: 'email', detail: 'Must be a valid e-mail address.' }] },
    ],
    [new DomainError('BAD_USER_INPUT', 'Cannot convert to login type "password".'), 400, { message: 'Cannot convert to login type "password".' }],
    [unauthenticated(), 401, { message: 'You are signed out or your session has expired. Please sign in again to continue.' }],
    [invalidAccessToken('Invalid access token: it has expired.'), 401, { message: 'Invalid access token: it has expired.' }],
    [forbidden(), 403, { message: 'Forbidden.' }],
    [notFound('User', '42'), 404, { message: 'Resource not found or you do not have access to this resource' }],
    [new DomainError('RATE_LIMITED', 'Too many requests.'), 429, { message: 'Too many requests.' }],
    [serviceUnavailable(), 503, { message: 'The database is unavailable. Try again shortly.' }],
  ])('%s → %i', (error, status, body) => {
    expect(identityError(error)).toEqual({ status, body });
  });
});

describe('Graph API error envelope', () => {
  it('answers a missing or invisible object with code 100, subcode 33', () => {
    const { status, body } = graphError(notFound('Ad set', '123'), 'trace-1');
    expect(status).toBe(400);
    expect(body).toEqual({
      error: {
        message:
          "Unsupported get request. Object with ID '123' does not exist, cannot be loaded due to missing permissions, or does not support this operation",
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        is_transient: false,
        fbtrace_id: 'trace-1',
      },
      __fb_trace_id__: 'trace-1',
      __www_request_id__: 'trace-1',
    });
  });

  it.each([
    [unauthenticated('Invalid OAuth access token.'), 400, 190, 'OAuthException'],
    [invalidAccessToken('Invalid access token: it could not be verified.'), 400, 190, 'OAuthException'],
    [forbidden('Missing permission'), 403, 200, 'OAuthException'],
    [new DomainError('BAD_USER_INPUT', 'Too many calls', { graph: { code: 80004, subcode: 2446079, isTransient: true } }), 400, 80004, 'OAuthException'],
    [badInput('name', 'Param name must be at most 400 characters'), 400, 100, 'OAuthException'],
  ])('maps %s to HTTP %i, code %i', (error, status, code, type) => {
    const result = graphError(error, 't');
    expect(result.status).toBe(status);
    expect(result.body.error).toMatchObject({ code, type });
  });

  it('prefixes the code and carries subcode, user texts and data', () => {
    const error = new DomainError('BAD_USER_INPUT', 'Invalid parameter', {
      graph: { code: 100, subcode: 3858079, userTitle: 'Payor missing', userMessage: 'Add dsa_payor.', data: { blame_field_specs: [['dsa_payor']] } },
    });
    expect(graphError(error, 't').body.error).toEqual({
      message: '(#100) Invalid parameter',
      type: 'OAuthException',
      code: 100,
      error_subcode: 3858079,
      is_transient: false,
      error_user_title: 'Payor missing',
      error_user_msg: 'Add dsa_payor.',
      error_data: { blame_field_specs: [['dsa_payor']] },
      fbtrace_id: 't',
    });
  });
});

describe('OAuth error shape', () => {
  it.each([
    [unauthenticated('Client authentication failed.'), 401, 'invalid_client'],
    [new DomainError('BAD_USER_INPUT', 'grant_type is required'), 400, 'invalid_request'],
    [new DomainError('BAD_USER_INPUT', 'Only client_credentials', { oauthError: 'unsupported_grant_type' }), 400, 'unsupported_grant_type'],
  ])('%s → %i %s', (error, status, code) => {
    expect(oauthError(error)).toEqual({ status, body: { error: code, error_description: error.message } });
  });
});

// RFC 6750 section 3: a refused access token carries a Bearer challenge on every surface; a session failure none.
describe('bearer challenge', () => {
  it('names invalid_token and the reason, as a quoted-string of printable ASCII', () => {
    expect(bearerChallenge(invalidAccessToken('Invalid access token: "it" has \\ expired \u00e9.'))).toBe(
      'Bearer realm="adgraph", error="invalid_token", error_description="Invalid access token: it has  expired ."',
    );
  });

  it('is absent for a missing or lapsed session and for other refusals', () => {
    for (const error of [
      unauthenticated(),
      forbidden(),
      badInput('email', 'x'),
      new DomainError('UNAUTHENTICATED', 'Client authentication failed.', { oauthError: 'invalid_client' }),
    ]) {
      expect(bearerChallenge(error)).toBeUndefined();
    }
  });
});
