import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, ResourceType, Role } from '../../src/authz/policy.ts';
import { commentExternalId, posts as postsTable, type PageRecord, type PostRecord } from '../../src/comments/store.ts';
import { insertObjects } from '../../src/db/objects.ts';
import { createUser } from '../../src/identity/service.ts';
import { insertMembership } from '../../src/identity/store.ts';
import { createClient } from '../../src/oauth/service.ts';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { graphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * authcheck (DECISIONS section 2) over both surfaces, REST `POST /api/v2/authcheck` and GraphQL `authCheck`.
 *
 * The property that matters most: for every check, the answer is true if and only if the caller performing
 * that action on that object succeeds. It is asserted over a generated matrix of principals (one per role,
 * outsiders, a site admin), actions, resource types and objects, against the real operations.
 *
 * Principals are users with session tokens; API clients get tokens in a later issue.
 *
 * Comments (issue 10): the property covers reading comments (hidden ones too, and a reply under a hidden comment),
 * updating them (its author edits a comment with editComment; anyone else updates a hideable comment with
 * setCommentHidden, to the state it is in; the page's own comments are edited, which the page's moderators may),
 * deleting fresh comments (the principal's own, another person's, the page's; on a page post and on a review) and
 * publishing comments on a post (the check names organization_id). Each comment operation is performed on both
 * surfaces that have it, GraphQL and /v24.0 (a session token is an access_token there), which must agree.
 */

// -- The surfaces -------------------------------------------------------------------------------------

type Check = {
  action: Action | string;
  object: { resource_type: string; organization_id?: string; any_org?: boolean; owner_id?: string; resource_id?: string };
};

let server: TestServer;

function rest(body: unknown, token?: string, raw?: string) {
  return fetch(`${server.url}/api/v2/authcheck`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'service-session-token': token } : {}) },
    body: raw ?? JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
}

const AUTHCHECK_QUERY = 'query ($checks: [AuthCheckInput!]!) { authCheck(checks: $checks) { label allowed } }';

/** A REST-shaped check as GraphQL's AuthCheckInput. */
function toGraphQLInput(label: string, check: Check): Record<string, unknown> {
  const o = check.object;
  // GraphQL's AuthResourceType: the type upper-cased, ALL for *.
  const object: Record<string, unknown> = { resourceType: o.resource_type === '*' ? 'ALL' : o.resource_type.toUpperCase() };
  if (o.organization_id !== undefined) object.organizationId = o.organization_id;
  if (o.any_org !== undefined) object.anyOrg = o.any_org;
  if (o.owner_id !== undefined) object.ownerId = o.owner_id;
  if (o.resource_id !== undefined) object.resourceId = o.resource_id;
  return { label, action: String(check.action).toUpperCase(), object };
}

/** Asks both surfaces; they must agree and succeed. */
async function askBoth(token: string, checks: Record<string, Check>): Promise<Record<string, boolean>> {
  const viaRest = await rest({ checks }, token);
  if (viaRest.status !== 200) throw new Error(`REST authcheck answered ${viaRest.status}: ${JSON.stringify(viaRest.body)}`);
  const input = Object.entries(checks).map(([label, check]) => toGraphQLInput(label, check));
  const viaGraphQL = await server.graphql(AUTHCHECK_QUERY, { checks: input }, token);
  if (viaGraphQL.body.errors) throw new Error(`GraphQL authCheck failed: ${JSON.stringify(viaGraphQL.body.errors)}`);
  const results = viaGraphQL.body.data!.authCheck as Array<{ label: string; allowed: boolean }>;
  expect(results.map((r) => r.label)).toEqual(Object.keys(checks));
  const fromGraphQL = Object.fromEntries(results.map((r) => [r.label, r.allowed]));
  expect(fromGraphQL, 'REST and GraphQL give the same answers').toEqual(viaRest.body);
  return viaRest.body as Record<string, boolean>;
}

async function askOne(token: string, check: Check): Promise<boolean> {
  return (await askBoth(token, { c: check })).c!;
}

/** Did the operation succeed? FORBIDDEN / NOT_FOUND (or a null read) is "no"; any other error is a test failure. */
function succeeded(body: GraphQLBody, field: string, accept: (value: any) => boolean = (value) => value != null): boolean {
  if (body.errors?.length) {
    if (body.errors.every((e) => e.extensions?.code === 'FORBIDDEN' || e.extensions?.code === 'NOT_FOUND')) return false;
    throw new Error(`unexpected error from ${field}: ${JSON.stringify(body.errors)}`);
  }
  return accept(body.data?.[field]);
}

// -- The world ----------------------------------------------------------------------------------------

const PRINCIPALS = [
  'ownerA',
  'adminA',
  'advertiserA',
  'moderatorA',
  'auditorA',
  'memberA',
  'ownerB',
  'memberB',
  /** member in A, moderator in B */
  'bridge',
  /** no organization */
  'loner',
  'siteAdmin',
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];

type Shape = 'numeric' | 'uuid' | 'comment' | 'act';
type Kind = ResourceType | 'custom_conversion' | 'missing';

interface WorldObject {
  label: string;
  id: string;
  /** What it really is ('missing' for ids naming nothing). */
  kind: Kind;
  /** The resource type a check about it names (for missing ids: the type the id looks like). */
  type: ResourceType;
  shape: Shape;
  /** Memberships: the current role, so an update can set the same role again. */
  role?: Role;
  /** Comments the comment cases act on. */
  comment?: CommentMeta;
}

/** A comment as the comment cases need it. */
interface CommentMeta {
  author: PrincipalName | 'page';
  hidden: boolean;
  /** Rule 4 lets the page hide it (not the page's own, not by an owner or admin of the page's organization, on a page post). */
  hideable: boolean;
  /** What an edit sends: the message as first written, mentions included (an edit replaces them), so who sees it stays. */
  message: string;
}

const TYPENAMES: Record<ResourceType, string[]> = {
  user: ['User'],
  organization: ['Organization'],
  organization_member: ['OrganizationMember'],
  api_client: ['ApiClient'],
  ad_account: ['AdAccount'],
  campaign: ['Campaign'],
  ad_set: ['AdSet'],
  ad: ['Ad'],
  // Custom conversions are authorized as custom audiences: one resource type for both.
  custom_audience: ['CustomAudience', 'CustomConversion'],
  page: ['Page'],
  post: ['Post'],
  comment: ['Comment'],
};

/** The typed query for each type, and the id shape it takes; the others are read through node(id:). */
const TYPED_QUERY: Partial<Record<ResourceType, { field: string; shapes: Shape[] }>> = {
  user: { field: 'user', shapes: ['uuid'] },
  organization: { field: 'organization', shapes: ['uuid'] },
  ad_account: { field: 'adAccount', shapes: ['numeric', 'act'] },
  campaign: { field: 'campaign', shapes: ['numeric'] },
  ad_set: { field: 'adSet', shapes: ['numeric'] },
  ad: { field: 'ad', shapes: ['numeric'] },
  page: { field: 'page', shapes: ['numeric'] },
  post: { field: 'post', shapes: ['numeric'] },
  comment: { field: 'comment', shapes: ['comment'] },
};

const ALL_TYPES: ResourceType[] = [
  'user',
  'organization',
  'organization_member',
  'api_client',
  'ad_account',
  'campaign',
  'ad_set',
  'ad',
  'custom_audience',
  'page',
  'post',
  'comment',
];

interface World {
  orgA: string;
  orgB: string;
  /** Each organization's ad account and campaign, where ad set writes happen. */
  ads: Record<'A' | 'B', { account: AdAccountRecord; campaign: CampaignRecord }>;
  principals: Record<PrincipalName, { id: string; token: string }>;
  objects: WorldObject[];
  /** Objects whose ids are UUIDs (users, organizations, memberships, a missing UUID). */
  uuidObjects: WorldObject[];
  /** The same objects under other spellings of their ids. */
  spellings: WorldObject[];
  byLabel: Record<string, WorldObject>;
  /** Where the comment cases act, per organization: a page post (the page may hide people's comments there) and a review. */
  commentPosts: Record<'A' | 'B', { post: PostRecord; review: PostRecord }>;
  /** Each principal's comment on each organization's page post. */
  ownComments: Record<'A' | 'B', Record<PrincipalName, WorldObject>>;
  /** Comments the page may hide (people's, hidden ones, a reply under a hidden comment): setCommentHidden targets. */
  hideableComments: WorldObject[];
  /** The page's own comments: edited by the page (its moderators), never hidden. */
  pageComments: WorldObject[];
}

let world: World;
let freshCounter = 0;

/** A user with no organization and no session: the target of destructive cases. */
async function freshUser(organizationId?: string, role?: Role) {
  const local = `fresh${++freshCounter}x${Date.now().toString(36)}`;
  return createUser(server.deps, { email: `${local}@example.com`, organization: organizationId, role });
}

