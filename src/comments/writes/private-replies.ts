import { randomUUID } from 'node:crypto';
import { timeNow, type RequestContext } from '../../context/index.ts';
import { DomainError, forbidden } from '../../errors/index.ts';
import { requiredParam, text, type Params } from '../../graph-api/params.ts';
import { privateReplyRefusal, PRIVATE_REPLY_DAYS } from '../rules/capabilities.ts';
import { viewsAsPage } from '../service.ts';
import { privateReplies, type PrivateReplyRecord } from '../store.ts';
import { commentNamed, locked } from './comments.ts';

/** The longest private reply, in characters. */
export const PRIVATE_REPLY_MAX = 2000;

/**
 * POST /<comment>/private_replies (GraphQL replyPrivately): the page (a moderator or above, or its API client with
 * pages_manage_engagement) sends the author of a person's top-level comment one private message, within
 * PRIVATE_REPLY_DAYS days of the comment. Checked under the comment's lock, so two moderators cannot both send it.
 * The platform's codes: 10900 when the comment was already replied to, 10903 when it cannot be.
 */
export async function replyPrivately(ctx: RequestContext, commentId: string, params: Params): Promise<PrivateReplyRecord> {
  const found = await commentNamed(ctx, commentId);
  if (!viewsAsPage(ctx, found.comment.organizationId)) throw forbidden('Permissions error: only the page replies privately to comments on it');
  const message = requiredParam(params ?? {}, 'message', text({ max: PRIVATE_REPLY_MAX, nonEmpty: true }));
  const reply = await ctx.db.transaction(async (trx) => {
    const comment = await locked(ctx, trx, found.comment);
    const now = timeNow(ctx);
    const refusal = privateReplyRefusal({
      isReply: comment.parentId !== null,
      byPerson: comment.authorUserId !== null,
      repliedPrivately: Boolean(await trx(privateReplies.table).where({ comment_id: comment.id }).first('id')),
      recent: now.getTime() - comment.createdTime.getTime() < PRIVATE_REPLY_DAYS * 86_400_000,
    });
    if (refusal) {
      const already = refusal.includes('already');
      throw new DomainError('BAD_USER_INPUT', already ? `Activity already replied to: ${refusal}` : `This comment can't be replied to privately: ${refusal}`, {
        field: 'id',
        graph: { code: already ? 10900 : 10903 },
      });
    }
    const record: PrivateReplyRecord = {
      id: `m_${randomUUID().replaceAll('-', '')}`,
      organizationId: comment.organizationId,
      commentId: comment.id,
      pageId: found.post.pageId,
      recipientUserId: comment.authorUserId!,
      // The person behind a page token is kept too: who, of the page's moderators, wrote it.
      sentByUserId: ctx.viewer.kind === 'user' || ctx.viewer.kind === 'page' ? ctx.viewer.userId : null,
      message,
      createdTime: now,
    };
    await trx(privateReplies.table).insert(privateReplies.toRow(record));
    return record;
  });
  ctx.loaders.comments.privateReplyOfComment.clear(reply.commentId).prime(reply.commentId, reply);
  return reply;
}

/** The private reply to a comment, for the page's moderators and the person it went to; null for everyone else. */
export async function privateReplyOf(ctx: RequestContext, comment: { id: string; organizationId: string }): Promise<PrivateReplyRecord | null> {
  const reply = await ctx.loaders.comments.privateReplyOfComment.load(comment.id);
  if (!reply) return null;
  const recipient = ctx.viewer.kind === 'user' && ctx.viewer.userId === reply.recipientUserId;
  return recipient || viewsAsPage(ctx, comment.organizationId) ? reply : null;
}
