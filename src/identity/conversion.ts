import { createHash, randomBytes } from 'node:crypto';
import type { RequestContext } from '../context/index.ts';
import { can } from '../authz/policy.ts';
import { badInput, DomainError, forbidden, notFound } from '../errors/index.ts';
import { isUuid } from '../db/ids.ts';
import { findUser, requireViewer, userSubject, verifyCredentials } from './service.ts';
import * as store from './store.ts';
import type { UserRecord } from './store.ts';

const CONVERTIBLE = ['github', 'oidc'];
const NOT_CONVERTIBLE = ['password', 'token', 'none'];
const STATE_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `user` in a path: a UUID, a username, or `me`. Missing and invisible users are the same 404. */
export async function resolveUserParam(ctx: RequestContext, value: string, field = 'user'): Promise<UserRecord> {
  const viewer = requireViewer(ctx);
  let id: string | undefined;
  if (value === 'me') {
    if (viewer.kind !== 'user') throw badInput(field, 'An API client has no user: name the user by id or username.');
    id = viewer.userId;
  } else if (isUuid(value)) {
    id = value.toLowerCase();
  } else if (/^[a-zA-Z0-9-]{1,32}$/.test(value)) {
    id = (await store.findUserByUsername(ctx.db, value))?.id;
  } else {
    throw badInput(field, `${field} must be a user id (UUID), a username or "me".`);
  }
  const user = id ? await findUser(ctx, id) : null;
  if (!user) throw notFound('User', value);
  return user;
}

/** Random state, 32 characters from a 62-letter alphabet without modulo bias. */
function randomState(length = 32): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < 248 && out.length < length) out += STATE_ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface LoginConversion {
  expiresAt: Date;
  stateString: string;
  toType: string;
  userId: string;
}

/**
 * Starts turning a password account into an OAuth one (Coder's convert-login): re-checks the password,
 * stores a short-lived state (only its hash) for the OAuth callback to verify, and returns it once.
 */
export async function convertLogin(ctx: RequestContext, userParam: string, input: { to_type?: unknown; password?: unknown }): Promise<LoginConversion> {
  const user = await resolveUserParam(ctx, userParam);
  if (!can(ctx.viewer, 'update', await userSubject(ctx, user.id))) throw forbidden();
  if (typeof input.to_type !== 'string' || input.to_type === '') throw badInput('to_type', 'to_type is required.');
  if (NOT_CONVERTIBLE.includes(input.to_type)) throw new DomainError('BAD_USER_INPUT', `Cannot convert to login type "${input.to_type}".`);
  if (!CONVERTIBLE.includes(input.to_type)) throw new DomainError('BAD_USER_INPUT', `Unknown login type "${input.to_type.slice(0, 64)}".`);
  if (user.loginType !== 'password') {
    throw new DomainError('BAD_USER_INPUT', `Only password accounts can be converted; this account uses "${user.loginType}".`);
  }
  await verifyCredentials(ctx, user.email, input.password, ctx.ip);

  const now = new Date();
  const expiresAt = new Date(now.getTime() + ctx.config.conversionTtlSeconds * 1000);
  const stateString = `convert-${randomState()}`;
  await store.insertLoginConversion(ctx.db, {
    userId: user.id,
    fromType: user.loginType,
    toType: input.to_type,
    stateHash: createHash('sha256').update(stateString).digest('hex'),
    createdAt: now,
    expiresAt,
  });
  return { expiresAt, stateString, toType: input.to_type, userId: user.id };
}
