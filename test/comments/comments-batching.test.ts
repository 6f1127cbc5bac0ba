import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { countStatements } from '../helpers/database.ts';
import { graphClient, type GraphClient } from '../helpers/graph.ts';
import { worldBuilder } from '../helpers/world.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { createClient } from '../../src/oauth/service.ts';
import { insertComments, insertLikes, type CommentRecord, type MessageTag, type PageRecord, type PostRecord } from '../../src/comments/store.ts';

/**
 * Issue 10, Efficiency: reading a post's 100 comments with their authors (`from`), message tags, like counts,
 * viewer flags (user_likes, can_comment, can_remove, can_hide, can_like) and first replies is a constant number of
 * SQL statements. Counted (test/helpers/database.ts countStatements) for 10 and for 100 comments, on /v24.0
 * (GET /<post>/comments?limit=100&fields=...,comments.limit(1){...}) and on GraphQL (Post.comments(first: 100) with
 * replies(first: 1)), viewed by a moderator of the page's organization, by the page's API client (a page token)
 * and by a plain signed-in person: the hidden-comment filter differs between them (a moderator and the page see
 * everything; the person sees the visible comments and the hidden ones they wrote or are tagged in).
 *
 * The answers are checked against the world as built (every comment, tag, like, flag and first reply), so the
 * counts are of real work. The background runner is off (ASYNC_RUNNER=false): its polling would be counted too.
 */

type Viewer = 'moderator' | 'page' | 'person';
type Actor = { user: string } | { page: string };

/**
 * One row per comment position (i % 10), so 10 comments hold every case once and 100 hold it ten times.
 * `viewer` is the plain person who reads; `writerA` has no role, `writerB` is a member, `admin` an admin of the
 * page's organization (comments by admins cannot be hidden), `moderator` the moderator who reads.
 */
type Person = 'viewer' | 'writerA' | 'writerB' | 'admin' | 'moderator';
interface Row {
  author: Person | 'page';
  tags: Array<Person | 'page'>;
  hidden: boolean;
  likes: Array<Person | 'page'>;
  replies: Array<{ author: Person | 'page'; hidden?: boolean }>;
}
const ROWS: Row[] = [
  { author: 'page', tags: ['viewer', 'page'], hidden: false, likes: ['viewer', 'writerA'], replies: [{ author: 'writerA' }] },
  // Hidden, but the viewer wrote it.
  { author: 'viewer', tags: [], hidden: true, likes: ['writerA'], replies: [{ author: 'page' }] },
  // Hidden, but the viewer is tagged in it.
  { author: 'writerA', tags: ['viewer'], hidden: true, likes: [], replies: [{ author: 'viewer' }] },
  // Hidden from the viewer.
  { author: 'writerB', tags: [], hidden: true, likes: ['viewer', 'moderator'], replies: [{ author: 'writerA' }] },
  { author: 'admin', tags: ['page'], hidden: false, likes: ['page'], replies: [] },
  // Its only reply is hidden from the viewer: no first reply, comment_count 0 for them.
  { author: 'writerA', tags: [], hidden: false, likes: ['viewer'], replies: [{ author: 'writerB', hidden: true }] },
  { author: 'writerB', tags: ['writerA'], hidden: false, likes: [], replies: [{ author: 'viewer' }, { author: 'writerA' }] },
  { author: 'page', tags: [], hidden: false, likes: ['moderator'], replies: [] },
  { author: 'viewer', tags: ['page', 'writerB'], hidden: false, likes: ['viewer', 'writerA', 'writerB'], replies: [] },
  { author: 'moderator', tags: [], hidden: false, likes: [], replies: [{ author: 'page' }, { author: 'moderator', hidden: true }] },
];

interface Built {
  post: PostRecord;
  /** The top-level comments, each with its row and its replies. */
  comments: Array<{ record: CommentRecord; row: Row; replies: CommentRecord[] }>;
}

