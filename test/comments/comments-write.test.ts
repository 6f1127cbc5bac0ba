import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type GraphQLBody } from '../helpers/server.ts';
import { PASSWORD, worldBuilder } from '../helpers/world.ts';
import { pageCast, type PageRole } from '../helpers/principals.ts';
import { createGroup } from '../../src/comments/admin.ts';
import { expectGraphError, graphClient, ISO_TIME, UNKNOWN_OBJECT, type GraphClient, type GraphHttpResponse } from '../helpers/graph.ts';
import { firstError } from '../helpers/api.ts';
import { countStatements } from '../helpers/database.ts';
import { createUser, issueSession } from '../../src/identity/service.ts';
import { insertObjects } from '../../src/db/objects.ts';
import { insertLikes, pages, type CommentRecord, type PageRecord, type PostKind, type PostRecord } from '../../src/comments/store.ts';

// Writing comments end to end (issue 10, DECISIONS section 6, the specification's comment update rules and
// permission list), every write through /v24.0 and through GraphQL: publish (comments, replies one level deep,
// mentions with code-point offsets), edit (update rules 1 to 3), hide and unhide (rule 4), delete (the two
// permission sets, rule 5, replies and likes with it), likes, and bad input that writes nothing.

type Person = PageRole | 'siteAdmin' | 'postAuthor' | 'commenter' | 'tagged' | 'stranger' | 'eventCreator';
type Client = 'pageClient' | 'engagementClient' | 'userContentClient' | 'manageClient' | 'readClient' | 'readBothClient' | 'adsClient';
type Who = Person | Client;

type Surface = 'rest' | 'graphql';
const SURFACES: Surface[] = ['rest', 'graphql'];

/** Names that count differently in code points and in UTF-16 units: combining marks, emoji with skin tones, ZWJ sequences. */
const TAGGED_NAME = 'Zoe\u0308 \u{1F469}\u{1F3FD}\u200D\u{1F4BB}'; // "Zoë 👩🏽‍💻": 9 code points, 12 UTF-16 units
const PAGE_NAME = 'Cafe\u0301 \u{1F370}'; // "Café 🍰": 7 code points, 8 UTF-16 units

let server: TestServer;
let g: GraphClient;
let world: ReturnType<typeof worldBuilder>;
const tokens = {} as Record<Who, string>;
const people = {} as Record<Person, { id: string; name: string }>;
let page: PageRecord;
let otherPage: PageRecord;

async function insertPage(organizationId: string, name: string): Promise<PageRecord> {
  const [made] = await server.deps.db.transaction((trx) => insertObjects<PageRecord>(trx, 'page', pages, [{ organizationId, name, category: null }]));
  return made!;
}

const insertPost = (kind: PostKind, author: { userId: string } | { pageId: string }) => world.postOfKind(kind, page, author);

const byPage = (p: PageRecord = page) => ({ authorUserId: null, authorPageId: p.id });
const byPerson = (who: Person) => ({ authorUserId: people[who].id, authorPageId: null });
const externalId = (comment: Pick<CommentRecord, 'postId' | 'id'>) => `${comment.postId}_${comment.id}`;
const internalId = (id: string) => id.split('_')[1]!;
const gql = (query: string, variables: Record<string, unknown>, who: Who) => server.graphql(query, variables, tokens[who]).then((r) => r.body);

// --- Both surfaces ------------------------------------------------------------------------------------------

interface Answer {
  rest?: GraphHttpResponse;
  body?: GraphQLBody;
}

const INPUT_NAMES: Record<string, string> = {
  message: 'message',
  attachment_url: 'attachmentUrl',
  attachment_id: 'attachmentId',
  attachment_share_url: 'attachmentShareUrl',
  source: 'source',
};
const toInput = (params: Record<string, unknown>) => Object.fromEntries(Object.entries(params).map(([name, value]) => [INPUT_NAMES[name] ?? name, value]));
const SELECTION = `id message attachment isHidden likeCount userLikes commentCount messageTags { id name type offset length }
  parent { id } from { __typename ... on Person { id } ... on Page { id } }`;

const write = {
  publish: async (surface: Surface, objectId: string, params: Record<string, unknown>, who: Who): Promise<Answer> =>
    surface === 'rest'
      ? { rest: await g.call('POST', `/v24.0/${objectId}/comments`, { token: tokens[who], form: params }) }
      : {
          body: await gql(
            `mutation ($o: ID!, $i: CommentContentInput!) { result: publishComment(objectId: $o, input: $i) { ${SELECTION} } }`,
            { o: objectId, i: toInput(params) },
            who,
          ),
        },
  edit: async (surface: Surface, id: string, params: Record<string, unknown>, who: Who): Promise<Answer> =>
    surface === 'rest'
      ? { rest: await g.call('POST', `/v24.0/${id}`, { token: tokens[who], form: params }) }
      : {
          body: await gql(
            `mutation ($id: ID!, $i: CommentContentInput!) { result: editComment(id: $id, input: $i) { ${SELECTION} } }`,
            { id, i: toInput(params) },
            who,
          ),
        },
  hide: async (surface: Surface, id: string, hidden: boolean, who: Who): Promise<Answer> =>
    surface === 'rest'
      ? { rest: await g.call('POST', `/v24.0/${id}`, { token: tokens[who], form: { is_hidden: hidden } }) }
      : { body: await gql(`mutation ($id: ID!, $h: Boolean!) { result: setCommentHidden(id: $id, hidden: $h) { ${SELECTION} } }`, { id, h: hidden }, who) },
  remove: async (surface: Surface, id: string, who: Who): Promise<Answer> =>
    surface === 'rest'
      ? { rest: await g.call('DELETE', `/v24.0/${id}`, { token: tokens[who] }) }
      : { body: await gql('mutation ($id: ID!) { result: deleteComment(id: $id) }', { id }, who) },
  like: async (surface: Surface, id: string, liked: boolean, who: Who): Promise<Answer> =>
    surface === 'rest'
      ? { rest: await g.call(liked ? 'POST' : 'DELETE', `/v24.0/${id}/likes`, { token: tokens[who] }) }
      : { body: await gql(`mutation ($id: ID!) { result: ${liked ? 'likeComment' : 'unlikeComment'}(id: $id) { ${SELECTION} } }`, { id }, who) },
};

/** A write that succeeded: the /v24.0 body, or GraphQL's result. */
function succeeded(answer: Answer): any {
  if (answer.rest) {
    expect(answer.rest.status, answer.rest.text).toBe(200);
    return answer.rest.body;
  }
  expect(answer.body!.errors, JSON.stringify(answer.body!.errors)).toBeUndefined();
  return answer.body!.data!.result;
}

/** A publish that succeeded: /v24.0 answers {id} alone; GraphQL the comment. The new comment's id. */
function publishedId(answer: Answer): string {
  const result = succeeded(answer);
  if (answer.rest) expect(result).toEqual({ id: expect.stringMatching(/^\d+_\d+$/) });
  return result.id;
}

/** An update, hide, delete or like that succeeded: /v24.0 answers {success: true}. */
function succeededWrite(answer: Answer): any {
  const result = succeeded(answer);
  if (answer.rest) expect(result).toEqual({ success: true });
  return result;
}

interface Refusal {
  code: 100 | 200;
  subcode?: 33;
  gqlCode: 'BAD_USER_INPUT' | 'FORBIDDEN' | 'NOT_FOUND';
  /** The GraphQL path extensions.field names (input.message, hidden); /v24.0's envelope names no field. */
  field?: string;
  /** The message without the "(#code) " prefix /v24.0 adds. */
  message: string;
  /**
   * Where GraphQL words it differently: by default the parameter the message begins with ("Param message ...") is
   * the GraphQL path of the field (input.message); other parameters it names are given here (graphql/errors.ts).
   */
  graphqlMessage?: string;
  /** Where /v24.0 words it differently (unknown objects). */
  restMessage?: string;
  /** GraphQL-only input checks (id shapes) carry no Graph API code. */
  noGraphApi?: boolean;
}

