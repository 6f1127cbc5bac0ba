import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { pointSdkAt, type SdkCursor } from '../helpers/sdk.ts';
import { expectGraphError, graphClient, type GraphClient } from '../helpers/graph.ts';
import { commentExternalId } from '../../src/comments/store.ts';

/**
 * Reactions on comments (LIKE, LOVE, WOW, HAHA, SAD, ANGRY, CARE), in one store with the likes (a like is the LIKE
 * reaction): POST /<comment>/reactions with type, DELETE to take it back, /reactions with type and
 * summary=total_count (the SDK's getReactions), GraphQL react and reactionCounts; like_count and /likes follow the
 * LIKE reactions; one reaction per person, a new one replacing the old.
 */
const sdk = bizSdk as unknown as { Comment: new (id: string) => { getReactions(fields: string[], params?: Record<string, unknown>): Promise<SdkCursor> } };

let server: TestServer;
let graph: GraphClient;
let fans: Array<{ token: string; user: { id: string } }>;
let commentId: string;
let postId: string;
let restoreSdk: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  const page = await world.page(org.id);
  const post = await world.post(page);
  postId = post.id;
  commentId = commentExternalId(await world.comment(post));
  fans = [await world.user(), await world.user(), await world.user()];
  restoreSdk = pointSdkAt(server.url, fans[0]!.token);
});
afterAll(async () => {
  restoreSdk?.();
  await server?.close();
});

const react = (who: number, type: string) => graph.call('POST', `/v24.0/${commentId}/reactions`, { token: fans[who]!.token, form: { type } });
const counts = async () => {
  const { body } = await server.graphql('query ($id: ID!) { comment(id: $id) { likeCount reactionCounts { type count } } }', { id: commentId }, fans[0]!.token);
  return (body.data as { comment: unknown }).comment;
};

describe('reactions', () => {
  it('each person has one reaction; a new one replaces it; likes and like_count are the LIKE ones', async () => {
    expect((await react(0, 'LOVE')).body).toEqual({ success: true });
    expect((await react(1, 'LIKE')).body).toEqual({ success: true });
    expect((await react(2, 'HAHA')).body).toEqual({ success: true });
    // The first person changes their mind: one reaction each, still.
    expect((await react(0, 'LIKE')).body).toEqual({ success: true });
    expect(await counts()).toEqual({
      likeCount: 2,
      reactionCounts: [
        { type: 'LIKE', count: 2 },
        { type: 'HAHA', count: 1 },
      ],
    });

    const all = await graph.get(`${commentId}/reactions`, fans[1]!.token, { fields: 'id,type', summary: 'total_count' });
    expect(all.body.summary).toEqual({ total_count: 3 });
    expect(all.body.data.map((r: { type: string }) => r.type).sort()).toEqual(['HAHA', 'LIKE', 'LIKE']);
    const laughs = await new sdk.Comment(commentId).getReactions(['id', 'type'], { type: 'HAHA' });
    expect(laughs.map((r) => r._data)).toEqual([{ id: fans[2]!.user.id, type: 'HAHA' }]);
    expect((await graph.get(`${commentId}/likes`, fans[1]!.token, { summary: 'total_count' })).body.summary).toEqual({ total_count: 2 });
  });

  it('DELETE /reactions takes one back; unliking leaves another reaction alone', async () => {
    expect((await graph.call('DELETE', `/v24.0/${commentId}/reactions`, { token: fans[2]!.token })).body).toEqual({ success: true });
    // The HAHA is not a like: DELETE /likes changes nothing for it.
    await react(2, 'SAD');
    expect((await graph.call('DELETE', `/v24.0/${commentId}/likes`, { token: fans[2]!.token })).body).toEqual({ success: true });
    expect(await counts()).toEqual({
      likeCount: 2,
      reactionCounts: [
        { type: 'LIKE', count: 2 },
        { type: 'SAD', count: 1 },
      ],
    });
  });

  it('GraphQL react sets, replaces and (without type) takes back', async () => {
    const mutate = (type?: string) =>
      server.graphql(
        'mutation ($id: ID!, $type: ReactionType) { react(id: $id, type: $type) { likeCount reactionCounts { type count } } }',
        { id: commentId, type },
        fans[1]!.token,
      );
    expect((await mutate('CARE')).body.data).toEqual({
      react: {
        likeCount: 1,
        reactionCounts: [
          { type: 'LIKE', count: 1 },
          { type: 'SAD', count: 1 },
          { type: 'CARE', count: 1 },
        ],
      },
    });
    expect((await mutate()).body.data).toEqual({
      react: {
        likeCount: 1,
        reactionCounts: [
          { type: 'LIKE', count: 1 },
          { type: 'SAD', count: 1 },
        ],
      },
    });
  });

  it('refuses a type that is no reaction, naming it, and changes nothing', async () => {
    const before = await counts();
    expectGraphError(await react(0, 'MEH'), { status: 400, code: 100, message: /Param type must be one of \{LIKE, LOVE, WOW, HAHA, SAD, ANGRY, CARE\}/ });
    expectGraphError(await graph.call('POST', `/v24.0/${commentId}/reactions`, { token: fans[0]!.token, form: {} }), {
      status: 400,
      code: 100,
      message: /type is required/,
    });
    expectGraphError(await graph.get(`${commentId}/reactions`, fans[0]!.token, { type: 'MEH' }), {
      status: 400,
      code: 100,
      message: /Param type must be one of/,
    });
    expect(await counts()).toEqual(before);
  });

  it('posts take reactions too: POST and DELETE /<post>/reactions, the edge with its summary, GraphQL reactToPost and reactionCounts', async () => {
    const on = (who: number, type: string) => graph.call('POST', `/v24.0/${postId}/reactions`, { token: fans[who]!.token, form: { type } });
    expect((await on(0, 'WOW')).body).toEqual({ success: true });
    expect((await on(1, 'WOW')).body).toEqual({ success: true });
    expect((await on(1, 'CARE')).body).toEqual({ success: true });
    const edge = await graph.get(`${postId}/reactions`, fans[2]!.token, { fields: 'id,type', summary: 'total_count' });
    expect(edge.body.summary).toEqual({ total_count: 2 });
    expect(edge.body.data.map((r: { id: string; type: string }) => `${r.id}:${r.type}`).sort()).toEqual(
      [`${fans[0]!.user.id}:WOW`, `${fans[1]!.user.id}:CARE`].sort(),
    );
    expect((await graph.call('DELETE', `/v24.0/${postId}/reactions`, { token: fans[0]!.token })).body).toEqual({ success: true });
    const { body } = await server.graphql(
      'mutation ($id: ID!) { reactToPost(id: $id, type: ANGRY) { reactionCounts { type count } reactions(type: ANGRY) { totalCount nodes { type } } } }',
      { id: postId },
      fans[2]!.token,
    );
    expect(body.data).toEqual({
      reactToPost: {
        reactionCounts: [
          { type: 'ANGRY', count: 1 },
          { type: 'CARE', count: 1 },
        ],
        reactions: { totalCount: 1, nodes: [{ type: 'ANGRY' }] },
      },
    });
  });
});