let server: TestServer;
let graph: GraphClient;
let page: PageRecord;
let people: Record<Person, { id: string; name: string; token: string }>;
let tokens: Record<Viewer, string>;
let posts: Record<10 | 100, Built>;

const actor = (who: Person | 'page'): Actor => (who === 'page' ? { page: page.id } : { user: people[who].id });
const nameOf = (who: Person | 'page') => (who === 'page' ? page.name : people[who].name);

/** A message that mentions `tags` by name, with their tags (offsets in code points; "👋🏾 " is 3 of them). */
function mentioning(tags: Array<Person | 'page'>, i: number): { message: string; messageTags: MessageTag[] } {
  let message = `👋🏾 #${i}`;
  const messageTags: MessageTag[] = [];
  for (const who of tags) {
    message += ' ';
    const name = nameOf(who);
    messageTags.push({
      id: who === 'page' ? page.id : people[who].id,
      name,
      type: who === 'page' ? 'page' : 'user',
      offset: [...message].length,
      length: [...name].length,
    });
    message += name;
  }
  return { message, messageTags };
}

async function buildPost(size: number): Promise<Built> {
  const post = await worldBuilder(server.deps).post(page);
  const base = { organizationId: page.organizationId, postId: post.id, attachment: null, likeCount: 0 };
  const author = (who: Person | 'page') =>
    who === 'page' ? { authorUserId: null, authorPageId: page.id } : { authorUserId: people[who].id, authorPageId: null };
  return server.deps.db.transaction(async (trx) => {
    const rows = Array.from({ length: size }, (_, i) => ROWS[i % ROWS.length]!);
    const top = await insertComments(
      trx,
      rows.map((row, i) => ({
        ...base,
        ...author(row.author),
        ...mentioning(row.tags, i),
        parentId: null,
        isHidden: row.hidden,
      })),
    );
    const comments: Built['comments'] = [];
    for (const [i, record] of top.entries()) {
      const row = rows[i]!;
      const replies =
        row.replies.length === 0
          ? []
          : await insertComments(
              trx,
              row.replies.map((reply, r) => ({
                ...base,
                ...author(reply.author),
                parentId: record.id,
                message: `reply ${r} to #${i}`,
                messageTags: [],
                isHidden: reply.hidden ?? false,
              })),
            );
      comments.push({ record, row, replies });
    }
    await insertLikes(
      trx,
      comments.flatMap(({ record, row }) =>
        row.likes.map((who) => {
          const liker = actor(who);
          return { commentId: record.id, ...('user' in liker ? { userId: liker.user } : { pageId: liker.page }) };
        }),
      ),
    );
    return { post, comments };
  });
}

// -- What each viewer must read ---------------------------------------------------------------------

/** Who the viewer is, as the rows name people (the page token likes as the page). */
const viewerAs: Record<Viewer, Person | 'page'> = { moderator: 'moderator', page: 'page', person: 'viewer' };
const moderates = (viewer: Viewer) => viewer !== 'person';

/** Whether the viewer sees a comment: the page's moderators and the page see all; a person the visible ones, and the hidden ones they wrote or are tagged in. */
const sees = (viewer: Viewer, author: Person | 'page', hidden: boolean, tags: Array<Person | 'page'>) =>
  !hidden || moderates(viewer) || author === viewerAs[viewer] || tags.includes(viewerAs[viewer]);

interface Expected {
  id: string;
  message: string;
  messageTags: MessageTag[];
  /** The author's id when the viewer may see it: pages always; a person only for the page and for that person. */
  from?: string;
  likeCount: number;
  userLikes: boolean;
  canRemove: boolean;
  /** Only for the page's views (undefined: left out on /v24.0, null on GraphQL). */
  canHide?: boolean;
  commentCount: number;
  firstReply?: { id: string; message: string; from?: string };
}