const badParam = (field: string, message: string, graphqlMessage?: string): Refusal => ({
  code: 100,
  gqlCode: 'BAD_USER_INPUT',
  field,
  message,
  ...(graphqlMessage ? { graphqlMessage } : {}),
});
// Messages naming several parameters, in GraphQL's words.
const NO_ATTACHMENT = 'A comment needs a message or an attachment (input.attachmentUrl, input.attachmentId, input.attachmentShareUrl or source)';
const SHARE_ALONE = 'input.attachmentShareUrl must be sent alone, without input.attachmentUrl, input.attachmentId or source';
/** A service's message in GraphQL's words: the parameter it begins with is the field's GraphQL path. */
const graphqlWords = (refusal: Refusal) =>
  refusal.graphqlMessage ?? (refusal.field ? refusal.message.replace(/^(?:Param|The parameter) \S+/, refusal.field) : refusal.message);
const denied = (message: string): Refusal => ({ code: 200, gqlCode: 'FORBIDDEN', message: `Permissions error: ${message}` });
const unknown = (id: string, method: 'post' | 'delete', type = 'Comment', restId = id): Refusal => ({
  code: 100,
  subcode: 33,
  gqlCode: 'NOT_FOUND',
  message: `${type} ${id} does not exist or you cannot see it.`,
  restMessage: UNKNOWN_OBJECT(restId, method),
});

function expectError(answer: Answer, refusal: Refusal): void {
  if (answer.rest) {
    expectGraphError(answer.rest, {
      status: refusal.code === 200 ? 403 : 400,
      code: refusal.code,
      subcode: refusal.subcode,
      type: refusal.subcode === 33 ? 'GraphMethodException' : 'OAuthException',
      message: refusal.restMessage ?? `(#${refusal.code}) ${refusal.message}`,
    });
    return;
  }
  const error = firstError(answer.body!);
  expect({ message: error.message, ...error.extensions }, JSON.stringify(answer.body)).toEqual({
    message: graphqlWords(refusal),
    code: refusal.gqlCode,
    ...(refusal.field ? { field: refusal.field } : {}),
    ...(refusal.noGraphApi ? {} : { graphApi: { code: refusal.code, ...(refusal.subcode ? { error_subcode: refusal.subcode } : {}) } }),
  });
}

