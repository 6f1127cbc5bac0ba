import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { defineTable } from '../db/rows.ts';
import type { Role } from '../authz/policy.ts';
import type { RawCondition } from '../db/conditions.ts';
import type { InvitationStatus } from './rules/invitations.ts';

export interface OrganizationRecord {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export const LOGIN_TYPES = ['password', 'github', 'oidc', 'token', 'none'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];
export const USER_STATUSES = ['active', 'dormant', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface UserRecord {
  id: string;
  email: string;
  username: string;
  name: string;
  loginType: LoginType;
  hashedPassword: string | null;
  status: UserStatus;
  siteAdmin: boolean;
  lastSeenAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface MembershipRecord {
  id: string;
  organizationId: string;
  userId: string;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}

export interface SessionRecord {
  id: string;
  userId: string;
  tokenHash: string;
  loginType: string;
  ipAddress: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date;
  revokedAt: Date | null;
}

/** How a person is named to others (greetings, comment authors, mentions, likes): the name, else the username. */
export const displayName = (user: Pick<UserRecord, 'name' | 'username'>): string => user.name || user.username;

export const organizations = defineTable<OrganizationRecord>('organizations', {
  id: 'string',
  name: 'string',
  created_at: 'date',
  updated_at: 'date',
});

export const users = defineTable<UserRecord>('users', {
  id: 'string',
  email: 'string',
  username: 'string',
  name: 'string',
  login_type: 'string',
  hashed_password: 'string',
  status: 'string',
  site_admin: 'bool',
  last_seen_at: 'date',
  created_at: 'date',
  updated_at: 'date',
});

export const memberships = defineTable<MembershipRecord>('organization_members', {
  id: 'string',
  organization_id: 'string',
  user_id: 'string',
  role: 'string',
  created_at: 'date',
  updated_at: 'date',
});

export const sessions = defineTable<SessionRecord>('sessions', {
  id: 'string',
  user_id: 'string',
  token_hash: 'string',
  login_type: 'string',
  ip_address: 'string',
  created_at: 'date',
  expires_at: 'date',
  last_used_at: 'date',
  revoked_at: 'date',
});

export async function insertOrganization(db: Db, name: string): Promise<OrganizationRecord> {
  const now = new Date();
  const record: OrganizationRecord = { id: randomUUID(), name, createdAt: now, updatedAt: now };
  await db(organizations.table).insert(organizations.toRow(record));
  return record;
}

export async function findOrganizationByIdOrName(db: Db, idOrName: string): Promise<OrganizationRecord | null> {
  const row = await db(organizations.table)
    .where((q) => {
      q.whereRaw('lower(name) = lower(?)', [idOrName]);
      if (/^[0-9a-f-]{36}$/i.test(idOrName)) q.orWhere('id', idOrName.toLowerCase());
    })
    .first();
  return row ? organizations.fromRow(row) : null;
}

export type NewUser = Pick<UserRecord, 'email' | 'username' | 'name' | 'loginType' | 'hashedPassword' | 'siteAdmin'> & { status?: UserStatus };

export async function insertUser(db: Db, input: NewUser): Promise<UserRecord> {
  const now = new Date();
  const record: UserRecord = { id: randomUUID(), status: 'active', lastSeenAt: null, createdAt: now, updatedAt: now, ...input };
  await db(users.table).insert(users.toRow(record));
  return record;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRecord | null> {
  const row = await db(users.table).whereRaw('lower(email) = lower(?)', [email]).first();
  return row ? users.fromRow(row) : null;
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRecord | null> {
  const row = await db(users.table).whereRaw('lower(username) = lower(?)', [username]).first();
  return row ? users.fromRow(row) : null;
}

export async function insertMembership(db: Db, organizationId: string, userId: string, role: Role): Promise<MembershipRecord> {
  const now = new Date();
  const record: MembershipRecord = { id: randomUUID(), organizationId, userId, role, createdAt: now, updatedAt: now };
  await db(memberships.table).insert(memberships.toRow(record));
  return record;
}

export async function membershipsOfUser(db: Db, userId: string): Promise<MembershipRecord[]> {
  const rows = await db(memberships.table).where('user_id', userId);
  return rows.map(memberships.fromRow);
}

export async function insertSession(db: Db, session: Omit<SessionRecord, 'id' | 'revokedAt'>): Promise<SessionRecord> {
  const record: SessionRecord = { id: randomUUID(), revokedAt: null, ...session };
  await db(sessions.table).insert(sessions.toRow(record));
  return record;
}

/** Each table's columns under a prefix, for reading several tables' columns from one joined row. */
const prefixed = (table: { table: string; columns: Record<string, unknown> }, prefix: string) =>
  Object.keys(table.columns).map((column) => ({ column, alias: `${prefix}${column}`, select: `${table.table}.${column} as ${prefix}${column}` }));
const SESSION_COLUMNS = prefixed(sessions, 's_');
const USER_COLUMNS = prefixed(users, 'u_');
const MEMBERSHIP_COLUMNS = prefixed(memberships, 'm_');

function unprefixed(row: Record<string, unknown>, columns: ReturnType<typeof prefixed>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const { column, alias } of columns) picked[column] = row[alias];
  return picked;
}

/**
 * A live session by the hash of its token, with its user and the user's memberships, in one statement (a row per
 * membership; one with no membership columns for a user in no organization): every authenticated request asks.
 */
/** A session that is neither revoked nor expired, with its user and the user's memberships. */
export interface LiveSession {
  session: SessionRecord;
  user: UserRecord;
  memberships: MembershipRecord[];
}

export async function findLiveSession(db: Db, by: { tokenHash: string } | { id: string }, now: Date): Promise<LiveSession | null> {
  const rows: Array<Record<string, unknown>> = await db(sessions.table)
    .join(users.table, 'users.id', 'sessions.user_id')
    .leftJoin(memberships.table, `${memberships.table}.user_id`, 'users.id')
    .where('id' in by ? { 'sessions.id': by.id } : { 'sessions.token_hash': by.tokenHash })
    .whereNull('sessions.revoked_at')
    .where('sessions.expires_at', '>', now)
    .select(...[...SESSION_COLUMNS, ...USER_COLUMNS, ...MEMBERSHIP_COLUMNS].map(({ select }) => select));
  const [first] = rows;
  if (!first) return null;
  return {
    session: sessions.fromRow(unprefixed(first, SESSION_COLUMNS)),
    user: users.fromRow(unprefixed(first, USER_COLUMNS)),
    memberships: rows.filter((row) => row.m_id !== null && row.m_id !== undefined).map((row) => memberships.fromRow(unprefixed(row, MEMBERSHIP_COLUMNS))),
  };
}

export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db(sessions.table).where('id', sessionId).update({ last_used_at: now });
}

export async function revokeSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db(sessions.table).where('id', sessionId).whereNull('revoked_at').update({ revoked_at: now });
}

export interface PasscodeRecord {
  id: string;
  userId: string;
  codeHash: string;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export const passcodes = defineTable<PasscodeRecord>('one_time_passcodes', {
  id: 'string',
  user_id: 'string',
  code_hash: 'string',
  attempts: 'int',
  created_at: 'date',
  expires_at: 'date',
  used_at: 'date',
});

/** A new passcode replaces any earlier unused one: only the latest mail works. */
export async function replacePasscode(db: Db, userId: string, codeHash: string, now: Date, expiresAt: Date): Promise<void> {
  await db.transaction(async (trx) => {
    await trx(passcodes.table).where('user_id', userId).whereNull('used_at').update({ used_at: now });
    await trx(passcodes.table).insert(passcodes.toRow({ id: randomUUID(), userId, codeHash, attempts: 0, createdAt: now, expiresAt, usedAt: null }));
  });
}

export async function findUsablePasscode(db: Db, userId: string, now: Date, maxAttempts: number): Promise<PasscodeRecord | null> {
  const row = await db(passcodes.table)
    .where('user_id', userId)
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .orderBy('created_at', 'desc')
    .first();
  return row ? passcodes.fromRow(row) : null;
}

/**
 * Takes one of the passcode's tries before it is compared, in one statement that counts it only while the passcode
 * is unused, unexpired and under `maxAttempts`: concurrent tries cannot all pass a read of the count. False when
 * none is left.
 */
export async function takePasscodeAttempt(db: Db, passcodeId: string, now: Date, maxAttempts: number): Promise<boolean> {
  const taken = await db(passcodes.table)
    .where('id', passcodeId)
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .increment('attempts', 1);
  return taken === 1;
}

/** Gives back a try taken by takePasscodeAttempt (the code was right, but the change was refused). */
export async function givePasscodeAttemptBack(db: Db, passcodeId: string): Promise<void> {
  await db(passcodes.table).where('id', passcodeId).where('attempts', '>', 0).decrement('attempts', 1);
}

/**
 * Sets a new password with a passcode, all or nothing: the passcode is spent (only if still unused, so two
 * concurrent requests cannot both use it), the password replaced and every session revoked.
 */
export async function changePasswordWithPasscode(db: Db, userId: string, passcodeId: string, hashedPassword: string, now: Date): Promise<boolean> {
  return db.transaction(async (trx) => {
    const spent = await trx(passcodes.table).where('id', passcodeId).whereNull('used_at').update({ used_at: now });
    if (spent !== 1) return false;
    await trx(users.table).where('id', userId).update({ hashed_password: hashedPassword, updated_at: now });
    await trx(sessions.table).where('user_id', userId).whereNull('revoked_at').update({ revoked_at: now });
    return true;
  });
}

/**
 * An operator's password reset, all or nothing: the new hash (the user signs in with a password from now on),
 * every live session revoked, and passcodes not yet used spent, so none mailed before can replace the password
 * the operator set. Answers how many sessions it revoked.
 */
export async function resetPassword(db: Db, userId: string, hashedPassword: string, now: Date): Promise<number> {
  return db.transaction(async (trx) => {
    await trx(users.table).where('id', userId).update({ hashed_password: hashedPassword, login_type: 'password', updated_at: now });
    await trx(passcodes.table).where('user_id', userId).whereNull('used_at').update({ used_at: now });
    const revoked: unknown = await trx(sessions.table)
      .where('user_id', userId)
      .whereNull('revoked_at')
      .where('expires_at', '>', now)
      .update({ revoked_at: now });
    return Number(revoked);
  });
}

export async function insertLoginConversion(
  db: Db,
  row: { userId: string; fromType: string; toType: string; stateHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db('login_conversions').insert({
    id: randomUUID(),
    user_id: row.userId,
    from_type: row.fromType,
    to_type: row.toType,
    state_hash: row.stateHash,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
    used_at: null,
  });
}

export async function updateUserName(db: Db, userId: string, name: string, now: Date): Promise<void> {
  await db(users.table).where('id', userId).update({ name, updated_at: now });
}

export async function findMembership(db: Db, organizationId: string, userId: string): Promise<MembershipRecord | null> {
  const row = await db(memberships.table).where({ organization_id: organizationId, user_id: userId }).first();
  return row ? memberships.fromRow(row) : null;
}

export async function updateMembershipRole(db: Db, id: string, role: Role, now: Date): Promise<void> {
  await db(memberships.table).where('id', id).update({ role, updated_at: now });
}

export async function deleteMembership(db: Db, id: string): Promise<void> {
  await db(memberships.table).where('id', id).delete();
}

export interface InvitationRecord {
  id: string;
  organizationId: string;
  /** As the inviter typed it. */
  email: string;
  /** The address as it is matched to users (rules/invitations.ts emailKey). */
  emailKey: string;
  role: Role;
  /** As stored: a pending invitation past expiresAt is expired all the same (rules/invitations.ts invitationStatus). */
  status: InvitationStatus;
  invitedByUserId: string | null;
  /** The membership accepting it made. */
  membershipId: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  /** When it was accepted, declined or revoked. */
  respondedAt: Date | null;
}

export const invitations = defineTable<InvitationRecord>('organization_invitations', {
  id: 'string',
  organization_id: 'string',
  email: 'string',
  email_key: 'string',
  role: 'string',
  status: 'string',
  invited_by_user_id: 'string',
  membership_id: 'string',
  created_at: 'date',
  updated_at: 'date',
  expires_at: 'date',
  responded_at: 'date',
});

export async function insertInvitation(db: Db, record: InvitationRecord): Promise<void> {
  await db(invitations.table).insert(invitations.toRow(record));
}

export async function findInvitation(db: Db, id: string): Promise<InvitationRecord | null> {
  const row = await db(invitations.table).where('id', id).first();
  return row ? invitations.fromRow(row) : null;
}

/** Closes the organization's open invitation to an address (revoked, or expired if its time is up); true when one was still open. */
export async function closeOpenInvitation(db: Db, organizationId: string, emailKey: string, now: Date): Promise<boolean> {
  const open = () => db(invitations.table).where({ organization_id: organizationId, email_key: emailKey, status: 'pending' });
  const revoked = await open().where('expires_at', '>', now).update({ status: 'revoked', responded_at: now, updated_at: now });
  await open().update({ status: 'expired', updated_at: now });
  return revoked > 0;
}

/**
 * Answers an invitation only if it is still pending and unexpired, in one statement, so an invitation is answered
 * once however many requests race for it. False when it was not open.
 */
export async function respondToInvitation(db: Db, id: string, status: 'accepted' | 'declined' | 'revoked', now: Date): Promise<boolean> {
  const changed = await db(invitations.table)
    .where({ id, status: 'pending' })
    .where('expires_at', '>', now)
    .update({ status, responded_at: now, updated_at: now });
  return changed === 1;
}

export async function setInvitationMembership(db: Db, id: string, membershipId: string): Promise<void> {
  await db(invitations.table).where('id', id).update({ membership_id: membershipId });
}

const STATUS = `${invitations.table}.status`;
const EXPIRES_AT = `${invitations.table}.expires_at`;

/** Invitations whose status (as invitationStatus reads it at `now`) is one of `statuses`, as SQL. */
export function invitationStatusCondition(statuses: readonly InvitationStatus[], now: Date): RawCondition {
  const parts = statuses.map((status): RawCondition => {
    if (status === 'pending') return { sql: `${STATUS} = 'pending' and ${EXPIRES_AT} > ?`, bindings: [now] };
    if (status === 'expired') return { sql: `${STATUS} = 'expired' or (${STATUS} = 'pending' and ${EXPIRES_AT} <= ?)`, bindings: [now] };
    return { sql: `${STATUS} = ?`, bindings: [status] };
  });
  if (parts.length === 0) return { sql: '1 = 0', bindings: [] };
  return { sql: parts.map((part) => `(${part.sql})`).join(' or '), bindings: parts.flatMap((part) => part.bindings) };
}