function expected(built: Built, viewer: Viewer): Expected[] {
  const me = viewerAs[viewer];
  const fromFor = (who: Person | 'page') => (who === 'page' ? page.id : moderates(viewer) || who === me ? people[who].id : undefined);
  return built.comments
    .filter(({ row }) => sees(viewer, row.author, row.hidden, row.tags))
    .map(({ record, row, replies }) => {
      const visibleReplies = replies.filter((_, r) => sees(viewer, row.replies[r]!.author, row.replies[r]!.hidden ?? false, []));
      const first = visibleReplies[0];
      const firstAuthor = first ? row.replies[replies.indexOf(first)]!.author : undefined;
      // Rule 4 for a page post: the page's own comments and its admins' cannot be hidden; a person's can.
      const hideable = row.author !== 'page' && row.author !== 'admin';
      return {
        id: `${built.post.id}_${record.id}`,
        message: record.message!,
        messageTags: record.messageTags,
        from: fromFor(row.author),
        likeCount: row.likes.length,
        userLikes: row.likes.includes(me),
        // The author deletes their own; the page (moderators, the page token with pages_read_user_content or, for its
        // own comments, pages_read_engagement) deletes any on a page post.
        canRemove: moderates(viewer) || row.author === me,
        canHide: moderates(viewer) ? hideable : undefined,
        commentCount: visibleReplies.length,
        firstReply: first && { id: `${built.post.id}_${first.id}`, message: first.message!, from: fromFor(firstAuthor!) },
      };
    });
}

// -- The two surfaces ---------------------------------------------------------------------------------

const REST_FIELDS = [
  'id',
  'message',
  'message_tags',
  'from',
  'like_count',
  'comment_count',
  'user_likes',
  'can_comment',
  'can_remove',
  'can_hide',
  'can_like',
  'is_hidden',
  'comments.limit(1){id,message,from,like_count,user_likes}',
].join(',');

async function viaRest(built: Built, viewer: Viewer): Promise<{ read: Expected[]; total: number }> {
  const response = await graph.get(`${built.post.id}/comments`, tokens[viewer], { limit: 100, fields: REST_FIELDS, summary: 'total_count' });
  expect(response.status, response.text).toBe(200);
  const read = (response.body.data as Array<Record<string, any>>).map((c): Expected => {
    // Fields every viewer gets, whatever the comment.
    expect(c.can_comment, c.id).toBe(true);
    expect(c.can_like, c.id).toBe(true);
    expect(c.is_hidden, c.id).toEqual(expect.any(Boolean));
    const reply = c.comments?.data?.[0];
    return {
      id: c.id,
      message: c.message,
      messageTags: c.message_tags ?? [],
      from: c.from?.id,
      likeCount: c.like_count,
      userLikes: c.user_likes,
      canRemove: c.can_remove,
      canHide: c.can_hide,
      commentCount: c.comment_count,
      firstReply: reply && { id: reply.id, message: reply.message, from: reply.from?.id },
    };
  });
  return { read, total: response.body.summary.total_count };
}

const GRAPHQL_QUERY = `query ($post: ID!) {
  post(id: $post) {
    comments(first: 100) {
      totalCount
      nodes {
        id message isHidden likeCount commentCount userLikes canComment canRemove canHide canLike
        messageTags { id name type offset length }
        from { __typename ... on Person { id } ... on Page { id } }
        replies(first: 1) { nodes { id message likeCount userLikes from { __typename ... on Person { id } ... on Page { id } } } }
      }
    }
  }
}`;

async function viaGraphQL(built: Built, viewer: Viewer): Promise<{ read: Expected[]; total: number }> {
  const { body } = await server.graphql(GRAPHQL_QUERY, { post: built.post.id }, tokens[viewer]);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  const connection = body.data!.post.comments;
  const read = (connection.nodes as Array<Record<string, any>>).map((c): Expected => {
    expect([c.canComment, c.canLike], c.id).toEqual([true, true]);
    const reply = c.replies.nodes[0];
    return {
      id: c.id,
      message: c.message,
      messageTags: (c.messageTags as Array<MessageTag>).map((tag) => ({ ...tag, type: tag.type.toLowerCase() as MessageTag['type'] })),
      from: c.from?.id,
      likeCount: c.likeCount,
      userLikes: c.userLikes,
      canRemove: c.canRemove,
      canHide: c.canHide ?? undefined,
      commentCount: c.commentCount,
      firstReply: reply && { id: reply.id, message: reply.message, from: reply.from?.id },
    };
  });
  return { read, total: connection.totalCount };
}