const count = async (table: string) => Number(((await server.deps.db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);

/** Every row comment writes touch, and the named comments' rows as they are. */
async function snapshot(commentIds: string[] = []) {
  const db = server.deps.db;
  return {
    comments: await count('comments'),
    likes: await count('comment_likes'),
    mentions: await count('comment_mentions'),
    objects: await count('graph_objects'),
    rows: await Promise.all(
      commentIds.map((id) =>
        db('comments')
          .where({ id: internalId(id) })
          .first(),
      ),
    ),
    mentionRows: await Promise.all(
      commentIds.map((id) =>
        db('comment_mentions')
          .where({ comment_id: internalId(id) })
          .orderBy('object_id'),
      ),
    ),
  };
}

/** A write that fails with exactly this error and changes no row (the named comments' rows included). */
async function expectRefused(run: () => Promise<Answer>, refusal: Refusal, commentIds: string[] = []): Promise<void> {
  const before = await snapshot(commentIds);
  expectError(await run(), refusal);
  expect(await snapshot(commentIds)).toEqual(before);
}

const readBack = (id: string, who: Who, fields = 'message,attachment,message_tags,is_hidden,like_count,user_likes,from,parent') =>
  g.get(id, tokens[who], { fields });

beforeAll(async () => {
  server = await startTestServer({ ASYNC_RUNNER: 'false' });
  g = graphClient(server);
  world = worldBuilder(server.deps);
  const org = await world.organization();
  const cast = await pageCast(
    server,
    org.id,
    ['postAuthor', 'commenter', 'stranger', 'eventCreator'] as const,
    ['pageClient', 'engagementClient', 'userContentClient', 'manageClient', 'readClient', 'readBothClient', 'adsClient'] as const,
  );
  Object.assign(tokens, cast.clientTokens);
  for (const [who, signed] of Object.entries(cast.people)) {
    people[who as Person] = { id: signed.id, name: signed.name };
    tokens[who as Person] = signed.token;
  }
  const { user: tagged } = await createUser(server.deps, { email: `tagged${Date.now()}@example.com`, password: PASSWORD, name: TAGGED_NAME });
  people.tagged = { id: tagged.id, name: TAGGED_NAME };
  tokens.tagged = (await issueSession(server.deps, tagged)).sessionToken;
  page = await insertPage(org.id, PAGE_NAME);
  otherPage = await insertPage((await world.organization()).id, 'Another page');
});
afterAll(() => server?.close());

describe('publish: POST /<object>/comments and publishComment', () => {
  const KINDS: PostKind[] = ['page_post', 'visitor_post', 'photo', 'video', 'event', 'group_post', 'review'];

  it.each(SURFACES.flatMap((surface) => KINDS.map((kind) => [surface, kind] as const)))(
    '%s: a person comments on a %s as themselves',
    async (surface, kind) => {
      const post = await insertPost(kind, kind === 'page_post' || kind === 'event' ? { pageId: page.id } : { userId: people.postAuthor.id });
      const before = await snapshot();
      const id = publishedId(await write.publish(surface, post.id, { message: `On a ${kind}` }, 'commenter'));
      expect(id).toMatch(new RegExp(`^${post.id}_\\d+$`));
      expect(await snapshot()).toMatchObject({ comments: before.comments + 1, objects: before.objects + 1, likes: before.likes, mentions: before.mentions });
      const row = await server.deps
        .db('comments')
        .where({ id: internalId(id) })
        .first();
      expect({ user: row.author_user_id, page: row.author_page_id, post: String(row.post_id), parent: row.parent_id, org: row.organization_id }).toEqual({
        user: people.commenter.id,
        page: null,
        post: post.id,
        parent: null,
        org: page.organizationId,
      });
      expect(
        (
          await server.deps
            .db('graph_objects')
            .where({ id: internalId(id) })
            .first()
        ).type,
      ).toBe('comment');
      const read = await readBack(id, 'commenter', 'message,from,is_hidden,comment_count,like_count,created_time');
      expect(read.body).toEqual({
        id,
        message: `On a ${kind}`,
        from: { id: people.commenter.id, name: people.commenter.name },
        is_hidden: false,
        comment_count: 0,
        like_count: 0,
        created_time: expect.stringMatching(ISO_TIME),
      });
      expect((await g.get(`${post.id}/comments`, tokens.stranger)).body.data.map((c: { id: string }) => c.id)).toContain(id);
    },
  );

  it.each(SURFACES)("%s: the page's API client (pages_manage_engagement) comments as the page; people with a role comment as themselves", async (surface) => {
    const post = await insertPost('visitor_post', { userId: people.postAuthor.id });
    for (const client of ['manageClient', 'pageClient'] as const) {
      const id = publishedId(await write.publish(surface, post.id, { message: `From the page (${client})` }, client));
      const row = await server.deps
        .db('comments')
        .where({ id: internalId(id) })
        .first();
      expect({ user: row.author_user_id, page: String(row.author_page_id) }).toEqual({ user: null, page: page.id });
      expect((await readBack(id, 'stranger', 'from')).body).toEqual({ id, from: { id: page.id, name: PAGE_NAME } });
    }
    for (const person of ['moderator', 'admin', 'owner', 'siteAdmin'] as const) {
      const id = publishedId(await write.publish(surface, post.id, { message: `From the ${person}` }, person));
      const row = await server.deps
        .db('comments')
        .where({ id: internalId(id) })
        .first();
      expect({ user: row.author_user_id, page: row.author_page_id }).toEqual({ user: people[person].id, page: null });
    }
  });

  it.each(SURFACES)(
    '%s: an API client without pages_manage_engagement may not comment (200); one without a page scope cannot see the post (100/33)',
    async (surface) => {
      const post = await insertPost('page_post', { pageId: page.id });
      for (const client of ['readClient', 'readBothClient'] as const) {
        await expectRefused(
          () => write.publish(surface, post.id, { message: 'Let me in' }, client),
          denied('commenting as the page needs the pages_manage_engagement permission'),
        );
      }
      await expectRefused(() => write.publish(surface, post.id, { message: 'Let me in' }, 'adsClient'), unknown(post.id, 'post', 'Object'));
    },
  );

  it.each(SURFACES)('%s: a message, an attachment, or both; each kind of attachment', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const cases: Array<[Record<string, unknown>, string | undefined, unknown]> = [
      [{ attachment_url: 'https://cdn.example/a.png' }, undefined, { type: 'photo', url: 'https://cdn.example/a.png' }],
      [{ message: 'With a picture', attachment_id: '1234567' }, 'With a picture', { type: 'photo', target: { id: '1234567' } }],
      [
        { attachment_id: '1234567', attachment_url: 'https://cdn.example/b.png' },
        undefined,
        { type: 'photo', url: 'https://cdn.example/b.png', target: { id: '1234567' } },
      ],
      [{ attachment_share_url: 'https://news.example/story' }, undefined, { type: 'share', url: 'https://news.example/story' }],
      [{ message: 'A clip', source: 'clip-0001.mp4' }, 'A clip', { type: 'media', source: 'clip-0001.mp4' }],
    ];
    for (const [params, message, attachment] of cases) {
      const id = publishedId(await write.publish(surface, post.id, params, 'commenter'));
      expect((await readBack(id, 'commenter', 'message,attachment')).body).toEqual({ id, ...(message ? { message } : {}), attachment });
    }
  });

  it.each(SURFACES)('%s: replies are comments on a comment, one level deep: a reply to a reply is error 100 naming id', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const top = publishedId(await write.publish(surface, post.id, { message: 'Top' }, 'commenter'));
    const reply = publishedId(await write.publish(surface, top, { message: 'Reply' }, 'stranger'));
    expect(reply.split('_')[0]).toBe(post.id);
    expect((await readBack(reply, 'stranger', 'parent,message')).body).toEqual({ id: reply, parent: { id: top }, message: 'Reply' });
    expect((await readBack(top, 'stranger', 'comment_count')).body).toEqual({ id: top, comment_count: 1 });
    const pageReply = publishedId(await write.publish(surface, top, { message: 'Reply from the page' }, 'pageClient'));
    expect((await readBack(pageReply, 'stranger', 'parent,from')).body).toEqual({ id: pageReply, parent: { id: top }, from: { id: page.id, name: PAGE_NAME } });
    for (const parent of [reply, pageReply]) {
      await expectRefused(
        () => write.publish(surface, parent, { message: 'Deeper' }, 'commenter'),
        badParam(surface === 'graphql' ? 'objectId' : 'id', `Comment ${parent} is a reply, and replies take no replies: reply to ${top}`),
      );
    }
  });

  it.each(SURFACES)(
    '%s: mentions of users and pages become message tags, offsets and lengths in code points; the message reads with the names',
    async (surface) => {
      const post = await insertPost('page_post', { pageId: page.id });
      const message = `\u{1F44D}\u{1F3FD} Hi @[${people.tagged.id.toUpperCase()}], meet @[${page.id}] \u2014 e\u0301 \u{1F468}\u200D\u{1F469}\u200D\u{1F467}, @[${people.tagged.id}]!`;
      const rendered = `\u{1F44D}\u{1F3FD} Hi ${TAGGED_NAME}, meet ${PAGE_NAME} \u2014 e\u0301 \u{1F468}\u200D\u{1F469}\u200D\u{1F467}, ${TAGGED_NAME}!`;
      // "👍🏽 Hi " is 6 code points (8 UTF-16 units); the name 9 (12); ", meet " 7; the page 7 (8);
      // " — é 👨‍👩‍👧, " is 3 + 2 + 1 + 5 + 2 = 13 code points.
      const tags = [
        { id: people.tagged.id, name: TAGGED_NAME, type: 'user', offset: 6, length: 9 },
        { id: page.id, name: PAGE_NAME, type: 'page', offset: 22, length: 7 },
        { id: people.tagged.id, name: TAGGED_NAME, type: 'user', offset: 42, length: 9 },
      ];
      const before = await snapshot();
      const id = publishedId(await write.publish(surface, post.id, { message }, 'commenter'));
      const read = await readBack(id, 'commenter', 'message,message_tags');
      expect(read.body).toEqual({ id, message: rendered, message_tags: tags });
      const points = [...(read.body.message as string)];
      for (const tag of tags) expect(points.slice(tag.offset, tag.offset + tag.length).join('')).toBe(tag.name);
      const data = (await gql('query ($id: ID!) { comment(id: $id) { message messageTags { id name type offset length } } }', { id }, 'stranger')).data!;
      expect(data.comment).toEqual({ message: rendered, messageTags: tags.map((tag) => ({ ...tag, type: tag.type.toUpperCase() })) });
      // One mention row per thing mentioned.
      const rows = await server.deps
        .db('comment_mentions')
        .where({ comment_id: internalId(id) })
        .orderBy('type', 'desc');
      expect(rows.map((row: Record<string, unknown>) => ({ object: row.object_id, type: row.type }))).toEqual([
        { object: people.tagged.id, type: 'user' },
        { object: page.id, type: 'page' },
      ]);
      expect(await snapshot()).toMatchObject({ comments: before.comments + 1, mentions: before.mentions + 2 });
    },
  );

  it.each(SURFACES)('%s: a mention of a group becomes a group tag; a group is no object to read or comment on', async (surface) => {
    const group = await createGroup(server.deps, { organization: page.organizationId, name: 'Ridge Runners \u{1F3D4}\uFE0F' });
    const post = await insertPost('group_post', { userId: people.postAuthor.id });
    const id = publishedId(await write.publish(surface, post.id, { message: `\u{1F44B} ask @[${group.id}]` }, 'commenter'));
    // "👋 ask " is 6 code points; the name 14 letters and spaces, the mountain and its variation selector: 16.
    const tag = { id: group.id, name: group.name, type: 'group', offset: 6, length: 16 };
    expect((await readBack(id, 'commenter', 'message,message_tags')).body).toEqual({ id, message: `\u{1F44B} ask ${group.name}`, message_tags: [tag] });
    const data = (await gql('query ($id: ID!) { comment(id: $id) { messageTags { id name type offset length } } }', { id }, 'stranger')).data!;
    expect(data.comment).toEqual({ messageTags: [{ ...tag, type: 'GROUP' }] });
    expect(
      await server.deps
        .db('comment_mentions')
        .where({ comment_id: internalId(id) })
        .select('object_id', 'type'),
    ).toEqual([{ object_id: group.id, type: 'group' }]);
    expectGraphError(await g.get(group.id, tokens.commenter), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(group.id) });
  });
});

