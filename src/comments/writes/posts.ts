import { timeNow, type RequestContext } from '../../context/index.ts';
import { mayAsOrganization } from '../../authz/policy.ts';
import { requireSignedIn } from '../../authz/guards.ts';
import { insertObjects } from '../../db/objects.ts';
import { forbidden, notFound } from '../../errors/index.ts';
import {
  dateTime,
  httpUrl,
  integer,
  jsonObject,
  list,
  missingParam,
  nested,
  oneOf,
  optionalParam,
  paramError,
  requiredParam,
  smallInteger,
  text,
  type Params,
} from '../../graph-api/params.ts';
import { actorOn, findPage, findPost } from '../service.ts';
import { lockRow } from '../../db/locks.ts';
import { emitEvents } from '../../events/outbox.ts';
import { postEvent, reactionEvent } from '../events.ts';
import { randomUUID } from 'node:crypto';
import { postReactions, posts, type PostKind, type PostRecord, type ReactionType } from '../store.ts';

/** The `kind` values a feed write may name; without one the post is a page post or a visitor post. */
export const FEED_KINDS = ['photo', 'video', 'event', 'review'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/** The longest message the platform takes on a post. */
export const MAX_POST_MESSAGE = 63_206;

/** A post's `targeting`: `{locales: [keys]}` restricts who sees it (the platform's feed targeting); other keys are kept. */
function readPostTargeting(value: unknown, name: string): Record<string, unknown> {
  const targeting = jsonObject(value, name);
  const locales = nested(targeting, name, 'locales', list(integer({ min: 1n, max: 100_000n }), { min: 1, max: 50 }));
  return locales ? { ...targeting, locales: locales.map(Number) } : targeting;
}

/**
 * POST /<PAGE_ID>/feed. Who the post is by (README, Decisions):
 * - a principal allowed to `create` posts in the page's organization (owners, admins, site admins, API clients
 *   with pages_manage_engagement) posts as the page: kind `page_post` (or the given kind), from the page;
 * - any other user who can read the page (advertisers, moderators, auditors) writes a visitor post: kind
 *   `visitor_post` (or photo, video, review), from the user; events are the page's own, so a visitor's event is
 *   FORBIDDEN;
 * - a review is always a person's: from the user even when the user manages the page; an API client cannot
 *   write one (FORBIDDEN), nor may a client without the create right post at all;
 * - a page the caller cannot read is NOT_FOUND.
 * Parameters: message (at most 63,206 characters), link (http/https, the attachment), kind, title (events and
 * reviews, at most 255), rating (reviews: 1 to 5, required), start_time (events: required), targeting ({locales}). Photos and videos
 * need a link (the media's URL); a post without a kind needs a message or a link.
 */
export async function createFeedPost(ctx: RequestContext, pageId: string, params: Params): Promise<PostRecord> {
  requireSignedIn(ctx);
  const page = await findPage(ctx, String(pageId));
  if (!page) throw notFound('Page', String(pageId));
  params ??= {};

  const asPage = mayAsOrganization(ctx.viewer, 'create', { type: 'post', organizationId: page.organizationId });
  const user = ctx.viewer.kind === 'user' ? ctx.viewer.userId : null;
  if (!asPage && !user) throw forbidden(`Permissions error: you may not post on page ${page.id}`);
  // What else is allowed depends on the kind, so it is the one parameter read before the remaining checks.
  const kind = optionalParam(params, 'kind', oneOf(FEED_KINDS));
  if (kind === 'review' && !user) throw forbidden('Permissions error: reviews are written by people; an API client cannot write one');
  if (kind === 'event' && !asPage) throw forbidden(`Permissions error: only the page's managers may create events on page ${page.id}`);

  const message = optionalParam(params, 'message', text({ max: MAX_POST_MESSAGE }));
  const url = optionalParam(params, 'link', httpUrl);
  const title = optionalParam(params, 'title', text({ max: 255 }));
  const rating = optionalParam(params, 'rating', smallInteger(1, 5));
  const startTime = optionalParam(params, 'start_time', dateTime);
  const targeting = optionalParam(params, 'targeting', readPostTargeting);
  if (title !== undefined && kind !== 'event' && kind !== 'review') throw paramError('title', 'Param title is only accepted with kind event or review');
  if (rating !== undefined && kind !== 'review') throw paramError('rating', 'Param rating is only accepted with kind review');
  if (startTime !== undefined && kind !== 'event') throw paramError('start_time', 'Param start_time is only accepted with kind event');
  if (kind === 'review') requiredParam(params, 'rating', smallInteger(1, 5));
  if (kind === 'event') {
    requiredParam(params, 'title', text({ max: 255, nonEmpty: true }));
    requiredParam(params, 'start_time', dateTime);
  }
  if ((kind === 'photo' || kind === 'video') && url === undefined) throw missingParam('link');
  if (kind === undefined && (message === undefined || message.trim() === '') && url === undefined) {
    throw paramError('message', 'Missing message or attachment');
  }

  // A review is a person's even when that person manages the page; everything else follows `asPage`.
  const byPage = asPage && kind !== 'review';
  const postKind: PostKind = kind ?? (byPage ? 'page_post' : 'visitor_post');
  const [post] = await ctx.db.transaction(async (trx) => {
    const inserted = await insertObjects<PostRecord>(trx, 'post', posts, [
      {
        organizationId: page.organizationId,
        pageId: page.id,
        kind: postKind,
        authorUserId: byPage ? null : user,
        authorPageId: byPage ? page.id : null,
        message: message ?? null,
        attachment: url === undefined ? null : { url },
        title: title ?? null,
        rating: rating ?? null,
        eventStartTime: startTime ?? null,
        targeting: targeting ?? null,
      },
    ]);
    await emitEvents(ctx, trx, [await postEvent(trx, inserted[0]!)]);
    return inserted;
  });
  ctx.loaders.comments.postById.clear(post!.id).prime(post!.id, post!);
  return post!;
}

/**
 * POST /<post>/reactions with `type` (GraphQL react with a post's id): the caller's one reaction to a post it may
 * read (as the person, or as the page for its API client), replacing the one it had; null takes it back. The
 * post's row is held, so two reactions of one caller cannot both land.
 */
export async function setPostReaction(ctx: RequestContext, postId: string, type: ReactionType | null): Promise<PostRecord> {
  requireSignedIn(ctx);
  const post = await findPost(ctx, String(postId));
  if (!post) throw notFound('Post', String(postId));
  const reactor = actorOn(ctx, post);
  if (!reactor) throw forbidden('Permissions error: reacting as the page needs the pages_manage_engagement permission');
  await ctx.db.transaction(async (trx) => {
    await lockRow(ctx.db, trx, posts.table, post.id);
    const mine = trx(postReactions.table).where({ post_id: post.id, ...('userId' in reactor ? { user_id: reactor.userId } : { page_id: reactor.pageId }) });
    const before = ((await mine.clone().first('type')) as { type: ReactionType } | undefined)?.type ?? null;
    await mine.clone().delete();
    if (type !== null) {
      await trx(postReactions.table).insert(
        postReactions.toRow({
          id: randomUUID(),
          postId: post.id,
          userId: 'userId' in reactor ? reactor.userId : null,
          pageId: 'pageId' in reactor ? reactor.pageId : null,
          type,
          createdTime: timeNow(ctx),
        }),
      );
    }
    const event = await reactionEvent(trx, { post }, reactor, { before, after: type }, timeNow(ctx));
    if (event) await emitEvents(ctx, trx, [event]);
  });
  return post;
}