async function buildWorld(): Promise<World> {
  const build = worldBuilder(server.deps);
  const a = await build.organization();
  const b = await build.organization();
  const principals = {} as World['principals'];
  const memberships: WorldObject[] = [];
  const rolesIn: Record<'A' | 'B', Partial<Record<PrincipalName, Role>>> = { A: {}, B: {} };
  const add = async (name: PrincipalName, orgs: Array<[string, Role]>, siteAdmin = false) => {
    const [first, ...rest] = orgs;
    const { user, token } = await build.user({ organizationId: first?.[0], role: first?.[1], siteAdmin });
    for (const [orgId, role] of rest) await insertMembership(server.deps.db, orgId, user.id, role);
    principals[name] = { id: user.id, token };
    for (const [orgId, role] of orgs) {
      const row = (await server.deps.db('organization_members').where({ user_id: user.id, organization_id: orgId }).first()) as { id: string };
      const org = orgId === a.id ? 'A' : 'B';
      rolesIn[org][name] = role;
      memberships.push({ label: `membership of ${name} in ${org}`, id: row.id, kind: 'organization_member', type: 'organization_member', shape: 'uuid', role });
    }
  };
  for (const role of ['owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member'] as const) {
    await add(`${role}A` as PrincipalName, [[a.id, role]]);
  }
  await add('ownerB', [[b.id, 'owner']]);
  await add('memberB', [[b.id, 'member']]);
  await add('bridge', [
    [a.id, 'member'],
    [b.id, 'moderator'],
  ]);
  await add('loner', []);
  await add('siteAdmin', [], true);

  const objects: WorldObject[] = [];
  const put = (label: string, id: string, kind: Kind, type: ResourceType, shape: Shape) => objects.push({ label, id, kind, type, shape });
  const posts: Record<string, string> = {};
  const comments: Record<string, string> = {};
  const adWorld = {} as World['ads'];
  const pages = {} as Record<'A' | 'B', PageRecord>;
  for (const [org, name] of [
    [a, 'A'],
    [b, 'B'],
  ] as const) {
    put(`organization ${name}`, org.id, 'organization', 'organization', 'uuid');
    const account = await build.adAccount(org.id);
    const [campaign] = await build.campaigns(account, 1);
    const [adSet] = await build.adSets(campaign!, 1);
    const [ad] = await build.ads(adSet!, 1);
    adWorld[name] = { account, campaign: campaign! };
    const audience = await build.audience(account);
    const conversion = await build.conversion(account);
    const page = await build.page(org.id);
    const post = await build.post(page, name === 'A' ? principals.memberA.id : null);
    const comment = await build.comment(post);
    const { client } = await createClient(server.deps, { name: `client ${name}`, scope: 'ads_read', organization: org.id });
    put(`ad account ${name}`, account.id, 'ad_account', 'ad_account', 'numeric');
    put(`campaign ${name}`, campaign!.id, 'campaign', 'campaign', 'numeric');
    put(`ad set ${name}`, adSet!.id, 'ad_set', 'ad_set', 'numeric');
    put(`ad ${name}`, ad!.id, 'ad', 'ad', 'numeric');
    put(`custom audience ${name}`, audience.id, 'custom_audience', 'custom_audience', 'numeric');
    put(`custom conversion ${name}`, conversion.id, 'custom_conversion', 'custom_audience', 'numeric');
    put(`page ${name}`, page.id, 'page', 'page', 'numeric');
    put(`post ${name}`, post.id, 'post', 'post', 'numeric');
    put(`comment ${name}`, commentExternalId(comment), 'comment', 'comment', 'comment');
    put(`api client ${name}`, client.id, 'api_client', 'api_client', 'numeric');
    posts[name] = post.id;
    comments[name] = comment.id;
    pages[name] = page;
  }

  // Comments: each principal's on each organization's page post, the page's own, two hidden ones and a reply under
  // a hidden one; a review (by the loner) to delete comments on.
  const commentPosts = {} as World['commentPosts'];
  const ownComments = { A: {}, B: {} } as World['ownComments'];
  const hideableComments: WorldObject[] = [];
  const pageComments: WorldObject[] = [];
  const commentObject = (label: string, id: string, comment: CommentMeta): WorldObject => ({
    label,
    id,
    kind: 'comment',
    type: 'comment',
    shape: 'comment',
    comment,
  });
  for (const name of ['A', 'B'] as const) {
    const page = pages[name];
    const post = await build.post(page);
    const [review] = await server.deps.db.transaction((trx) =>
      insertObjects<PostRecord>(trx, 'post', postsTable, [
        {
          organizationId: page.organizationId,
          pageId: page.id,
          kind: 'review',
          authorUserId: principals.loner.id,
          authorPageId: null,
          message: 'Five stars',
          attachment: null,
          title: null,
          rating: 5,
          eventStartTime: null,
          targeting: null,
        },
      ]),
    );
    commentPosts[name] = { post, review: review! };
    for (const author of PRINCIPALS) {
      const message = `Said by ${author}`;
      const comment = await build.comment(post, { authorUserId: principals[author].id, authorPageId: null, message });
      const role = rolesIn[name][author];
      const object = commentObject(`comment by ${author} on post ${name}`, commentExternalId(comment), {
        author,
        hidden: false,
        hideable: role !== 'owner' && role !== 'admin',
        message,
      });
      ownComments[name][author] = object;
      if (object.comment!.hideable) hideableComments.push(object);
    }
    const byPage = await build.comment(post, { message: 'Said by the page' });
    const pageComment = commentObject(`the page's comment on post ${name}`, commentExternalId(byPage), {
      author: 'page',
      hidden: false,
      hideable: false,
      message: 'Said by the page',
    });
    pageComments.push(pageComment);
    objects.push(pageComment);
  }
  // Hidden in A, by an advertiser, tagging the loner: seen by A's moderators and above, its author and the loner.
  const hiddenA = await build.comment(commentPosts.A.post, {
    authorUserId: principals.advertiserA.id,
    authorPageId: null,
    isHidden: true,
    message: 'Hidden, for loner',
    messageTags: [{ id: principals.loner.id, name: 'loner', type: 'user', offset: 12, length: 5 }],
  });
  // Hidden in B, by a member: seen by B's owner, the bridge (a moderator in B) and its author.
  const hiddenB = await build.comment(commentPosts.B.post, { authorUserId: principals.memberB.id, authorPageId: null, isHidden: true, message: 'Hidden in B' });
  // A visible reply under the hidden comment of A: read only by who reads its parent (not even by its author).
  const reply = await build.comment(commentPosts.A.post, { authorUserId: principals.memberB.id, authorPageId: null, parentId: hiddenA.id, message: 'A reply' });
  for (const object of [
    commentObject('a hidden comment in A', commentExternalId(hiddenA), {
      author: 'advertiserA',
      hidden: true,
      hideable: true,
      message: `Hidden, for @[${principals.loner.id}]`,
    }),
    commentObject('a hidden comment in B', commentExternalId(hiddenB), { author: 'memberB', hidden: true, hideable: true, message: 'Hidden in B' }),
    commentObject('a reply under the hidden comment in A', commentExternalId(reply), { author: 'memberB', hidden: false, hideable: true, message: 'A reply' }),
  ]) {
    hideableComments.push(object);
    objects.push(object);
  }
  for (const name of PRINCIPALS) put(`user ${name}`, principals[name].id, 'user', 'user', 'uuid');
  objects.push(...memberships);
  // Ids that name nothing (or nothing of that shape's kind).
  put('a missing numeric id', '999999999999', 'missing', 'campaign', 'numeric');
  put('a missing UUID', randomUUID(), 'missing', 'user', 'uuid');
  put('a missing comment', `${posts.A}_999999999999`, 'missing', 'comment', 'comment');
  put('comment A under post B', `${posts.B}_${comments.A}`, 'missing', 'comment', 'comment');
  put('the internal id of comment A', comments.A!, 'missing', 'comment', 'numeric');

  const byLabel = Object.fromEntries(objects.map((o) => [o.label, o]));
  const uuidObjects = objects.filter((o) => o.shape === 'uuid');
  const spellings: WorldObject[] = [
    ...uuidObjects.filter((o) => o.kind !== 'missing').map((o) => ({ ...o, label: `${o.label}, id in upper case`, id: o.id.toUpperCase() })),
    ...objects.filter((o) => o.kind === 'ad_account').map((o) => ({ ...o, label: `${o.label} as act_<id>`, id: `act_${o.id}`, shape: 'act' as Shape })),
  ];
  return {
    orgA: a.id,
    orgB: b.id,
    ads: adWorld,
    principals,
    objects,
    uuidObjects,
    spellings,
    byLabel,
    commentPosts,
    ownComments,
    hideableComments,
    pageComments,
  };
}

// -- The cases ----------------------------------------------------------------------------------------