describe('edit: POST /<comment> and editComment (update rules 1 to 3)', () => {
  let post: PostRecord;
  beforeAll(async () => {
    post = await insertPost('page_post', { pageId: page.id });
  });

  it.each(SURFACES)('%s: answers success and the comment reads back at once with all its readable fields', async (surface) => {
    const id = publishedId(await write.publish(surface, post.id, { message: 'First words', attachment_url: 'https://cdn.example/one.png' }, 'commenter'));
    await write.like(surface, id, true, 'stranger');
    const result = succeededWrite(
      await write.edit(
        surface,
        id,
        { message: `Better words for @[${people.tagged.id}]`, attachment_id: '777', attachment_url: 'https://cdn.example/two.png' },
        'commenter',
      ),
    );
    const attachment = { type: 'photo', url: 'https://cdn.example/two.png', target: { id: '777' } };
    const tags = [{ id: people.tagged.id, name: TAGGED_NAME, type: 'user', offset: 17, length: 9 }];
    if (surface === 'graphql') {
      expect(result).toEqual({
        id,
        message: `Better words for ${TAGGED_NAME}`,
        attachment,
        isHidden: false,
        likeCount: 1,
        userLikes: false,
        commentCount: 0,
        messageTags: tags.map((tag) => ({ ...tag, type: 'USER' })),
        parent: null,
        from: { __typename: 'Person', id: people.commenter.id },
      });
    }
    const read = await g.get(id, tokens.commenter, {
      fields:
        'id,attachment,can_comment,can_remove,can_hide,can_like,can_reply_privately,comment_count,created_time,from,like_count,message,message_tags,object,parent,user_likes,is_hidden,permalink_url',
    });
    expect(read.body).toEqual({
      id,
      attachment,
      can_comment: true,
      can_remove: true,
      can_like: true,
      comment_count: 0,
      created_time: expect.stringMatching(ISO_TIME),
      from: { id: people.commenter.id, name: people.commenter.name },
      like_count: 1,
      message: `Better words for ${TAGGED_NAME}`,
      message_tags: tags,
      user_likes: false,
      is_hidden: false,
      permalink_url: `${server.deps.config.publicUrl}/${post.id}?comment_id=${internalId(id)}`,
    });
    const mentions = await server.deps.db('comment_mentions').where({ comment_id: internalId(id) });
    expect(mentions.map((row: Record<string, unknown>) => row.object_id)).toEqual([people.tagged.id]);
  });

  it.each(SURFACES)('%s: rule 3, an update replaces the content: what is not sent again is removed', async (surface) => {
    const id = publishedId(
      await write.publish(surface, post.id, { message: `Hi @[${people.tagged.id}]`, attachment_url: 'https://cdn.example/pic.png' }, 'commenter'),
    );
    succeededWrite(await write.edit(surface, id, { message: 'Only words now' }, 'commenter'));
    expect((await readBack(id, 'commenter', 'message,attachment,message_tags')).body).toEqual({ id, message: 'Only words now' });
    expect(await server.deps.db('comment_mentions').where({ comment_id: internalId(id) })).toEqual([]);
    succeededWrite(await write.edit(surface, id, { attachment_share_url: 'https://news.example/a' }, 'commenter'));
    expect((await readBack(id, 'commenter', 'message,attachment')).body).toEqual({ id, attachment: { type: 'share', url: 'https://news.example/a' } });
    succeededWrite(await write.edit(surface, id, { source: 'clip.mp4' }, 'commenter'));
    expect((await readBack(id, 'commenter', 'message,attachment')).body).toEqual({ id, attachment: { type: 'media', source: 'clip.mp4' } });
    succeededWrite(await write.edit(surface, id, { attachment_id: '42' }, 'commenter'));
    expect((await readBack(id, 'commenter', 'message,attachment')).body).toEqual({ id, attachment: { type: 'photo', target: { id: '42' } } });
    const row = await server.deps
      .db('comments')
      .where({ id: internalId(id) })
      .first();
    expect(row.message).toBeNull();
  });

  // Rules 1 and 2: a message or an attachment; attachment_share_url alone; an id may accompany a url (above).
  const CONTENT_REFUSALS: Array<[string, Record<string, unknown>, Refusal]> = [
    [
      'nothing',
      {},
      badParam('input.message', 'A comment needs a message or an attachment (attachment_url, attachment_id, attachment_share_url or source)', NO_ATTACHMENT),
    ],
    [
      'a blank message',
      { message: '  \n ' },
      badParam('input.message', 'A comment needs a message or an attachment (attachment_url, attachment_id, attachment_share_url or source)', NO_ATTACHMENT),
    ],
    [
      'share url with a url',
      { attachment_share_url: 'https://a.example/', attachment_url: 'https://a.example/x.png' },
      badParam('input.attachmentShareUrl', 'Param attachment_share_url must be sent alone, without attachment_url, attachment_id or source', SHARE_ALONE),
    ],
    [
      'share url with an id',
      { attachment_share_url: 'https://a.example/', attachment_id: '5' },
      badParam('input.attachmentShareUrl', 'Param attachment_share_url must be sent alone, without attachment_url, attachment_id or source', SHARE_ALONE),
    ],
    [
      'share url with a source',
      { message: 'x', attachment_share_url: 'https://a.example/', source: 'clip.mp4' },
      badParam('input.attachmentShareUrl', 'Param attachment_share_url must be sent alone, without attachment_url, attachment_id or source', SHARE_ALONE),
    ],
    [
      'source with a url',
      { source: 'clip.mp4', attachment_url: 'https://a.example/x.png' },
      badParam('input.source', 'Param source cannot be combined with another attachment'),
    ],
    ['source with an id', { source: 'clip.mp4', attachment_id: '5' }, badParam('input.source', 'Param source cannot be combined with another attachment')],
  ];

  it.each(SURFACES.flatMap((surface) => CONTENT_REFUSALS.map((row) => [surface, ...row] as const)))(
    '%s: %s is refused on edit and on publish, nothing changed',
    async (surface, _label, params, refusal) => {
      const id = publishedId(await write.publish(surface, post.id, { message: 'Keep me', attachment_url: 'https://cdn.example/keep.png' }, 'commenter'));
      await expectRefused(() => write.edit(surface, id, params, 'commenter'), refusal, [id]);
      await expectRefused(() => write.publish(surface, post.id, params, 'commenter'), refusal);
      expect((await readBack(id, 'commenter', 'message,attachment')).body).toEqual({
        id,
        message: 'Keep me',
        attachment: { type: 'photo', url: 'https://cdn.example/keep.png' },
      });
    },
  );

  // Only the author, or, for the page's own comments, the page (a moderator or above, or an API client with
  // pages_manage_engagement and pages_read_engagement) edits.
  const EDITORS: Array<[string, 'person' | 'page' | 'otherPage', Who, boolean, string?]> = [
    ['the author', 'person', 'commenter', true],
    [
      "a moderator, a person's comment",
      'person',
      'moderator',
      false,
      "A page can only edit its own comments: a person's comment can be hidden or deleted, not rewritten",
    ],
    [
      "an admin, a person's comment",
      'person',
      'admin',
      false,
      "A page can only edit its own comments: a person's comment can be hidden or deleted, not rewritten",
    ],
    [
      "the page's client, a person's comment",
      'person',
      'pageClient',
      false,
      "A page can only edit its own comments: a person's comment can be hidden or deleted, not rewritten",
    ],
    ["a stranger, a person's comment", 'person', 'stranger', false],
    ["the advertiser, a person's comment", 'person', 'advertiser', false],
    ["a moderator, the page's comment", 'page', 'moderator', true],
    ["the owner, the page's comment", 'page', 'owner', true],
    ["the page's client (manage + read engagement), the page's comment", 'page', 'engagementClient', true],
    ["a client with pages_manage_engagement only, the page's comment", 'page', 'manageClient', false],
    ["a client without pages_read_engagement, the page's comment", 'page', 'userContentClient', false],
    ["a client without pages_manage_engagement, the page's comment", 'page', 'readBothClient', false],
    ["a stranger, the page's comment", 'page', 'stranger', false],
    // Another page's words are not this page's own.
    [
      "a moderator, another page's comment",
      'otherPage',
      'moderator',
      false,
      "A page can only edit its own comments: a person's comment can be hidden or deleted, not rewritten",
    ],
    [
      "the page's client, another page's comment",
      'otherPage',
      'engagementClient',
      false,
      "A page can only edit its own comments: a person's comment can be hidden or deleted, not rewritten",
    ],
  ];

  it.each(
    SURFACES.flatMap((surface) => EDITORS.map(([label, author, who, allowed, reason]) => [surface, label, author, who, allowed, reason ?? null] as const)),
  )('%s: %s (a %s comment)', async (surface, _label, author, who, allowed, reason) => {
    const comment = await world.comment(post, {
      ...(author === 'person' ? byPerson('commenter') : author === 'page' ? byPage() : byPage(otherPage)),
      message: 'Original',
    });
    const id = externalId(comment);
    if (allowed) {
      succeededWrite(await write.edit(surface, id, { message: `Edited by ${who}` }, who));
      expect((await readBack(id, 'stranger', 'message')).body).toEqual({ id, message: `Edited by ${who}` });
      return;
    }
    await expectRefused(() => write.edit(surface, id, { message: `Edited by ${who}` }, who), denied(reason ?? `you may not change comment ${id}`), [id]);
  });
});

