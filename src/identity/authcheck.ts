import type { RequestContext } from '../context/index.ts';
import { ACTIONS, can, organizationsAllowing, RESOURCE_TYPES, type Action, type ResourceType } from '../authz/policy.ts';
import { findObjectOfType } from '../authz/objects.ts';
import { badInput } from '../errors/index.ts';
import { isUuid } from '../db/ids.ts';
import { findUser, organizationExists, requireViewer, userSubject } from './service.ts';

export const MAX_CHECKS = 100;
export const MAX_CHECKS_WITH_RESOURCE_ID = 10;
const OBJECT_FIELDS = ['resource_type', 'organization_id', 'any_org', 'owner_id', 'resource_id'];

export interface AuthCheckObject {
  resource_type: ResourceType | '*';
  organization_id?: string;
  any_org?: boolean;
  owner_id?: string;
  resource_id?: string;
}

export interface AuthCheck {
  action: Action;
  object: AuthCheckObject;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates one check; `path` names it in errors (checks.<label>). */
export function parseCheck(raw: unknown, path: string): AuthCheck {
  if (!isPlainObject(raw)) throw badInput(path, `${path} must be an object with action and object.`);
  const extra = Object.keys(raw).find((key) => key !== 'action' && key !== 'object');
  if (extra) throw badInput(`${path}.${extra}`, `Unknown field "${extra}".`);
  if (typeof raw.action !== 'string' || !(ACTIONS as readonly string[]).includes(raw.action)) {
    throw badInput(`${path}.action`, `action must be one of ${ACTIONS.join(', ')}.`);
  }
  const object = raw.object;
  if (!isPlainObject(object)) throw badInput(`${path}.object`, 'object is required.');
  const unknown = Object.keys(object).find((key) => !OBJECT_FIELDS.includes(key));
  if (unknown) throw badInput(`${path}.object.${unknown}`, `Unknown field "${unknown}".`);
  const type = object.resource_type;
  if (typeof type !== 'string' || (type !== '*' && !(RESOURCE_TYPES as readonly string[]).includes(type))) {
    throw badInput(`${path}.object.resource_type`, `resource_type must be * or one of ${RESOURCE_TYPES.join(', ')}.`);
  }
  const optionalString = (key: string, check?: (v: string) => boolean, rule?: string) => {
    const value = object[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' || value.length > 128 || (check && !check(value)))
      throw badInput(`${path}.object.${key}`, `${key} must be ${rule ?? 'a string'}.`);
    return value;
  };
  const organization_id = optionalString('organization_id', isUuid, 'an organization id (UUID)');
  const owner_id = optionalString('owner_id', (v) => v === 'me' || isUuid(v), '"me" or a user id (UUID)');
  const resource_id = optionalString('resource_id');
  if (object.any_org !== undefined && object.any_org !== null && typeof object.any_org !== 'boolean') {
    throw badInput(`${path}.object.any_org`, 'any_org must be true or false.');
  }
  const any_org = object.any_org === true;
  if (any_org && organization_id) throw badInput(`${path}.object.any_org`, 'any_org cannot be combined with organization_id.');
  return {
    action: raw.action as Action,
    object: {
      resource_type: type as ResourceType | '*',
      organization_id: organization_id?.toLowerCase(),
      any_org,
      owner_id: owner_id?.toLowerCase(),
      resource_id,
    },
  };
}

/** Validates the request's checks map (label → check) and its limits. */
export function parseChecks(raw: unknown): Array<[label: string, check: AuthCheck]> {
  if (!isPlainObject(raw)) throw badInput('checks', 'checks must be an object of labelled checks.');
  const entries = Object.entries(raw);
  if (entries.length > MAX_CHECKS) throw badInput('checks', `At most ${MAX_CHECKS} checks may be sent at once.`);
  const parsed = entries.map(([label, check]) => [label, parseCheck(check, `checks.${label}`)] as [string, AuthCheck]);
  if (parsed.filter(([, check]) => check.object.resource_id !== undefined).length > MAX_CHECKS_WITH_RESOURCE_ID) {
    throw badInput('checks', `At most ${MAX_CHECKS_WITH_RESOURCE_ID} checks may name a resource_id.`);
  }
  return parsed;
}

/** The organizations a principal belongs to, for any_org. */
function organizationsOf(ctx: RequestContext): string[] {
  const viewer = ctx.viewer;
  if (viewer.kind === 'user') return [...viewer.roles.keys()];
  if (viewer.kind === 'client' || viewer.kind === 'page') return [viewer.organizationId];
  return [];
}

/**
 * Answers one check with the same policy every operation enforces: true exactly when the caller doing
 * `action` on that object (or, without resource_id, on such objects) would be allowed. An object that does
 * not exist or that the caller cannot read answers false.
 */
export async function evaluateCheck(ctx: RequestContext, check: AuthCheck): Promise<boolean> {
  const { action, object } = check;
  const ownerId = object.owner_id === 'me' ? (ctx.viewer.kind === 'user' ? ctx.viewer.userId : undefined) : object.owner_id;
  if (object.owner_id === 'me' && ownerId === undefined) return false;
  // An organization that does not exist, or a user that does not exist or the caller cannot see, has no objects:
  // false, like a resource_id. An organization the caller cannot read still has public pages, posts and comments.
  if (object.organization_id !== undefined && !(await organizationExists(ctx, object.organization_id))) return false;
  if (ownerId !== undefined && (object.resource_type === 'user' || object.resource_type === '*') && !(await findUser(ctx, ownerId))) return false;

  if (object.resource_id !== undefined) {
    const found = await findObjectOfType(ctx, object.resource_type, object.resource_id);
    if (!found) return false;
    if (object.organization_id !== undefined && found.subject.organizationId !== object.organization_id) return false;
    if (ownerId !== undefined && found.subject.ownerId !== ownerId) return false;
    if (object.any_org && !organizationsOf(ctx).includes(found.subject.organizationId ?? '')) return false;
    return can(ctx.viewer, action, found.subject);
  }

  const types = object.resource_type === '*' ? RESOURCE_TYPES : [object.resource_type];
  const owner = ownerId !== undefined && types.includes('user') ? await userSubject(ctx, ownerId) : undefined;
  return types.every((type) => {
    // Users belong to no one organization: a user is reachable through the organizations it shares with the caller.
    if (type === 'user' && owner) return can(ctx.viewer, action, owner);
    if (object.any_org) {
      const allowedIn = organizationsAllowing(ctx.viewer, action, type, ownerId);
      return allowedIn === 'all' || allowedIn.length > 0;
    }
    // The users of an organization are the objects of type user in it.
    if (type === 'user') return can(ctx.viewer, action, { type, memberOf: object.organization_id ? [object.organization_id] : [] });
    return can(ctx.viewer, action, { type, organizationId: object.organization_id, ownerId });
  });
}

export async function authCheck(ctx: RequestContext, rawChecks: unknown): Promise<Record<string, boolean>> {
  requireViewer(ctx);
  const checks = parseChecks(rawChecks);
  const answers = await Promise.all(checks.map(([, check]) => evaluateCheck(ctx, check)));
  return Object.fromEntries(checks.map(([label], i) => [label, answers[i]!]));
}