/*
 * (action, resource type) pairs that an operation can perform today, and so the property covers:
 *   read   on every type and on `*`: the typed query (user, organization, adAccount, campaign, adSet, ad,
 *          page, post, comment) or node(id:) for the types without one (organization_member, api_client,
 *          custom_audience and its custom conversions); a read succeeds when the object comes back as that type;
 *   update on user (updateUser) and organization_member (changeOrganizationMemberRole, to the same role), and on `*`
 *          naming a user or a membership;
 *   delete on organization_member (removeOrganizationMember, of a fresh membership), and on `*` naming one;
 *   create on organization_member in an organization (addOrganizationMember of a fresh user; the check names
 *          organization_id, not resource_id);
 *   ad objects (issue 9): create ad_set in an organization (createAdSet with a valid input, organization_id),
 *          update ad_set, campaign and ad (updateAdSet, updateCampaign, updateAd renaming the object named by
 *          resource_id), delete ad_set (deleteAdSet of a fresh ad set);
 *   comments (issue 10), each on GraphQL and on /v24.0: read (above, hidden comments and a reply under one among the
 *          objects; also GET /<comment id>); update comment: editComment / POST /<comment id> {message} of the
 *          principal's own comment (the same message again) and of the page's own comments, setCommentHidden /
 *          POST /<comment id> {is_hidden} of a hideable comment by anyone else (to the state it is in, so the world
 *          stays as it is); delete comment: deleteComment / DELETE /<comment id> of a fresh comment (the principal's,
 *          another person's or the page's; hidden or not; on a page post or a review); create comment in an
 *          organization: publishComment / POST /<post id>/comments on its page post (the check names organization_id).
 * Every other pair (create/update/delete of organizations, API clients, pages and posts; creating or deleting
 * users) has no operation the property can use yet: the API client issue adds some, and this list grows.
 */
type Case =
  | { op: 'read'; type: ResourceType | '*'; target: WorldObject }
  | { op: 'update'; type: 'user' | 'organization_member' | '*'; target: WorldObject }
  | { op: 'delete'; type: 'organization_member' | '*'; target: WorldObject | { fresh: 'A' | 'B'; role: Role } }
  | { op: 'create'; org: 'A' | 'B' | 'missing'; role: Role; upperCase?: boolean }
  | { op: 'createAdSet'; org: 'A' | 'B' }
  | { op: 'updateAdObject'; target: WorldObject }
  | { op: 'deleteAdSet'; org: 'A' | 'B' }
  /** A hideable comment (setCommentHidden; editComment when the principal wrote it) or the page's own (editComment). */
  | { op: 'updateComment'; target: WorldObject }
  /** The principal's own comment on the organization's page post (editComment). */
  | { op: 'updateOwnComment'; org: 'A' | 'B' }
  | { op: 'deleteComment'; org: 'A' | 'B'; on: 'post' | 'review'; author: PrincipalName | 'page' | 'self'; hidden: boolean; via: Surface }
  | { op: 'createComment'; org: 'A' | 'B' };

/** Where a one-shot operation (a delete) is performed. */
type Surface = 'graphql' | 'rest';

const roleArb = fc.constantFrom<Role>('owner', 'admin', 'advertiser', 'moderator', 'auditor', 'member');

/** Comment writes over the world's comments (reads of comments are among the objects). */
function commentCaseArb(w: World): fc.Arbitrary<Case> {
  const org = fc.constantFrom('A' as const, 'B' as const);
  const del = fc
    .record({
      org,
      on: fc.constantFrom('post' as const, 'review' as const),
      author: fc.oneof(
        { arbitrary: fc.constant<'self'>('self'), weight: 2 },
        { arbitrary: fc.constant<'page'>('page'), weight: 1 },
        { arbitrary: fc.constantFrom(...PRINCIPALS), weight: 2 },
      ),
      hidden: fc.boolean(),
      via: fc.constantFrom<Surface>('graphql', 'rest'),
    })
    .map((d): Case => ({ op: 'deleteComment', ...d }));
  return fc.oneof(
    { arbitrary: fc.constantFrom(...w.hideableComments, ...w.pageComments).map((target): Case => ({ op: 'updateComment', target })), weight: 3 },
    { arbitrary: org.map((o): Case => ({ op: 'updateOwnComment', org: o })), weight: 1 },
    { arbitrary: del, weight: 3 },
    { arbitrary: org.map((o): Case => ({ op: 'createComment', org: o })), weight: 1 },
  );
}

function caseArb(objects: WorldObject[], uuidObjects: WorldObject[], commentWrites?: fc.Arbitrary<Case>): fc.Arbitrary<Case> {
  const read = fc
    .record({
      target: fc.constantFrom(...objects),
      choice: fc.oneof(
        { arbitrary: fc.constant<'own'>('own'), weight: 4 },
        { arbitrary: fc.constant<'*'>('*'), weight: 1 },
        { arbitrary: fc.constantFrom(...ALL_TYPES), weight: 2 },
      ),
    })
    .map(({ target, choice }): Case => ({ op: 'read', type: choice === 'own' ? target.type : choice, target }));
  const update = fc
    .record({ target: fc.constantFrom(...uuidObjects), type: fc.constantFrom('user' as const, 'organization_member' as const, '*' as const) })
    // `*` only where an update exists for the object's own type (users, memberships); elsewhere ask about users.
    .map(({ target, type }): Case => ({
      op: 'update',
      type: type === '*' && target.kind !== 'user' && target.kind !== 'organization_member' ? 'user' : type,
      target,
    }));
  const del = fc.oneof(
    {
      arbitrary: fc
        .record({ fresh: fc.constantFrom('A' as const, 'B' as const), role: roleArb, star: fc.boolean() })
        .map(({ fresh, role, star }): Case => ({ op: 'delete', type: star ? '*' : 'organization_member', target: { fresh, role } })),
      weight: 4,
    },
    // Not memberships: nothing to delete, both must say no.
    {
      arbitrary: fc
        .constantFrom(...uuidObjects.filter((o) => o.kind !== 'organization_member'))
        .map((target): Case => ({ op: 'delete', type: 'organization_member', target })),
      weight: 1,
    },
  );
  // (An organization that does not exist has its own test below.)
  const create = fc.record({ org: fc.constantFrom('A' as const, 'B' as const), role: roleArb }).map(({ org, role }): Case => ({ op: 'create', org, role }));
  const org = fc.constantFrom('A' as const, 'B' as const);
  const adObjects = objects.filter((o) => ['ad_set', 'campaign', 'ad'].includes(o.kind) || o.label === 'a missing numeric id');
  const adWrites = fc.oneof(
    org.map((o): Case => ({ op: 'createAdSet', org: o })),
    fc.constantFrom(...adObjects).map((target): Case => ({ op: 'updateAdObject', target })),
    org.map((o): Case => ({ op: 'deleteAdSet', org: o })),
  );
  return fc.oneof(
    { arbitrary: read, weight: 6 },
    { arbitrary: update, weight: 2 },
    { arbitrary: del, weight: 1 },
    { arbitrary: create, weight: 1 },
    { arbitrary: adWrites, weight: 2 },
    ...(commentWrites ? [{ arbitrary: commentWrites, weight: 2 }] : []),
  );
}

/** A case made concrete: the check to ask and the operation that performs it. */
interface Prepared {
  description: string;
  check: Check;
  perform(token: string): Promise<boolean>;
  /** A finer kind for the tally than `<action> <resource type>` (which comment operation, on what). */
  variant?: string;
}

async function readAs(type: ResourceType | '*', target: WorldObject, token: string): Promise<boolean> {
  const typed = type === '*' ? undefined : TYPED_QUERY[type];
  if (typed && typed.shapes.includes(target.shape)) {
    const { body } = await server.graphql(`query ($id: ID!) { ${typed.field}(id: $id) { id } }`, { id: target.id }, token);
    const outcome = succeeded(body, typed.field);
    // Comments are read on /v24.0 too: GET /<post id>_<comment id>.
    if (type !== 'comment') return outcome;
    const response = await graph().get(encodeURIComponent(target.id), token, { fields: 'id' });
    return agreed(
      `read ${target.label}`,
      outcome,
      restSucceeded(response, `GET /${target.id}`, (body) => body.id === target.id),
    );
  }
  const { body } = await server.graphql('query ($id: ID!) { node(id: $id) { __typename id } }', { id: target.id }, token);
  return succeeded(body, 'node', (node) => node != null && (type === '*' || TYPENAMES[type].includes(node.__typename)));
}

async function updateUser(id: string, token: string): Promise<boolean> {
  const { body } = await server.graphql(
    'mutation ($input: UpdateUserInput!) { updateUser(input: $input) { id } }',
    { input: { id, name: `Renamed ${++freshCounter}` } },
    token,
  );
  return succeeded(body, 'updateUser');
}

async function changeRole(target: WorldObject, token: string): Promise<boolean> {
  const { body } = await server.graphql(
    'mutation ($id: ID!, $role: OrganizationRole!) { changeOrganizationMemberRole(id: $id, role: $role) { id role } }',
    // The same role again: the world stays as it is for the other runs.
    { id: target.id, role: (target.role ?? 'member').toUpperCase() },
    token,
  );
  return succeeded(body, 'changeOrganizationMemberRole');
}

async function removeMember(id: string, token: string): Promise<boolean> {
  const { body } = await server.graphql('mutation ($id: ID!) { removeOrganizationMember(id: $id) }', { id }, token);
  return succeeded(body, 'removeOrganizationMember', (value) => value === true);
}