describe('hide and unhide: is_hidden and setCommentHidden (rule 4)', () => {
  it.each(
    SURFACES.flatMap((surface) =>
      (['moderator', 'admin', 'owner', 'siteAdmin', 'pageClient', 'engagementClient'] as const).map((who) => [surface, who] as const),
    ),
  )("%s: the %s hides a person's comment on a page post and shows it again; hidden, only those it stays visible to see it", async (surface, who) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const id = publishedId(await write.publish(surface, post.id, { message: `Rude to @[${people.tagged.id}]` }, 'commenter'));
    const result = succeededWrite(await write.hide(surface, id, true, who));
    if (surface === 'graphql') expect(result).toMatchObject({ id, isHidden: true });
    expect(
      (
        await server.deps
          .db('comments')
          .where({ id: internalId(id) })
          .first()
      ).is_hidden,
    ).toBeTruthy();
    for (const viewer of ['commenter', 'tagged', 'moderator', 'pageClient'] as const) {
      expect((await readBack(id, viewer, 'is_hidden')).body, viewer).toEqual({ id, is_hidden: true });
    }
    for (const viewer of ['stranger', 'advertiser', 'readClient'] as const) {
      expectGraphError(await readBack(id, viewer, 'is_hidden'), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(id) });
      expect((await g.get(`${post.id}/comments`, tokens[viewer], { summary: 'total_count' })).body).toEqual({ data: [], summary: { total_count: 0 } });
    }
    succeededWrite(await write.hide(surface, id, false, who));
    expect((await readBack(id, 'stranger', 'is_hidden,message')).body).toEqual({ id, is_hidden: false, message: `Rude to ${TAGGED_NAME}` });
  });

  it.each(SURFACES)("%s: a person's comment on their own post may be hidden; is_hidden with a message sets both (form strings too)", async (surface) => {
    const post = await insertPost('visitor_post', { userId: people.postAuthor.id });
    const comment = await world.comment(post, { ...byPerson('postAuthor'), message: 'My own post' });
    succeededWrite(await write.hide(surface, externalId(comment), true, 'moderator'));
    expect((await readBack(externalId(comment), 'postAuthor', 'is_hidden')).body).toEqual({ id: externalId(comment), is_hidden: true });
    // A moderator's own comment on a page post: they may rewrite it (the author) and hide it (MODERATE) at once.
    const pagePost = await insertPost('page_post', { pageId: page.id });
    const own = externalId(await world.comment(pagePost, { ...byPerson('moderator'), message: 'My words' }));
    const response = await g.call('POST', `/v24.0/${own}`, { token: tokens.moderator, form: { message: 'New words', is_hidden: 'true' } });
    expect(response.body).toEqual({ success: true });
    expect((await readBack(own, 'moderator', 'message,is_hidden')).body).toEqual({ id: own, message: 'New words', is_hidden: true });
    expectGraphError(await readBack(own, 'stranger', 'message'), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(own) });
    expect((await g.call('POST', `/v24.0/${own}`, { token: tokens.moderator, form: { is_hidden: 'false' } })).body).toEqual({ success: true });
    expect((await readBack(own, 'stranger', 'message,is_hidden')).body).toEqual({ id: own, message: 'New words', is_hidden: false });
  });

  // Rule 4: comments that cannot be hidden. Each is error 100 naming is_hidden, and nothing changes.
  type Case = { post: PostKind; postBy: 'page' | Person; commentBy: 'page' | Person };
  const NOT_HIDEABLE: Array<[string, Case, string]> = [
    ['by the page', { post: 'page_post', postBy: 'page', commentBy: 'page' }, "The page's own comments cannot be hidden"],
    ['by a page admin', { post: 'page_post', postBy: 'page', commentBy: 'admin' }, "Comments by the page's admins cannot be hidden"],
    ['by the page owner', { post: 'page_post', postBy: 'page', commentBy: 'owner' }, "Comments by the page's admins cannot be hidden"],
    [
      "by the page on a user's post",
      { post: 'visitor_post', postBy: 'postAuthor', commentBy: 'page' },
      "The page's own comments cannot be hidden, also on a person's post",
    ],
    [
      "by a user on another user's post on the page",
      { post: 'visitor_post', postBy: 'postAuthor', commentBy: 'commenter' },
      "A person's comment on another person's post cannot be hidden by the page",
    ],
    ['by an event creator', { post: 'event', postBy: 'eventCreator', commentBy: 'eventCreator' }, "The event creator's comments cannot be hidden"],
    [
      'by a group (a comment on a group post)',
      { post: 'group_post', postBy: 'postAuthor', commentBy: 'postAuthor' },
      'Comments in a group cannot be hidden by the page',
    ],
    ['by any user on a review', { post: 'review', postBy: 'postAuthor', commentBy: 'commenter' }, 'Comments on a review cannot be hidden'],
    ["by the review's author on their review", { post: 'review', postBy: 'postAuthor', commentBy: 'postAuthor' }, 'Comments on a review cannot be hidden'],
  ];

  it.each(SURFACES.flatMap((surface) => NOT_HIDEABLE.map((row) => [surface, ...row] as const)))(
    '%s: a comment %s cannot be hidden',
    async (surface, _label, c, reason) => {
      const post = await insertPost(c.post, c.postBy === 'page' ? { pageId: page.id } : { userId: people[c.postBy].id });
      const comment = await world.comment(post, { ...(c.commentBy === 'page' ? byPage() : byPerson(c.commentBy)), message: 'Stay visible' });
      const id = externalId(comment);
      for (const who of ['moderator', 'admin', 'pageClient'] as const) {
        await expectRefused(() => write.hide(surface, id, true, who), badParam('hidden', `Param is_hidden cannot be true: ${reason}`), [id]);
      }
      // The page view says so before anyone tries.
      expect((await readBack(id, 'moderator', 'can_hide')).body).toEqual({ id, can_hide: false });
      // Rule 4 limits hiding only: resending is_hidden=false (with an edit, say) is no refusal.
      succeededWrite(await write.hide(surface, id, false, 'moderator'));
      expect((await readBack(id, 'moderator', 'is_hidden')).body).toEqual({ id, is_hidden: false });
    },
  );

  it.each(
    SURFACES.flatMap((surface) =>
      (
        [
          ['commenter', "only the page's admins and moderators can hide or unhide comments"],
          ['stranger', null],
          ['advertiser', null],
          ['auditor', null],
          ['postAuthor', null],
          // Hiding is an update: pages_manage_engagement and pages_read_engagement.
          ['manageClient', null],
          ['userContentClient', null],
          ['readClient', null],
          ['readBothClient', null],
        ] as Array<[Who, string | null]>
      ).map(([who, reason]) => [surface, who, reason] as const),
    ),
  )('%s: the %s may not hide a comment (200)', async (surface, who, reason) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const comment = await world.comment(post, { ...byPerson('commenter'), message: 'Hideable' });
    const id = externalId(comment);
    await expectRefused(() => write.hide(surface, id, true, who), denied(reason ?? `you may not change comment ${id}`), [id]);
  });

  it.each(['maybe', 'yes', '2', 'null', '{}'])('is_hidden=%j is error 100 naming is_hidden, nothing changed', async (value) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const id = externalId(await world.comment(post, { ...byPerson('commenter'), message: 'Hideable' }));
    await expectRefused(
      async () => ({ rest: await g.call('POST', `/v24.0/${id}`, { token: tokens.moderator, form: { is_hidden: value } }) }),
      badParam('is_hidden', 'Param is_hidden must be a boolean'),
      [id],
    );
    await expectRefused(
      async () => ({ rest: await g.call('POST', `/v24.0/${id}`, { token: tokens.moderator, json: { is_hidden: [true] } }) }),
      badParam('is_hidden', 'Param is_hidden must be a boolean'),
      [id],
    );
    // GraphQL types it: a value that is not a Boolean fails validation, before anything runs.
    const before = await snapshot([id]);
    const body = await gql('mutation ($id: ID!, $h: Boolean!) { setCommentHidden(id: $id, hidden: $h) { id } }', { id, h: value }, 'moderator');
    expect(firstError(body).extensions?.code).toBe('BAD_USER_INPUT');
    expect(await snapshot([id])).toEqual(before);
  });
});

