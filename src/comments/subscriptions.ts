import type { Resolvers } from '../graphql/__generated__/resolvers-types.ts';
import { lowercaseEnum } from '../graphql/helpers.ts';
import { requireSignedIn } from '../authz/guards.ts';
import { badInput, notFound } from '../errors/index.ts';
import { subscribeFor } from '../events/hub.ts';
import type { PublishedEvent } from '../events/types.ts';
import { findComment, findPage, findPost } from './service.ts';

/** GraphQL `commentEvents`: a page's feed changes (src/comments/events.ts), for whoever may read each. */
export const FEED_ITEMS = ['post', 'photo', 'video', 'comment', 'reaction'] as const;
export const FEED_VERBS = ['add', 'edit', 'edited', 'hide', 'unhide', 'remove'] as const;

const valueOf = (event: PublishedEvent) => event.value as Record<string, string | number | undefined>;
const text = (value: unknown) => (typeof value === 'string' ? value : null);

export const commentSubscriptionResolvers: Resolvers = {
  Subscription: {
    commentEvents: {
      subscribe: async (_, { pageId, postId }, ctx) => {
        requireSignedIn(ctx);
        if ((pageId == null) === (postId == null)) throw badInput(pageId == null ? 'pageId' : 'postId', 'Give pageId or postId: one of the two.');
        let onlyPost: string | undefined;
        let page = pageId;
        if (postId != null) {
          const post = await findPost(ctx, String(postId));
          if (!post) throw notFound('Post', String(postId));
          onlyPost = post.id;
          page = post.pageId;
        }
        const found = await findPage(ctx, String(page));
        if (!found) throw notFound('Page', String(page));
        return subscribeFor(ctx, {
          keys: [`feed:${found.id}`],
          wants: (event) => onlyPost === undefined || valueOf(event).post_id === onlyPost,
        });
      },
      resolve: (event: PublishedEvent) => event,
    },
  },
  FeedItem: lowercaseEnum(FEED_ITEMS),
  FeedVerb: lowercaseEnum(FEED_VERBS),
  CommentEvent: {
    id: (event) => event.id,
    // Enum values as the maps above hold them (lower case); the generated types leave these resolvers untyped.
    item: (event) => valueOf(event).item as never,
    verb: (event) => event.verb as never,
    commentId: (event) => text(valueOf(event).comment_id),
    postId: (event) => String(valueOf(event).post_id),
    parentId: (event) => text(valueOf(event).parent_id),
    reactionType: (event) => (text(valueOf(event).reaction_type)?.toUpperCase() ?? null) as never,
    // Read now, as the subscriber may: a removed comment is gone, a hidden one follows the hidden-comment rule.
    comment: async (event, _, ctx) => {
      const id = text(valueOf(event).comment_id);
      return id && !(valueOf(event).item === 'comment' && event.verb === 'remove') ? findComment(ctx, id) : null;
    },
    post: (event, _, ctx) => findPost(ctx, String(valueOf(event).post_id)),
    time: (event) => new Date(Number(valueOf(event).created_time) * 1000),
  },
};