const graph = () => graphClient(server);

/**
 * Did a /v24.0 call succeed? Error 200 (HTTP 403) and the unknown-object error (100, subcode 33) are "no", as
 * FORBIDDEN and NOT_FOUND are on GraphQL; any other answer is a test failure.
 */
function restSucceeded(response: GraphHttpResponse, what: string, accept: (body: any) => boolean): boolean {
  const error = response.body?.error;
  if (response.status === 200 && accept(response.body)) return true;
  if (response.status === 403 && error?.code === 200) return false;
  if (response.status === 400 && error?.code === 100 && error?.error_subcode === 33) return false;
  throw new Error(`unexpected answer from ${what}: ${response.status} ${response.text}`);
}

/** One operation performed on both surfaces: they must agree. */
function agreed(what: string, viaGraphQL: boolean, viaRest: boolean): boolean {
  if (viaGraphQL !== viaRest) {
    throw new Error(`${what}: GraphQL ${viaGraphQL ? 'succeeded' : 'refused'}, /v24.0 ${viaRest ? 'succeeded' : 'refused'}`);
  }
  return viaGraphQL;
}

const SUCCESS = (body: any) => body?.success === true;

/** editComment and POST /<comment id> {message}: the same message again (mentions included). */
async function editCommentBoth(target: WorldObject, token: string): Promise<boolean> {
  const message = target.comment!.message;
  const { body } = await server.graphql(
    'mutation ($id: ID!, $input: CommentContentInput!) { editComment(id: $id, input: $input) { id message } }',
    { id: target.id, input: { message } },
    token,
  );
  const viaGraphQL = succeeded(body, 'editComment');
  const response = await graph().call('POST', `/v24.0/${target.id}`, { token, form: { message } });
  return agreed(`edit ${target.label}`, viaGraphQL, restSucceeded(response, `POST /${target.id} message`, SUCCESS));
}

/** setCommentHidden and POST /<comment id> {is_hidden}: to the state the comment is in. */
async function hideCommentBoth(target: WorldObject, token: string): Promise<boolean> {
  const hidden = target.comment!.hidden;
  const { body } = await server.graphql(
    'mutation ($id: ID!, $hidden: Boolean!) { setCommentHidden(id: $id, hidden: $hidden) { id isHidden } }',
    { id: target.id, hidden },
    token,
  );
  const viaGraphQL = succeeded(body, 'setCommentHidden', (comment) => comment?.isHidden === hidden);
  const response = await graph().call('POST', `/v24.0/${target.id}`, { token, form: { is_hidden: hidden } });
  return agreed(`set is_hidden of ${target.label}`, viaGraphQL, restSucceeded(response, `POST /${target.id} is_hidden`, SUCCESS));
}

/** A valid ad set for the organization's campaign: only permission can make it fail. */
const adSetInput = (org: 'A' | 'B') => ({
  name: `Ad set ${++freshCounter}`,
  campaignId: world.ads[org].campaign.id,
  billingEvent: 'IMPRESSIONS',
  dailyBudget: '100000',
  targeting: { geoLocations: { countries: ['US'] } },
});

const UPDATE_MUTATION: Record<string, { field: string; input: string }> = {
  ad_set: { field: 'updateAdSet', input: 'UpdateAdSetInput' },
  campaign: { field: 'updateCampaign', input: 'UpdateCampaignInput' },
  ad: { field: 'updateAd', input: 'UpdateAdInput' },
};

async function prepare(c: Case, principal: PrincipalName): Promise<Prepared> {
  switch (c.op) {
    case 'updateComment': {
      const { target } = c;
      const own = target.comment!.author === principal;
      const edit = own || target.comment!.author === 'page';
      return {
        description: `update comment ${target.label} (${target.id}) by ${edit ? 'editing' : 'setting is_hidden'}`,
        variant: own ? 'edit own comment' : edit ? "edit the page's comment" : 'hide comment',
        check: { action: 'update', object: { resource_type: 'comment', resource_id: target.id } },
        // The page's own comments cannot be hidden (rule 4): the page edits them.
        perform: (token) => (edit ? editCommentBoth(target, token) : hideCommentBoth(target, token)),
      };
    }
    case 'updateOwnComment': {
      const target = world.ownComments[c.org][principal];
      return {
        description: `update (edit) its own comment ${target.label} (${target.id})`,
        variant: 'edit own comment',
        check: { action: 'update', object: { resource_type: 'comment', resource_id: target.id } },
        perform: (token) => editCommentBoth(target, token),
      };
    }
    case 'deleteComment': {
      const author = c.author === 'self' ? principal : c.author;
      const { post, review } = world.commentPosts[c.org];
      const fresh = await worldBuilder(server.deps).comment(c.on === 'review' ? review : post, {
        ...(author === 'page' ? {} : { authorUserId: world.principals[author].id, authorPageId: null }),
        isHidden: c.hidden,
        message: `To delete ${++freshCounter}`,
      });
      const id = commentExternalId(fresh);
      return {
        description: `delete a fresh ${c.hidden ? 'hidden ' : ''}comment by ${author} on the ${c.on} of ${c.org} (${id}) via ${c.via}`,
        variant: `delete ${author === principal ? 'own' : author === 'page' ? "the page's" : "another's"} comment on a ${c.on}`,
        check: { action: 'delete', object: { resource_type: 'comment', resource_id: id } },
        perform: async (token) => {
          if (c.via === 'graphql') {
            const { body } = await server.graphql('mutation ($id: ID!) { deleteComment(id: $id) }', { id }, token);
            return succeeded(body, 'deleteComment', (value) => value === true);
          }
          return restSucceeded(await graph().call('DELETE', `/v24.0/${id}`, { token }), `DELETE /${id}`, SUCCESS);
        },
      };
    }
    case 'createComment': {
      const orgId = c.org === 'A' ? world.orgA : world.orgB;
      const { post } = world.commentPosts[c.org];
      return {
        description: `create comment in ${c.org} (on its page post ${post.id})`,
        check: { action: 'create', object: { resource_type: 'comment', organization_id: orgId } },
        perform: async (token) => {
          const message = `Hello ${++freshCounter}`;
          const { body } = await server.graphql(
            'mutation ($o: ID!, $input: CommentContentInput!) { publishComment(objectId: $o, input: $input) { id } }',
            { o: post.id, input: { message } },
            token,
          );
          const viaGraphQL = succeeded(body, 'publishComment');
          const response = await graph().call('POST', `/v24.0/${post.id}/comments`, { token, form: { message } });
          return agreed(
            `comment on post ${post.id}`,
            viaGraphQL,
            restSucceeded(response, `POST /${post.id}/comments`, (b) => typeof b?.id === 'string'),
          );
        },
      };
    }
    case 'createAdSet': {
      const orgId = c.org === 'A' ? world.orgA : world.orgB;
      return {
        description: `create ad_set in ${c.org}`,
        check: { action: 'create', object: { resource_type: 'ad_set', organization_id: orgId } },
        perform: async (token) => {
          const { body } = await server.graphql(
            'mutation ($a: ID!, $input: CreateAdSetInput!) { createAdSet(accountId: $a, input: $input) { id } }',
            { a: world.ads[c.org].account.id, input: adSetInput(c.org) },
            token,
          );
          return succeeded(body, 'createAdSet');
        },
      };
    }
    case 'updateAdObject': {
      const { target } = c;
      const mutation = UPDATE_MUTATION[target.type]!;
      return {
        description: `update ${target.type} ${target.label} (${target.id})`,
        check: { action: 'update', object: { resource_type: target.type, resource_id: target.id } },
        perform: async (token) => {
          const { body } = await server.graphql(
            `mutation ($id: ID!, $input: ${mutation.input}!) { ${mutation.field}(id: $id, input: $input) { id } }`,
            { id: target.id, input: { name: `Renamed ${++freshCounter}` } },
            token,
          );
          return succeeded(body, mutation.field);
        },
      };
    }
    case 'deleteAdSet': {
      const [fresh] = await worldBuilder(server.deps).adSets(world.ads[c.org].campaign, 1);
      return {
        description: `delete a fresh ad_set in ${c.org} (${fresh!.id})`,
        check: { action: 'delete', object: { resource_type: 'ad_set', resource_id: fresh!.id } },
        perform: async (token) => {
          const { body } = await server.graphql('mutation ($id: ID!) { deleteAdSet(id: $id) }', { id: fresh!.id }, token);
          return succeeded(body, 'deleteAdSet', (value) => value === true);
        },
      };
    }
    case 'read':
      return {
        description: `read ${c.type} ${c.target.label} (${c.target.id})`,
        check: { action: 'read', object: { resource_type: c.type, resource_id: c.target.id } },
        perform: (token) => readAs(c.type, c.target, token),
      };
    case 'update': {
      const { type, target } = c;
      return {
        description: `update ${type} ${target.label} (${target.id})`,
        check: { action: 'update', object: { resource_type: type, resource_id: target.id } },
        perform: (token) => {
          const asUser = type === 'user' || (type === '*' && target.kind === 'user');
          return asUser ? updateUser(target.id, token) : changeRole(target, token);
        },
      };
    }
    case 'delete': {
      let target: WorldObject;
      if ('fresh' in c.target) {
        const orgId = c.target.fresh === 'A' ? world.orgA : world.orgB;
        const { membership } = await freshUser(orgId, c.target.role);
        target = {
          label: `a fresh ${c.target.role} membership in ${c.target.fresh}`,
          id: membership!.id,
          kind: 'organization_member',
          type: 'organization_member',
          shape: 'uuid',
          role: c.target.role,
        };
      } else {
        target = c.target;
      }
      return {
        description: `delete ${c.type} ${target.label} (${target.id})`,
        check: { action: 'delete', object: { resource_type: c.type, resource_id: target.id } },
        perform: (token) => removeMember(target.id, token),
      };
    }
    case 'create': {
      const id = c.org === 'A' ? world.orgA : c.org === 'B' ? world.orgB : randomUUID();
      const organizationId = c.upperCase ? id.toUpperCase() : id;
      const { user } = await freshUser();
      return {
        description: `create organization_member in ${c.org} (${organizationId}) as ${c.role}`,
        check: { action: 'create', object: { resource_type: 'organization_member', organization_id: organizationId } },
        perform: async (token) => {
          const { body } = await server.graphql(
            'mutation ($input: AddOrganizationMemberInput!) { addOrganizationMember(input: $input) { id role } }',
            { input: { organizationId, email: user.email, role: c.role.toUpperCase() } },
            token,
          );
          return succeeded(body, 'addOrganizationMember');
        },
      };
    }
  }
}