describe('delete: DELETE /<comment> and deleteComment', () => {
  // The specification's two permission sets for page tokens, the page's roles (MODERATE), the author; rule 5.
  type Author = 'page' | 'person' | 'otherPage';
  const DELETERS: Array<[Who, Author, boolean]> = [
    ['pageClient', 'page', true],
    ['pageClient', 'person', true],
    ['pageClient', 'otherPage', true],
    ['engagementClient', 'page', true],
    ['engagementClient', 'person', false],
    ['engagementClient', 'otherPage', false],
    ['userContentClient', 'page', false],
    ['userContentClient', 'person', true],
    ['userContentClient', 'otherPage', true],
    ['manageClient', 'page', false],
    ['manageClient', 'person', false],
    ['manageClient', 'otherPage', false],
    ['readBothClient', 'page', false],
    ['readBothClient', 'person', false],
    ['readBothClient', 'otherPage', false],
    ['moderator', 'page', true],
    ['moderator', 'person', true],
    ['moderator', 'otherPage', true],
    ['admin', 'person', true],
    ['owner', 'person', true],
    ['siteAdmin', 'person', true],
    ['commenter', 'person', true],
    ['stranger', 'person', false],
    ['advertiser', 'person', false],
    ['auditor', 'person', false],
    ['postAuthor', 'person', false],
    ['stranger', 'page', false],
  ];

  it.each(SURFACES.flatMap((surface) => DELETERS.map((row) => [surface, ...row] as const)))(
    '%s: %s deleting a comment by %s: %s',
    async (surface, who, author, allowed) => {
      const post = await insertPost(
        author === 'person' ? 'visitor_post' : 'page_post',
        author === 'person' ? { userId: people.postAuthor.id } : { pageId: page.id },
      );
      const comment = await world.comment(post, {
        ...(author === 'person' ? byPerson('commenter') : author === 'page' ? byPage() : byPage(otherPage)),
        message: 'Delete me?',
      });
      const id = externalId(comment);
      if (!allowed) {
        await expectRefused(() => write.remove(surface, id, who), denied(`you may not delete comment ${id}`), [id]);
        return;
      }
      const before = await snapshot();
      const result = succeededWrite(await write.remove(surface, id, who));
      if (surface === 'graphql') expect(result).toBe(true);
      expect(await snapshot()).toMatchObject({ comments: before.comments - 1, objects: before.objects - 1 });
      expectGraphError(await readBack(id, 'moderator', 'message'), { status: 400, code: 100, subcode: 33, message: UNKNOWN_OBJECT(id) });
    },
  );

  it.each(SURFACES)("%s: rule 5, the page cannot remove comments on a review (200); the comment's author can", async (surface) => {
    const review = await insertPost('review', { userId: people.postAuthor.id });
    const comment = await world.comment(review, { ...byPerson('commenter'), message: 'On a review' });
    const id = externalId(comment);
    for (const who of ['moderator', 'admin', 'owner', 'pageClient', 'userContentClient'] as const) {
      await expectRefused(
        () => write.remove(surface, id, who),
        denied("comments on a review cannot be removed by the page, as reviews are not the page's posts"),
        [id],
      );
      expect((await readBack(id, who, 'can_remove')).body).toEqual({ id, can_remove: false });
    }
    expect((await readBack(id, 'commenter', 'can_remove')).body).toEqual({ id, can_remove: true });
    succeededWrite(await write.remove(surface, id, 'commenter'));
    expect(await server.deps.db('comments').where({ id: comment.id }).first()).toBeUndefined();
  });

  it.each(SURFACES)('%s: deleting a comment deletes its replies, their likes and mentions, in one transaction; nothing else', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const top = await world.comment(post, {
      ...byPerson('commenter'),
      message: `${TAGGED_NAME}!`,
      messageTags: [{ id: people.tagged.id, name: TAGGED_NAME, type: 'user', offset: 0, length: 9 }],
    });
    const replies = [
      await world.comment(post, {
        ...byPerson('stranger'),
        parentId: top.id,
        message: `Yes ${TAGGED_NAME}`,
        messageTags: [{ id: people.tagged.id, name: TAGGED_NAME, type: 'user', offset: 4, length: 9 }],
      }),
      await world.comment(post, { ...byPage(), parentId: top.id, message: 'Thanks' }),
    ];
    const bystander = await world.comment(post, { ...byPerson('stranger'), message: 'Not me' });
    await server.deps.db.transaction((trx) =>
      insertLikes(trx, [
        { commentId: top.id, userId: people.stranger.id },
        { commentId: replies[0]!.id, userId: people.commenter.id },
        { commentId: replies[1]!.id, pageId: page.id },
        { commentId: replies[1]!.id, userId: people.tagged.id },
        { commentId: bystander.id, userId: people.commenter.id },
      ]),
    );
    const before = await snapshot([externalId(bystander)]);
    const { result, statements } = await countStatements(server.deps.db, () => write.remove(surface, externalId(top), 'moderator'));
    succeededWrite(result);
    expect(await snapshot([externalId(bystander)])).toEqual({
      ...before,
      comments: before.comments - 3,
      objects: before.objects - 3,
      likes: before.likes - 4,
      mentions: before.mentions - 2,
    });
    const gone = [top, ...replies].map((c) => c.id);
    expect(await server.deps.db('comments').whereIn('id', gone)).toEqual([]);
    expect(await server.deps.db('comment_likes').whereIn('comment_id', gone)).toEqual([]);
    expect(await server.deps.db('comment_mentions').whereIn('comment_id', gone)).toEqual([]);
    for (const reply of replies)
      expectGraphError(await readBack(externalId(reply), 'moderator', 'message'), {
        status: 400,
        code: 100,
        subcode: 33,
        message: UNKNOWN_OBJECT(externalId(reply)),
      });
    // Every statement that removes rows runs inside the one transaction.
    const begin = statements.findIndex((sql) => /^begin/i.test(sql));
    const commit = statements.findIndex((sql) => /^commit/i.test(sql));
    const writes = statements.map((sql, i) => [sql, i] as const).filter(([sql]) => /^(delete|update|insert)/i.test(sql));
    expect(begin, statements.join('\n')).toBeGreaterThanOrEqual(0);
    expect(commit).toBeGreaterThan(begin);
    expect(statements.filter((sql) => /^(begin|commit)/i.test(sql))).toHaveLength(2);
    expect(writes.filter(([sql]) => /^delete/i.test(sql)).length).toBeGreaterThan(0);
    for (const [sql, i] of writes) expect(i > begin && i < commit, sql).toBe(true);
  });

  it.each(SURFACES)('%s: deleting a reply leaves its parent, one reply fewer', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const top = await world.comment(post, { ...byPerson('commenter'), message: 'Top' });
    const replies = [
      await world.comment(post, { ...byPerson('stranger'), parentId: top.id, message: 'One' }),
      await world.comment(post, { ...byPage(), parentId: top.id, message: 'Two' }),
    ];
    succeededWrite(await write.remove(surface, externalId(replies[0]!), 'stranger'));
    expect((await readBack(externalId(top), 'stranger', 'comment_count,message')).body).toEqual({ id: externalId(top), comment_count: 1, message: 'Top' });
    expect((await g.get(`${externalId(top)}/comments`, tokens.stranger)).body.data).toEqual([{ id: externalId(replies[1]!) }]);
  });

  it.each(SURFACES)('%s: a deleted comment, or one the caller cannot see, cannot be deleted again (100/33)', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const comment = await world.comment(post, { ...byPerson('commenter'), message: 'Once' });
    const id = externalId(comment);
    succeededWrite(await write.remove(surface, id, 'commenter'));
    await expectRefused(() => write.remove(surface, id, 'commenter'), unknown(id, 'delete'));
    const hidden = await world.comment(post, { ...byPerson('commenter'), message: 'Hidden', isHidden: true });
    await expectRefused(() => write.remove(surface, externalId(hidden), 'stranger'), unknown(externalId(hidden), 'delete'), [externalId(hidden)]);
    await expectRefused(() => write.remove(surface, externalId(hidden), 'readBothClient'), unknown(externalId(hidden), 'delete'), [externalId(hidden)]);
  });
});