const SURFACES = { rest: viaRest, graphql: viaGraphQL } as const;

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  graph = graphClient(server);
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  page = await world.page(org.id);
  const person = async (role?: 'member' | 'admin' | 'moderator') => {
    const { user, token } = await world.user(role ? { organizationId: org.id, role } : {});
    return { id: user.id, name: user.name || user.username, token };
  };
  people = {
    viewer: await person(),
    writerA: await person(),
    writerB: await person('member'),
    admin: await person('admin'),
    moderator: await person('moderator'),
  };
  const scope = 'pages_manage_engagement pages_read_engagement pages_read_user_content';
  const { client, clientSecret } = await createClient(server.deps, { name: 'page token', scope, organization: org.id });
  tokens = { moderator: people.moderator.token, person: people.viewer.token, page: await fetchAccessToken(server.url, client.clientId, clientSecret) };
  posts = { 10: await buildPost(10), 100: await buildPost(100) };
});
afterAll(() => server?.close());

/**
 * The bound: authentication (the session, the viewer's memberships), the post (its type on /v24.0, then the post),
 * the page of comments and their count, the authors (pages, people, and their memberships for can_hide), the
 * viewer's likes, the reply counts, the first replies and their likes. GraphQL reads each once. /v24.0 renders a
 * comment's fields one after another, so comments whose `from` waited on different reads (a page, a person, or
 * nothing to read) issue each later batched read (reply counts, likes, first replies) separately: up to three
 * statements of a kind, the same three for 10 comments as for 100 (SQLite answers fast enough to merge some).
 */
const BOUND = { graphql: 12, rest: 20 } as const;
/** The reads an answer needs, whatever the number of comments: 11 kinds, 12 with the authors' memberships. */
const KINDS = 12;

/** A statement without its bindings: what it reads, not for which ids. */
const kindOf = (sql: string) => sql.replace(/\$\d+/g, '?').replace(/\((\?(, )?)+\)/g, '(…)');

describe.each(['rest', 'graphql'] as const)("a post's comments with authors, tags, likes, viewer flags and first replies, on %s", (surface) => {
  describe.each(['moderator', 'page', 'person'] as const)('viewed by %s', (viewer) => {
    it('reads what the viewer may see, each comment as built', async () => {
      for (const size of [10, 100] as const) {
        const { read, total } = await SURFACES[surface](posts[size], viewer);
        const want = expected(posts[size], viewer);
        // The person misses the hidden comments they neither wrote nor are tagged in: one in each ten.
        expect(read.length).toBe(viewer === 'person' ? size * 0.9 : size);
        expect(total).toBe(want.length);
        expect(read).toEqual(want);
      }
    });

    it('in the same number of SQL statements for 10 and for 100 comments, and few', async () => {
      const counted = async (size: 10 | 100) => {
        const { result, statements } = await countStatements(server.deps.db, () => SURFACES[surface](posts[size], viewer));
        expect(result.read).toHaveLength(expected(posts[size], viewer).length);
        return statements;
      };
      const ten = await counted(10);
      const hundred = await counted(100);
      expect(hundred.length, hundred.join('\n')).toBe(ten.length);
      expect(hundred.length, hundred.join('\n')).toBeLessThanOrEqual(BOUND[surface]);
      expect(new Set(hundred.map(kindOf)).size, hundred.join('\n')).toBeLessThanOrEqual(KINDS);
    });
  });
});