interface Tally {
  cases: number;
  allowed: number;
  denied: number;
  byOp: Record<string, number>;
  /** `<action> <resource type> <allowed|denied>`: which outcomes each kind of check reached. */
  outcomes: Set<string>;
  principals: Set<string>;
}
const newTally = (): Tally => ({ cases: 0, allowed: 0, denied: 0, byOp: {}, outcomes: new Set(), principals: new Set() });

/**
 * One run: a principal and a few cases. All checks go in one request per surface (at most 10 name a
 * resource_id), then every operation is performed; each answer must equal the operation's outcome.
 */
async function runCases(principal: PrincipalName, cases: Case[], tally: Tally): Promise<void> {
  const { token } = world.principals[principal];
  const prepared = [];
  for (const c of cases) prepared.push(await prepare(c, principal));
  const checks = Object.fromEntries(prepared.map((p, i) => [`c${i}`, p.check]));
  const answers = await askBoth(token, checks);
  for (const [i, p] of prepared.entries()) {
    const answer = answers[`c${i}`];
    const outcome = await p.perform(token);
    if (answer !== outcome) {
      throw new Error(`${principal}: ${p.description}: authcheck says ${answer}, the operation ${outcome ? 'succeeded' : 'did not succeed'}`);
    }
    tally.cases++;
    if (outcome) tally.allowed++;
    else tally.denied++;
    tally.byOp[p.check.action] = (tally.byOp[p.check.action] ?? 0) + 1;
    tally.outcomes.add(`${p.check.action} ${p.check.object.resource_type} ${outcome ? 'allowed' : 'denied'}`);
    if (p.variant) tally.outcomes.add(`${p.variant} ${outcome ? 'allowed' : 'denied'}`);
    tally.principals.add(principal);
  }
}

const SEED = Number(process.env.AUTHCHECK_SEED ?? 20_260_603);
const RUNS = 250;

// -- The tests ----------------------------------------------------------------------------------------