describe('likes: POST/DELETE /<comment>/likes, likeComment and unlikeComment', () => {
  it.each(SURFACES)('%s: like and unlike keep like_count and user_likes, and are idempotent', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const id = externalId(await world.comment(post, { ...byPerson('commenter'), message: 'Like me' }));
    const state = async (who: Who) => (await readBack(id, who, 'like_count,user_likes')).body;
    const likes = async () => count('comment_likes');
    const start = await likes();
    for (let i = 0; i < 2; i++) {
      const result = succeededWrite(await write.like(surface, id, true, 'stranger'));
      if (surface === 'graphql') expect(result).toMatchObject({ likeCount: 1, userLikes: true });
      expect(await state('stranger')).toEqual({ id, like_count: 1, user_likes: true });
      expect(await likes()).toBe(start + 1);
    }
    expect(await state('commenter')).toEqual({ id, like_count: 1, user_likes: false });
    succeededWrite(await write.like(surface, id, true, 'pageClient'));
    expect(await state('pageClient')).toEqual({ id, like_count: 2, user_likes: true });
    expect(await state('manageClient')).toEqual({ id, like_count: 2, user_likes: true });
    const listed = (await g.get(`${id}/likes`, tokens.commenter, { fields: 'id,name' })).body.data;
    expect(listed).toEqual(
      expect.arrayContaining([
        { id: people.stranger.id, name: people.stranger.name },
        { id: page.id, name: PAGE_NAME },
      ]),
    );
    expect(listed).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      const result = succeededWrite(await write.like(surface, id, false, 'stranger'));
      if (surface === 'graphql') expect(result).toMatchObject({ likeCount: 1, userLikes: false });
      expect(await state('stranger')).toEqual({ id, like_count: 1, user_likes: false });
    }
    succeededWrite(await write.like(surface, id, false, 'manageClient'));
    expect(await state('pageClient')).toEqual({ id, like_count: 0, user_likes: false });
    expect(await likes()).toBe(start);
    expect(
      (
        await server.deps
          .db('comments')
          .where({ id: internalId(id) })
          .first()
      ).like_count,
    ).toBe(0);
  });

  it.each(SURFACES)('%s: likes and unlikes sent at once by the same person count once, never a 500', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const id = externalId(await world.comment(post, { ...byPerson('commenter'), message: 'Popular' }));
    const likes = await Promise.all(Array.from({ length: 6 }, () => write.like(surface, id, true, 'stranger')));
    for (const answer of likes) succeededWrite(answer);
    expect((await readBack(id, 'stranger', 'like_count,user_likes')).body).toEqual({ id, like_count: 1, user_likes: true });
    expect(await server.deps.db('comment_likes').where({ comment_id: internalId(id) })).toHaveLength(1);
    const unlikes = await Promise.all(Array.from({ length: 6 }, () => write.like(surface, id, false, 'stranger')));
    for (const answer of unlikes) succeededWrite(answer);
    expect((await readBack(id, 'stranger', 'like_count,user_likes')).body).toEqual({ id, like_count: 0, user_likes: false });
  });

  it.each(SURFACES)('%s: a client without pages_manage_engagement may not like (200); a comment one cannot see cannot be liked (100/33)', async (surface) => {
    const post = await insertPost('page_post', { pageId: page.id });
    const id = externalId(await world.comment(post, { ...byPerson('commenter'), message: 'Like me' }));
    for (const who of ['readClient', 'readBothClient'] as const) {
      await expectRefused(() => write.like(surface, id, true, who), denied('liking as the page needs the pages_manage_engagement permission'), [id]);
    }
    const hidden = externalId(await world.comment(post, { ...byPerson('commenter'), message: 'Hidden', isHidden: true }));
    await expectRefused(() => write.like(surface, hidden, true, 'stranger'), unknown(hidden, 'post'), [hidden]);
    await expectRefused(() => write.like(surface, hidden, false, 'stranger'), unknown(hidden, 'delete'), [hidden]);
    // Nor replied to; its author, who sees it, may reply.
    await expectRefused(() => write.publish(surface, hidden, { message: 'Psst' }, 'stranger'), unknown(hidden, 'post'), [hidden]);
    publishedId(await write.publish(surface, hidden, { message: 'Still here' }, 'commenter'));
  });
});

describe('bad input: a precise error naming the field, never a 500, nothing changed', () => {
  let post: PostRecord;
  let comment: string;
  beforeAll(async () => {
    post = await insertPost('page_post', { pageId: page.id });
    comment = externalId(await world.comment(post, { ...byPerson('commenter'), message: 'Target' }));
  });

  const MESSAGES: Array<[string, () => Record<string, unknown>, () => Refusal]> = [
    ['a message over 8000 characters', () => ({ message: 'a'.repeat(8001) }), () => badParam('input.message', 'Param message must be at most 8000 characters')],
    [
      '8001 code points of emoji (16002 UTF-16 units)',
      () => ({ message: '\u{1F600}'.repeat(8001) }),
      () => badParam('input.message', 'Param message must be at most 8000 characters'),
    ],
    ['a NUL character', () => ({ message: 'nul \u0000 here' }), () => badParam('input.message', 'Param message must not contain NUL characters')],
    [
      'an attachment_url that is not http(s)',
      () => ({ attachment_url: 'ftp://files.example/x' }),
      () => badParam('input.attachmentUrl', 'Param attachment_url must be an http or https URL'),
    ],
    [
      'an attachment_share_url that is not a URL',
      () => ({ attachment_share_url: 'not a url' }),
      () => badParam('input.attachmentShareUrl', 'Param attachment_share_url must be an http or https URL'),
    ],
    [
      'an attachment_id that is not an id',
      () => ({ attachment_id: 'photo-1' }),
      () => badParam('input.attachmentId', 'Param attachment_id must be a valid ID'),
    ],
    [
      'a malformed mention (not an id)',
      () => ({ message: 'Hi @[abc]!' }),
      () => badParam('input.message', 'Param message has a malformed mention: the mention "@[abc]" at character 3 does not name a user, page or group id'),
    ],
    [
      'an empty mention',
      () => ({ message: '\u{1F44B}\u{1F3FE} @[]' }),
      () => badParam('input.message', 'Param message has a malformed mention: the mention "@[]" at character 3 does not name a user, page or group id'),
    ],
    [
      'a mention with a leading zero',
      () => ({ message: '@[0123]' }),
      () => badParam('input.message', 'Param message has a malformed mention: the mention "@[0123]" at character 0 does not name a user, page or group id'),
    ],
    [
      'a mention cut short',
      () => ({ message: 'e\u0301 hi @[123' }),
      () => badParam('input.message', 'Param message has a malformed mention: the mention starting at character 6 has no closing "]"'),
    ],
    [
      'a mention of a numeric id that names nothing',
      () => ({ message: 'Hi @[987654321987]' }),
      () => badParam('input.message', 'Param message mentions 987654321987, which names no user, page or group'),
    ],
    [
      'a mention of a UUID that names nobody',
      () => ({ message: 'Hi @[2f1a7a4e-9c1b-4c4f-8a8a-0d6f3b2c1e99]' }),
      () => badParam('input.message', 'Param message mentions 2f1a7a4e-9c1b-4c4f-8a8a-0d6f3b2c1e99, which names no user, page or group'),
    ],
    [
      'a mention of a post (not a user, page or group)',
      () => ({ message: `Hi @[${post.id}]` }),
      () => badParam('input.message', `Param message mentions ${post.id}, which names no user, page or group`),
    ],
    [
      'a mention of an organization',
      () => ({ message: `Hi @[${page.organizationId}]` }),
      () => badParam('input.message', `Param message mentions ${page.organizationId}, which names no user, page or group`),
    ],
  ];

  it.each(SURFACES.flatMap((surface) => MESSAGES.map((row) => [surface, ...row] as const)))(
    '%s: %s, on publish and on edit',
    async (surface, _label, params, refusal) => {
      await expectRefused(() => write.publish(surface, post.id, params(), 'commenter'), refusal());
      await expectRefused(() => write.publish(surface, comment, params(), 'commenter'), refusal(), [comment]);
      await expectRefused(() => write.edit(surface, comment, params(), 'commenter'), refusal(), [comment]);
    },
  );

  it.each(SURFACES)('%s: the limit holds for the message as stored, with its mentions written as names', async (surface) => {
    // 7980 + "@[<15-digit page id>]" is 7998 as sent; with the page's name (7 code points) in place 7987: accepted.
    const fits = `${'c'.repeat(7980)}@[${page.id}]`;
    expect(fits).toHaveLength(7998);
    const id = publishedId(await write.publish(surface, post.id, { message: fits }, 'commenter'));
    expect([...((await readBack(id, 'commenter', 'message')).body.message as string)]).toHaveLength(7987);
    // The same as sent, but the name is 200 characters: 8180 as stored is over.
    const longName = await insertPage(page.organizationId, 'N'.repeat(200));
    const over = `${'c'.repeat(7980)}@[${longName.id}]`;
    await expectRefused(
      () => write.publish(surface, post.id, { message: over }, 'commenter'),
      badParam('input.message', 'Param message must be at most 8000 characters with its mentions written as names'),
    );
    await expectRefused(
      () => write.edit(surface, comment, { message: over }, 'commenter'),
      badParam('input.message', 'Param message must be at most 8000 characters with its mentions written as names'),
      [comment],
    );
  });

  it.each(SURFACES)('%s: exactly 8000 code points are accepted', async (surface) => {
    const message = '\u{1F600}'.repeat(4000) + 'b'.repeat(4000);
    const id = publishedId(await write.publish(surface, post.id, { message }, 'commenter'));
    expect((await readBack(id, 'commenter', 'message')).body.message).toBe(message);
  });

  it('/v24.0: values that are not strings in a JSON body are error 100 naming the parameter', async () => {
    for (const [params, field] of [
      [{ message: 12 }, 'message'],
      [{ message: 'x', attachment_url: ['https://a.example/'] }, 'attachment_url'],
      [{ source: { a: 1 } }, 'source'],
    ] as const) {
      await expectRefused(
        async () => ({ rest: await g.call('POST', `/v24.0/${post.id}/comments`, { token: tokens.commenter, json: params }) }),
        badParam(field, `Param ${field} must be a string`),
      );
      await expectRefused(
        async () => ({ rest: await g.call('POST', `/v24.0/${comment}`, { token: tokens.commenter, json: params }) }),
        badParam(field, `Param ${field} must be a string`),
        [comment],
      );
    }
  });

  it.each(SURFACES)('%s: unknown ids are the unknown object error (100/33) on every write', async (surface) => {
    const missingPost = String(BigInt(post.id) + 9_000_000n);
    const missingComment = `${post.id}_${BigInt(internalId(comment)) + 9_000_000n}`;
    await expectRefused(() => write.publish(surface, missingPost, { message: 'x' }, 'commenter'), unknown(missingPost, 'post', 'Object'));
    await expectRefused(() => write.publish(surface, missingComment, { message: 'x' }, 'commenter'), unknown(missingComment, 'post'));
    await expectRefused(() => write.edit(surface, missingComment, { message: 'x' }, 'commenter'), unknown(missingComment, 'post'));
    await expectRefused(() => write.hide(surface, missingComment, true, 'moderator'), unknown(missingComment, 'post'));
    await expectRefused(() => write.remove(surface, missingComment, 'moderator'), unknown(missingComment, 'delete'));
    await expectRefused(() => write.like(surface, missingComment, true, 'commenter'), unknown(missingComment, 'post'));
    // A comment id under the wrong post names nothing either.
    const other = await insertPost('page_post', { pageId: page.id });
    const misplaced = `${other.id}_${internalId(comment)}`;
    await expectRefused(() => write.edit(surface, misplaced, { message: 'x' }, 'commenter'), unknown(misplaced, 'post'), [comment]);
  });

  it('the discontinued three-part id is error 100 on every write', async () => {
    const old = `${page.id}_${comment}`;
    const message = `The comment id ${old} uses the discontinued {page-id}_{post-id}_{comment-id} form: use {pagepost-id}_{comment-id}`;
    for (const surface of SURFACES) {
      // GraphQL names its own argument (publishComment's objectId); /v24.0 names the path's id.
      await expectRefused(() => write.publish(surface, old, { message: 'x' }, 'commenter'), badParam(surface === 'graphql' ? 'objectId' : 'id', message), [
        comment,
      ]);
      await expectRefused(() => write.edit(surface, old, { message: 'x' }, 'commenter'), badParam('id', message), [comment]);
      await expectRefused(() => write.hide(surface, old, true, 'moderator'), badParam('id', message), [comment]);
      await expectRefused(() => write.remove(surface, old, 'commenter'), badParam('id', message), [comment]);
      await expectRefused(() => write.like(surface, old, true, 'commenter'), badParam('id', message), [comment]);
    }
  });

  it('objects that cannot be commented on: a page, ad objects, a user', async () => {
    const account = await world.adAccount(page.organizationId);
    const [campaign] = await world.campaigns(account, 1);
    for (const target of [page.id, `act_${account.id}`, campaign!.id]) {
      await expectRefused(async () => ({ rest: await g.call('POST', `/v24.0/${target}/comments`, { token: tokens.admin, form: { message: 'x' } }) }), {
        code: 100,
        subcode: 33,
        gqlCode: 'NOT_FOUND',
        message: '',
        restMessage: UNKNOWN_OBJECT(`${target}/comments`, 'post'),
      });
    }
    for (const target of [page.id, campaign!.id]) {
      await expectRefused(() => write.publish('graphql', target, { message: 'x' }, 'admin'), unknown(target, 'post', 'Object'));
    }
    await expectRefused(() => write.publish('graphql', `act_${account.id}`, { message: 'x' }, 'admin'), {
      code: 100,
      gqlCode: 'BAD_USER_INPUT',
      field: 'objectId',
      message: 'objectId must be a comment id of the form <post id>_<comment id>.',
      noGraphApi: true,
    });
    await expectRefused(() => write.publish('graphql', people.stranger.id, { message: 'x' }, 'stranger'), {
      code: 100,
      gqlCode: 'BAD_USER_INPUT',
      field: 'objectId',
      message: 'objectId must be a numeric string.',
      noGraphApi: true,
    });
    await expectRefused(
      async () => ({ rest: await g.call('POST', `/v24.0/${people.stranger.id}/comments`, { token: tokens.stranger, form: { message: 'x' } }) }),
      {
        code: 100,
        subcode: 33,
        gqlCode: 'NOT_FOUND',
        message: '',
        restMessage: UNKNOWN_OBJECT(people.stranger.id, 'post'),
      },
    );
  });

  it('needs a valid token on every write: none or a bad one is error 190, nothing written', async () => {
    for (const token of [undefined, 'not-a-token']) {
      for (const [method, path] of [
        ['POST', `/v24.0/${post.id}/comments`],
        ['POST', `/v24.0/${comment}`],
        ['DELETE', `/v24.0/${comment}`],
        ['POST', `/v24.0/${comment}/likes`],
      ] as const) {
        const before = await snapshot([comment]);
        expectGraphError(await g.call(method, path, { token, form: { message: 'x' } }), { status: 400, code: 190, type: 'OAuthException' });
        expect(await snapshot([comment])).toEqual(before);
      }
    }
    const body = (await server.graphql('mutation ($id: ID!) { deleteComment(id: $id) }', { id: comment })).body;
    expect(firstError(body).extensions?.code).toBe('UNAUTHENTICATED');
    expect(
      await server.deps
        .db('comments')
        .where({ id: internalId(comment) })
        .first(),
    ).toBeDefined();
  });
});