describe('authcheck', () => {
  beforeAll(async () => {
    server = await startTestServer();
    world = await buildWorld();
  });
  afterAll(() => server?.close());

  const token = (name: PrincipalName) => world.principals[name].token;

  describe('the property: an answer is true exactly when the operation succeeds', () => {
    it('holds over generated principals, actions, resource types and objects, on both surfaces', async () => {
      const tally = newTally();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PRINCIPALS),
          fc.array(caseArb(world.objects, world.uuidObjects, commentCaseArb(world)), { minLength: 2, maxLength: 6 }),
          (principal, cases) => runCases(principal, cases, tally),
        ),
        { numRuns: RUNS, seed: SEED },
      );
      // Several hundred cases, with both answers and every kind of operation well represented.
      expect(tally.cases).toBeGreaterThanOrEqual(2 * RUNS);
      expect(tally.allowed).toBeGreaterThan(tally.cases / 10);
      expect(tally.denied).toBeGreaterThan(tally.cases / 10);
      for (const action of ['read', 'update', 'delete', 'create']) expect(tally.byOp[action] ?? 0).toBeGreaterThan(10);
      // The ad set writes were exercised both ways.
      for (const kind of ['create ad_set', 'update ad_set', 'delete ad_set', 'update campaign', 'update ad']) {
        for (const outcome of ['allowed', 'denied']) expect([...tally.outcomes], `${kind} ${outcome}`).toContain(`${kind} ${outcome}`);
      }
      // So were the comment actions (every signed-in person may comment: creating one is never denied to a user).
      for (const kind of ['read comment', 'update comment', 'delete comment']) {
        for (const outcome of ['allowed', 'denied']) expect([...tally.outcomes], `${kind} ${outcome}`).toContain(`${kind} ${outcome}`);
      }
      expect([...tally.outcomes]).toContain('create comment allowed');
      expect([...tally.principals].sort()).toEqual([...PRINCIPALS].sort());
    }, 300_000);

    it('holds for every principal on every object it reads, exhaustively', async () => {
      // Not sampled: each principal asks about each object as its own type (10 at a time) and reads it.
      for (const principal of PRINCIPALS) {
        for (let i = 0; i < world.objects.length; i += 10) {
          const cases = world.objects.slice(i, i + 10).map((target): Case => ({ op: 'read', type: target.type, target }));
          await runCases(principal, cases, newTally());
        }
      }
    }, 300_000);

    it.each([
      ['upper-case UUIDs', (o: WorldObject) => o.shape === 'uuid'],
      ['act_<id> for ad accounts', (o: WorldObject) => o.id.startsWith('act_')],
    ])(
      'holds for other spellings of the same ids: %s',
      async (_spelling, which) => {
        // The operations take these spellings as ids (isUuid is case-insensitive; adAccount takes act_<id>, as /v24.0 does).
        const spellings = world.spellings.filter(which);
        const reads = fc.constantFrom(...spellings).map((target): Case => ({ op: 'read', type: target.type, target }));
        const writable = spellings.filter((o) => o.kind === 'user' || o.kind === 'organization_member');
        const updates =
          writable.length > 0
            ? fc.constantFrom(...writable).map((target): Case => ({ op: 'update', type: target.kind as 'user' | 'organization_member', target }))
            : reads;
        // Upper case: organization_id too (addOrganizationMember takes the organization's id in upper case as well).
        const creates =
          writable.length > 0
            ? fc
                .record({ org: fc.constantFrom('A' as const, 'B' as const), role: roleArb })
                .map(({ org, role }): Case => ({ op: 'create', org, role, upperCase: true }))
            : reads;
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...PRINCIPALS), fc.array(fc.oneof(reads, updates, creates), { minLength: 1, maxLength: 4 }), (principal, cases) =>
            runCases(principal, cases, newTally()),
          ),
          { numRuns: 40, seed: SEED },
        );
      },
      120_000,
    );

    it('holds for every principal on every kind of comment action, exhaustively', async () => {
      // Not sampled: each principal reads the hidden comments and the reply under one, updates (edits) its own comments,
      // updates every comment the page may hide and the page's own, and deletes fresh comments of each kind.
      const deletes: Case[] = (['A', 'B'] as const).flatMap((org) =>
        (['post', 'review'] as const).flatMap((on) =>
          (['self', 'page', org === 'A' ? 'memberA' : 'memberB'] as const).map((author, i): Case => ({
            op: 'deleteComment',
            org,
            on,
            author,
            hidden: i === 2 && on === 'post',
            via: i % 2 === 0 ? 'graphql' : 'rest',
          })),
        ),
      );
      const cases: Case[] = [
        ...world.objects.filter((o) => o.kind === 'comment').map((target): Case => ({ op: 'read', type: 'comment', target })),
        { op: 'updateOwnComment', org: 'A' },
        { op: 'updateOwnComment', org: 'B' },
        ...[...world.hideableComments, ...world.pageComments].map((target): Case => ({ op: 'updateComment', target })),
        ...deletes,
      ];
      const tally = newTally();
      for (const principal of PRINCIPALS) {
        for (let i = 0; i < cases.length; i += 10) await runCases(principal, cases.slice(i, i + 10), tally);
      }
      const both = [
        'read comment',
        'update comment',
        'delete comment',
        'hide comment',
        "edit the page's comment",
        "delete another's comment on a post",
        "delete another's comment on a review",
        "delete the page's comment on a post",
        "delete the page's comment on a review",
      ];
      for (const kind of both) {
        for (const outcome of ['allowed', 'denied']) expect([...tally.outcomes], `${kind} ${outcome}`).toContain(`${kind} ${outcome}`);
      }
      // Its author may always edit and delete a comment (the reply under a hidden comment excepted: its author cannot read it).
      for (const kind of ['edit own comment', 'delete own comment on a post', 'delete own comment on a review']) {
        expect([...tally.outcomes], `${kind} allowed`).toContain(`${kind} allowed`);
      }
      expect([...tally.outcomes]).toContain('edit own comment denied');
      expect([...tally.outcomes]).not.toContain('delete own comment on a post denied');
      expect([...tally.outcomes]).not.toContain('delete own comment on a review denied');
    }, 120_000);

    it.each(PRINCIPALS)('holds for %s creating comments in each organization (organization_id): pages are public', async (principal) => {
      // Every signed-in person comments on any page's posts (DECISIONS section 6), members of the page's organization or not.
      const tally = newTally();
      await runCases(
        principal,
        [
          { op: 'createComment', org: 'A' },
          { op: 'createComment', org: 'B' },
        ],
        tally,
      );
      expect(tally.allowed).toBe(2);
    });
  });

  describe('checks without resource_id (DECISIONS section 2)', () => {
    type Row = [rule: string, principal: PrincipalName, action: Action, object: (w: World) => Check['object'], expected: boolean];
    const A = (w: World) => w.orgA;
    const B = (w: World) => w.orgB;

    const rows: Row[] = [
      // organization_id narrows to the objects of one organization; the role there decides.
      ['owner deletes members in its organization', 'ownerA', 'delete', (w) => ({ resource_type: 'organization_member', organization_id: A(w) }), true],
      ['owner creates API clients in its organization', 'ownerA', 'create', (w) => ({ resource_type: 'api_client', organization_id: A(w) }), true],
      ['owner may do nothing in another organization', 'ownerA', 'read', (w) => ({ resource_type: 'organization', organization_id: B(w) }), false],
      ['admin creates campaigns in its organization', 'adminA', 'create', (w) => ({ resource_type: 'campaign', organization_id: A(w) }), true],
      ['admin may not create campaigns in another organization', 'adminA', 'create', (w) => ({ resource_type: 'campaign', organization_id: B(w) }), false],
      ['advertiser creates campaigns', 'advertiserA', 'create', (w) => ({ resource_type: 'campaign', organization_id: A(w) }), true],
      ['advertiser updates ad sets', 'advertiserA', 'update', (w) => ({ resource_type: 'ad_set', organization_id: A(w) }), true],
      ['advertiser deletes ads', 'advertiserA', 'delete', (w) => ({ resource_type: 'ad', organization_id: A(w) }), true],
      ['advertiser reads pages', 'advertiserA', 'read', (w) => ({ resource_type: 'page', organization_id: A(w) }), true],
      ['advertiser reads comments', 'advertiserA', 'read', (w) => ({ resource_type: 'comment', organization_id: A(w) }), true],
      ['advertiser may not update comments', 'advertiserA', 'update', (w) => ({ resource_type: 'comment', organization_id: A(w) }), false],
      ['advertiser may not update pages', 'advertiserA', 'update', (w) => ({ resource_type: 'page', organization_id: A(w) }), false],
      ['advertiser may not create ad accounts', 'advertiserA', 'create', (w) => ({ resource_type: 'ad_account', organization_id: A(w) }), false],
      ['moderator reads pages', 'moderatorA', 'read', (w) => ({ resource_type: 'page', organization_id: A(w) }), true],
      ['moderator reads comments', 'moderatorA', 'read', (w) => ({ resource_type: 'comment', organization_id: A(w) }), true],
      ['moderator updates comments', 'moderatorA', 'update', (w) => ({ resource_type: 'comment', organization_id: A(w) }), true],
      ['moderator deletes comments', 'moderatorA', 'delete', (w) => ({ resource_type: 'comment', organization_id: A(w) }), true],
      ['moderator may not update pages', 'moderatorA', 'update', (w) => ({ resource_type: 'page', organization_id: A(w) }), false],
      ['moderator may not read campaigns', 'moderatorA', 'read', (w) => ({ resource_type: 'campaign', organization_id: A(w) }), false],
      ['auditor reads API clients', 'auditorA', 'read', (w) => ({ resource_type: 'api_client', organization_id: A(w) }), true],
      ['auditor reads ad sets', 'auditorA', 'read', (w) => ({ resource_type: 'ad_set', organization_id: A(w) }), true],
      ['auditor may not update campaigns', 'auditorA', 'update', (w) => ({ resource_type: 'campaign', organization_id: A(w) }), false],
      ['auditor may not delete comments', 'auditorA', 'delete', (w) => ({ resource_type: 'comment', organization_id: A(w) }), false],
      ['member reads the organization', 'memberA', 'read', (w) => ({ resource_type: 'organization', organization_id: A(w) }), true],
      ['member reads the members', 'memberA', 'read', (w) => ({ resource_type: 'organization_member', organization_id: A(w) }), true],
      // Pages are public (DECISIONS section 6): every signed-in person reads them, comments, and writes visitor posts.
      ['member reads pages', 'memberA', 'read', (w) => ({ resource_type: 'page', organization_id: A(w) }), true],
      // Without narrowing (an organization the caller cannot see answers false, as a missing one does).
      ['a user without organizations reads every page', 'loner', 'read', () => ({ resource_type: 'page' }), true],
      ['a user without organizations comments anywhere', 'loner', 'create', () => ({ resource_type: 'comment' }), true],
      ['a user without organizations moderates nothing', 'loner', 'delete', () => ({ resource_type: 'comment' }), false],
      ['a member may not moderate comments', 'memberA', 'update', (w) => ({ resource_type: 'comment', organization_id: A(w) }), false],
      ['member may not add members', 'memberA', 'create', (w) => ({ resource_type: 'organization_member', organization_id: A(w) }), false],
      ['member may not update the organization', 'memberA', 'update', (w) => ({ resource_type: 'organization', organization_id: A(w) }), false],
      [
        'a user of two organizations has each role in its own organization (A)',
        'bridge',
        'update',
        (w) => ({ resource_type: 'comment', organization_id: A(w) }),
        false,
      ],
      [
        'a user of two organizations has each role in its own organization (B)',
        'bridge',
        'update',
        (w) => ({ resource_type: 'comment', organization_id: B(w) }),
        true,
      ],
      ['a user without organizations reads no organization', 'loner', 'read', (w) => ({ resource_type: 'organization', organization_id: A(w) }), false],
      ['an organization that does not exist allows nothing', 'ownerA', 'read', () => ({ resource_type: 'organization', organization_id: randomUUID() }), false],
      [
        'without narrowing, a check is about every object of the type: an organization role is not enough',
        'adminA',
        'read',
        () => ({ resource_type: 'campaign' }),
        false,
      ],

      // any_org: allowed in at least one of the caller's organizations.
      ['any_org: advertiser creates campaigns somewhere', 'advertiserA', 'create', () => ({ resource_type: 'campaign', any_org: true }), true],
      ['any_org: member creates campaigns nowhere', 'memberA', 'create', () => ({ resource_type: 'campaign', any_org: true }), false],
      ['any_org: a moderator role in one of two organizations is enough', 'bridge', 'delete', () => ({ resource_type: 'comment', any_org: true }), true],
      ['any_org: neither organization allows it', 'bridge', 'read', () => ({ resource_type: 'campaign', any_org: true }), false],
      ['any_org: owner of B reads ad accounts somewhere', 'ownerB', 'read', () => ({ resource_type: 'ad_account', any_org: true }), true],
      ['any_org: member reads members somewhere', 'memberA', 'read', () => ({ resource_type: 'organization_member', any_org: true }), true],
      ['any_org: no organization, nothing', 'loner', 'read', () => ({ resource_type: 'organization', any_org: true }), false],
      ['any_org: false is no narrowing', 'adminA', 'read', () => ({ resource_type: 'campaign', any_org: false }), false],

      // owner_id: `me` is the caller; a user may always read and update itself.
      ['me: read itself', 'memberA', 'read', () => ({ resource_type: 'user', owner_id: 'me' }), true],
      ['me: update itself', 'memberA', 'update', () => ({ resource_type: 'user', owner_id: 'me' }), true],
      ['me: not delete itself', 'memberA', 'delete', () => ({ resource_type: 'user', owner_id: 'me' }), false],
      ['me: a user without organizations reads itself', 'loner', 'read', () => ({ resource_type: 'user', owner_id: 'me' }), true],
      ['me: a user without organizations updates itself', 'loner', 'update', () => ({ resource_type: 'user', owner_id: 'me' }), true],
      ['owner_id: a fellow member is readable', 'memberA', 'read', (w) => ({ resource_type: 'user', owner_id: w.principals.adminA.id }), true],
      [
        'owner_id: a fellow member is not writable by a member',
        'memberA',
        'update',
        (w) => ({ resource_type: 'user', owner_id: w.principals.adminA.id }),
        false,
      ],
      [
        'owner_id: an admin updates a member of its organization',
        'adminA',
        'update',
        (w) => ({ resource_type: 'user', owner_id: w.principals.memberA.id }),
        true,
      ],
      [
        'owner_id: a user of another organization is not readable',
        'adminA',
        'read',
        (w) => ({ resource_type: 'user', owner_id: w.principals.ownerB.id }),
        false,
      ],
      ['owner_id: a shared organization is enough to read', 'ownerB', 'read', (w) => ({ resource_type: 'user', owner_id: w.principals.bridge.id }), true],
      // Issue 25: a user's account answers to an owner or admin of every organization the user belongs to.
      [
        'owner_id: not to update a user another organization shares',
        'ownerB',
        'update',
        (w) => ({ resource_type: 'user', owner_id: w.principals.bridge.id }),
        false,
      ],
      ['owner_id: a user that does not exist', 'memberA', 'read', () => ({ resource_type: 'user', owner_id: randomUUID() }), false],
      [
        "owner_id: me does not take away a role's rights",
        'adminA',
        'read',
        (w) => ({ resource_type: 'campaign', organization_id: A(w), owner_id: 'me' }),
        true,
      ],

      // `*`: every resource type.
      ['*: site admin deletes everything', 'siteAdmin', 'delete', () => ({ resource_type: '*' }), true],
      ['*: not everything in the organization for an advertiser', 'advertiserA', 'read', (w) => ({ resource_type: '*', organization_id: A(w) }), false],
      ['*: an auditor changes nothing', 'auditorA', 'update', (w) => ({ resource_type: '*', organization_id: A(w) }), false],
      ['*: an owner has nothing in another organization', 'ownerA', 'read', (w) => ({ resource_type: '*', organization_id: B(w) }), false],
      ['*: without narrowing, an owner of one organization may not do everything everywhere', 'ownerA', 'read', () => ({ resource_type: '*' }), false],
      ['*: any_org for a member is not everything', 'memberA', 'read', () => ({ resource_type: '*', any_org: true }), false],

      // The site-wide site_admin flag allows everything.
      ['site admin creates organizations', 'siteAdmin', 'create', () => ({ resource_type: 'organization' }), true],
      ['site admin deletes ad accounts of any organization', 'siteAdmin', 'delete', (w) => ({ resource_type: 'ad_account', organization_id: A(w) }), true],
      ['site admin deletes users', 'siteAdmin', 'delete', (w) => ({ resource_type: 'user', owner_id: w.principals.memberA.id }), true],
      ['site admin deletes itself', 'siteAdmin', 'delete', () => ({ resource_type: 'user', owner_id: 'me' }), true],
      ['site admin: any_org', 'siteAdmin', 'update', () => ({ resource_type: 'api_client', any_org: true }), true],
    ];

    it.each(rows)('%s', async (_rule, principal, action, object, expected) => {
      expect(await askOne(token(principal), { action, object: object(world) })).toBe(expected);
    });

    it('answers many checks in one request, each under its own label', async () => {
      const checks: Record<string, Check> = Object.fromEntries(rows.map(([, , action, object], i) => [`row ${i}`, { action, object: object(world) }]));
      // All rows asked at once by the owner of A give the same answers as asked one by one.
      const together = await askBoth(token('ownerA'), checks);
      for (const [label, check] of Object.entries(checks)) expect(together[label], label).toBe(await askOne(token('ownerA'), check));
    });
  });

  describe('`*`, users and any_org: users are objects of the organizations they belong to', () => {
    // An owner or admin may do everything in its organization, and `*` means every type: so every type includes
    // the organization's users (whom an admin may read, and update and delete when they belong to no other
    // organization: see the property above on updateUser).
    const rows: Array<[string, PrincipalName, Action, (w: World) => Check['object'], boolean]> = [
      ['*: owner reads everything in its organization', 'ownerA', 'read', (w) => ({ resource_type: '*', organization_id: w.orgA }), true],
      ['*: owner deletes everything in its organization', 'ownerA', 'delete', (w) => ({ resource_type: '*', organization_id: w.orgA }), true],
      ['*: auditor reads everything in its organization', 'auditorA', 'read', (w) => ({ resource_type: '*', organization_id: w.orgA }), true],
      ['*: site admin reads everything in an organization', 'siteAdmin', 'read', (w) => ({ resource_type: '*', organization_id: w.orgB }), true],
      ['*: any_org for an owner', 'ownerA', 'update', () => ({ resource_type: '*', any_org: true }), true],
      ['user: admin updates the users of its organization', 'adminA', 'update', (w) => ({ resource_type: 'user', organization_id: w.orgA }), true],
      ['user: a member reads the users of its organization', 'memberA', 'read', (w) => ({ resource_type: 'user', organization_id: w.orgA }), true],
      ['user: not the users of another organization', 'adminA', 'read', (w) => ({ resource_type: 'user', organization_id: w.orgB }), false],
      ['user: any_org, a member reads fellow members', 'memberA', 'read', () => ({ resource_type: 'user', any_org: true }), true],
      ['user: any_org, a member deletes no one', 'memberA', 'delete', () => ({ resource_type: 'user', any_org: true }), false],
    ];
    it.each(rows)('%s', async (_rule, principal, action, object, expected) => {
      expect(await askOne(token(principal), { action, object: object(world) })).toBe(expected);
    });

    it('agrees with the operations: an admin of A updates the users of A who belong to no other organization', async () => {
      // The class check is about a user of A (and of A alone); a user another organization shares (the bridge) also
      // needs that organization's owner or admin, and each such user's own check says so.
      const principalIds = Object.values(world.principals).map((p) => p.id);
      const usersOfA = (await server.deps
        .db('organization_members')
        .where({ organization_id: world.orgA })
        .whereIn('user_id', principalIds)
        .select('user_id')) as Array<{
        user_id: string;
      }>;
      expect(usersOfA.map(({ user_id }) => user_id)).toContain(world.principals.bridge.id);
      for (const { user_id } of usersOfA) {
        const onlyInA = user_id !== world.principals.bridge.id;
        expect(await updateUser(user_id, token('adminA'))).toBe(onlyInA);
        expect(await askOne(token('adminA'), { action: 'update', object: { resource_type: 'user', owner_id: user_id } })).toBe(onlyInA);
      }
      expect(await askOne(token('adminA'), { action: 'update', object: { resource_type: 'user', organization_id: world.orgA } })).toBe(true);
    });
  });

  describe('checks about objects that do not exist, without resource_id', () => {
    // Like a resource_id naming nothing: the operation cannot succeed, so the answer is false, for site admins too.
    it('create in an organization that does not exist (organization_id): false for everyone, as addOrganizationMember fails', async () => {
      for (const principal of PRINCIPALS) {
        await runCases(principal, [{ op: 'create', org: 'missing', role: 'member' }], newTally());
      }
    });

    it('update a user that does not exist (owner_id): false for everyone, as updateUser fails', async () => {
      const missing = randomUUID();
      for (const principal of PRINCIPALS) {
        const answer = await askOne(token(principal), { action: 'update', object: { resource_type: 'user', owner_id: missing } });
        expect(answer, principal).toBe(await updateUser(missing, token(principal)));
      }
    });
  });

  describe('checks naming a resource_id', () => {
    const rows: Array<[string, PrincipalName, (w: World) => Check, boolean]> = [
      [
        'an invisible object is false, not 404',
        'memberB',
        (w) => ({ action: 'read', object: { resource_type: 'campaign', resource_id: w.byLabel['campaign A']!.id } }),
        false,
      ],
      ['a missing numeric id', 'ownerA', () => ({ action: 'read', object: { resource_type: 'campaign', resource_id: '999999999999' } }), false],
      ['a missing UUID', 'siteAdmin', () => ({ action: 'read', object: { resource_type: 'user', resource_id: randomUUID() } }), false],
      [
        'a missing comment',
        'siteAdmin',
        (w) => ({ action: 'read', object: { resource_type: 'comment', resource_id: w.byLabel['a missing comment']!.id } }),
        false,
      ],
      ['something that is no id at all', 'siteAdmin', () => ({ action: 'read', object: { resource_type: '*', resource_id: 'not-an-id' } }), false],
      [
        'an object of another type',
        'siteAdmin',
        (w) => ({ action: 'read', object: { resource_type: 'campaign', resource_id: w.byLabel['ad account A']!.id } }),
        false,
      ],
      ['`*` names any type', 'auditorA', (w) => ({ action: 'read', object: { resource_type: '*', resource_id: w.byLabel['api client A']!.id } }), true],
      [
        'custom conversions are custom_audience objects',
        'advertiserA',
        (w) => ({ action: 'update', object: { resource_type: 'custom_audience', resource_id: w.byLabel['custom conversion A']!.id } }),
        true,
      ],
      [
        'organization_id matching the object',
        'ownerA',
        (w) => ({ action: 'read', object: { resource_type: 'campaign', resource_id: w.byLabel['campaign A']!.id, organization_id: w.orgA } }),
        true,
      ],
      [
        'organization_id of another organization',
        'siteAdmin',
        (w) => ({ action: 'read', object: { resource_type: 'campaign', resource_id: w.byLabel['campaign A']!.id, organization_id: w.orgB } }),
        false,
      ],
      [
        'owner_id me on itself',
        'memberA',
        (w) => ({ action: 'update', object: { resource_type: 'user', resource_id: w.principals.memberA.id, owner_id: 'me' } }),
        true,
      ],
      [
        'owner_id me on someone else',
        'adminA',
        (w) => ({ action: 'read', object: { resource_type: 'user', resource_id: w.principals.memberA.id, owner_id: 'me' } }),
        false,
      ],
      [
        'owner_id naming the user',
        'adminA',
        (w) => ({ action: 'update', object: { resource_type: 'user', resource_id: w.principals.memberA.id, owner_id: w.principals.memberA.id } }),
        true,
      ],
    ];
    it.each(rows)('%s', async (_rule, principal, check, expected) => {
      expect(await askOne(token(principal), check(world))).toBe(expected);
    });
  });

  describe('validation', () => {
    const restError = (field: string) => ({ message: 'Validation failed.', validations: [expect.objectContaining({ field, detail: expect.any(String) })] });
    /** As the owner of A unless `who` says otherwise (null: no token at all). */
    const gql = async (checks: unknown, who: string | null = world.principals.ownerA.token) =>
      (await server.graphql(AUTHCHECK_QUERY, { checks }, who ?? undefined)).body;
    const expectBadUserInput = (body: GraphQLBody, field?: string) => {
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      if (field !== undefined) expect(body.errors?.[0]?.extensions?.field).toBe(field);
    };
    const many = (count: number, withResourceId: number): Record<string, Check> =>
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `check${i}`,
          {
            action: 'read',
            object: { resource_type: 'campaign', ...(i < withResourceId ? { resource_id: world.byLabel['campaign A']!.id } : { organization_id: world.orgA }) },
          },
        ]),
      );

    it('refuses any_org with organization_id', async () => {
      const check = { action: 'read', object: { resource_type: 'campaign', any_org: true, organization_id: world.orgA } };
      const response = await rest({ checks: { x: check } }, token('ownerA'));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(restError('checks.x.object.any_org'));
      expectBadUserInput(await gql([toGraphQLInput('x', check)]), 'checks[0].object.anyOrg');
    });

    it('takes at most 100 checks', async () => {
      const ok = await rest({ checks: many(100, 0) }, token('ownerA'));
      expect(ok.status).toBe(200);
      expect(Object.values(ok.body)).toEqual(Array(100).fill(true));
      const tooMany = await rest({ checks: many(101, 0) }, token('ownerA'));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toEqual(restError('checks'));
      expectBadUserInput(await gql(Object.entries(many(101, 0)).map(([l, c]) => toGraphQLInput(l, c))), 'checks');
      expect((await gql(Object.entries(many(100, 0)).map(([l, c]) => toGraphQLInput(l, c)))).errors).toBeUndefined();
    });

    it('takes at most 10 checks naming a resource_id', async () => {
      const ok = await rest({ checks: many(20, 10) }, token('ownerA'));
      expect(ok.status).toBe(200);
      expect(Object.values(ok.body)).toEqual(Array(20).fill(true));
      const tooMany = await rest({ checks: many(20, 11) }, token('ownerA'));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toEqual(restError('checks'));
      expectBadUserInput(await gql(Object.entries(many(11, 11)).map(([l, c]) => toGraphQLInput(l, c))), 'checks');
    });

    it.each([
      ['an unknown action', { x: { action: 'publish', object: { resource_type: 'campaign' } } }, 'checks.x.action'],
      ['a missing action', { x: { object: { resource_type: 'campaign' } } }, 'checks.x.action'],
      ['an unknown resource_type', { x: { action: 'read', object: { resource_type: 'workspace' } } }, 'checks.x.object.resource_type'],
      ['a missing resource_type', { x: { action: 'read', object: {} } }, 'checks.x.object.resource_type'],
      ['a missing object', { x: { action: 'read' } }, 'checks.x.object'],
      ['an unknown field of a check', { x: { action: 'read', object: { resource_type: 'campaign' }, subject: 'me' } }, 'checks.x.subject'],
      ['an unknown field of an object', { x: { action: 'read', object: { resource_type: 'campaign', color: 'red' } } }, 'checks.x.object.color'],
      [
        'an organization_id that is no UUID',
        { x: { action: 'read', object: { resource_type: 'campaign', organization_id: '42' } } },
        'checks.x.object.organization_id',
      ],
      [
        'an owner_id that is neither me nor a UUID',
        { x: { action: 'read', object: { resource_type: 'user', owner_id: 'alice' } } },
        'checks.x.object.owner_id',
      ],
      ['an any_org that is no boolean', { x: { action: 'read', object: { resource_type: 'campaign', any_org: 'yes' } } }, 'checks.x.object.any_org'],
      ['a resource_id that is no string', { x: { action: 'read', object: { resource_type: 'campaign', resource_id: 42 } } }, 'checks.x.object.resource_id'],
      ['a check that is no object', { x: 'read' }, 'checks.x'],
      ['checks that are no object', ['read'], 'checks'],
    ])('REST refuses %s with 400 naming the field', async (_case, checks, field) => {
      const response = await rest({ checks }, token('ownerA'));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(restError(field));
    });

    it('REST refuses an unknown top-level field, a missing body and bad JSON', async () => {
      const unknown = await rest({ checks: {}, dry_run: true }, token('ownerA'));
      expect(unknown).toEqual({ status: 400, body: restError('dry_run') });
      const missing = await rest({}, token('ownerA'));
      expect(missing).toEqual({ status: 400, body: restError('checks') });
      const bad = await rest(undefined, token('ownerA'), '{"checks":');
      expect(bad).toEqual({ status: 400, body: { message: 'Request body must be valid JSON.' } });
    });

    it('answers no checks with no answers', async () => {
      expect(await rest({ checks: {} }, token('memberA'))).toEqual({ status: 200, body: {} });
      expect(await gql([], token('memberA'))).toEqual({ data: { authCheck: [] } });
    });

    it.each([
      // Errors name the GraphQL path of the value at fault (checks[<position>]...).
      [
        'an organizationId that is no UUID',
        { label: 'x', action: 'READ', object: { resourceType: 'CAMPAIGN', organizationId: '42' } },
        'checks[0].object.organizationId',
      ],
      [
        'an ownerId that is neither me nor a UUID',
        { label: 'x', action: 'READ', object: { resourceType: 'USER', ownerId: 'alice' } },
        'checks[0].object.ownerId',
      ],
      // GraphQL's own validation: the enums and the input type.
      ['an unknown resource type', { label: 'x', action: 'READ', object: { resourceType: 'WORKSPACE' } }, undefined],
      ['a lower-case resource type', { label: 'x', action: 'READ', object: { resourceType: 'campaign' } }, undefined],
      ['an unknown action', { label: 'x', action: 'PUBLISH', object: { resourceType: 'CAMPAIGN' } }, undefined],
      ['an unknown field', { label: 'x', action: 'READ', object: { resourceType: 'CAMPAIGN', color: 'red' } }, undefined],
      ['a missing resourceType', { label: 'x', action: 'READ', object: {} }, undefined],
    ])('GraphQL refuses %s with BAD_USER_INPUT', async (_case, check, field) => {
      const body = await gql([check]);
      expectBadUserInput(body, field);
      if (field === undefined) expect(body.errors?.[0]?.message).toMatch(/PUBLISH|color|resourceType|WORKSPACE.*AuthResourceType|"campaign".*AuthResourceType/);
    });

    it('GraphQL refuses a label used twice', async () => {
      const check = { label: 'same', action: 'READ', object: { resourceType: 'ORGANIZATION', organizationId: world.orgA } };
      expectBadUserInput(await gql([check, { ...check, action: 'UPDATE' }]), 'checks[1].label');
    });

    it('a resource_id naming nothing is false, never 404, on both surfaces', async () => {
      for (const resource_id of ['999999999999', randomUUID(), 'not-an-id', `${world.byLabel['post A']!.id}_999999999999`]) {
        expect(await askOne(token('siteAdmin'), { action: 'read', object: { resource_type: '*', resource_id } })).toBe(false);
      }
    });

    it('needs a session: 401 on REST, UNAUTHENTICATED on GraphQL', async () => {
      const checks = { x: { action: 'read', object: { resource_type: 'organization', any_org: true } } };
      const signedOut = { message: 'You are signed out or your session has expired. Please sign in again to continue.' };
      expect(await rest({ checks }, undefined)).toEqual({ status: 401, body: signedOut });
      expect(await rest({ checks }, 'not-a-session-token')).toEqual({ status: 401, body: signedOut });
      // The session is checked before the body.
      expect(await rest({ checks: 'nonsense' }, undefined)).toEqual({ status: 401, body: signedOut });
      for (const who of [null, 'not-a-session-token']) {
        const body = await gql([toGraphQLInput('x', checks.x)], who);
        expect(body.data ?? null).toBeNull();
        expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      }
    });
  });
});
