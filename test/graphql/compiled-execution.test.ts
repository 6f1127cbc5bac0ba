/**
 * The server executes operations with graphql-jit once a document comes back (src/graphql/compiled-execution.ts).
 * These tests hold it to graphql-js: each document is answered over HTTP by the server, interpreted and then
 * compiled, and executed in this process by graphql-js's
 * own `execute` on the same schema, as the same viewer, over the same database, and the two must agree: the
 * same data, errors at the same paths with the same codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type { ExecutionResult } from 'graphql';
import { startTestServer, type GraphQLBody, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { createRequestContext } from '../../src/context/index.ts';
import { resolvePrincipal } from '../../src/http/authenticate.ts';
import { kindOf } from '../../src/graphql/errors.ts';
import { INTERPRETED_RUNS } from '../../src/graphql/compiled-execution.ts';
import { commentExternalId } from '../../src/comments/store.ts';

// graphql's CommonJS build, the copy the schema is built with outside a test runner (the runner may also load
// its ESM build, whose functions refuse the other copy's schema).
const { execute, getIntrospectionQuery, parse } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

describe('compiled execution answers as graphql-js does', () => {
  let server: TestServer;
  let token: string;
  let outsiderToken: string;
  let ids: Record<'account' | 'adSet' | 'campaign' | 'post' | 'comment', string>;
  const schema = buildSchema();

  beforeAll(async () => {
    server = await startTestServer();
    const world = worldBuilder(server.deps);
    const org = await world.organization();
    const admin = await world.user({ organizationId: org.id, role: 'admin' });
    token = admin.token;
    outsiderToken = (await world.user({ organizationId: (await world.organization()).id, role: 'admin' })).token;
    const account = await world.adAccount(org.id);
    const [campaign] = await world.campaigns(account, 2);
    const adSets = await world.adSets(campaign!, 4, (i) => ({ status: (['ACTIVE', 'PAUSED', 'ARCHIVED', 'ACTIVE'] as const)[i]! }));
    for (const adSet of adSets) await world.ads(adSet, 2);
    const page = await world.page(org.id);
    const post = await world.post(page, admin.user.id);
    const comment = await world.comment(post);
    await world.comment(post, { parentId: comment.id, authorUserId: admin.user.id, authorPageId: null });
    ids = { account: account.id, adSet: adSets[0]!.id, campaign: campaign!.id, post: post.id, comment: commentExternalId(comment) };
  });
  afterAll(() => server?.close());

  /** graphql-js's answer to `query` from the viewer of the token `as`, executed in this process. */
  async function executedHere(query: string, variables: Record<string, unknown>, as: string, operationName?: string) {
    const viewer = await resolvePrincipal(server.deps, as);
    const contextValue = createRequestContext(server.deps, { requestId: 'graphql-js', viewer: viewer! });
    return (await execute({ schema, document: parse(query), contextValue, variableValues: variables, operationName })) as ExecutionResult;
  }

  /** graphql-js's answer, in the terms the server's answer is compared in. */
  async function interpreted(query: string, variables: Record<string, unknown>, as: string, operationName?: string) {
    const result = await executedHere(query, variables, as, operationName);
    return comparable({
      data: result.data ?? null,
      errors: result.errors?.map((error) => {
        const known = kindOf(error);
        return { message: error.message, path: error.path as string[] | undefined, extensions: { code: known.kind === 'domain' ? known.error.code : 'OTHER' } };
      }),
    });
  }

  /**
   * The server's answer, sent twice: a document's first run is interpreted by graphql-js, its later runs compiled
   * (INTERPRETED_RUNS), and both must be the same answer.
   */
  async function compiled(query: string, variables: Record<string, unknown>, as: string, operationName?: string) {
    const answers = [];
    for (let run = 0; run <= INTERPRETED_RUNS; run++) {
      const { status, body } = await server.graphql(query, variables, as, operationName);
      expect(status).toBe(200);
      answers.push(comparable(body));
    }
    expect(answers.at(-1)).toEqual(answers[0]);
    return answers.at(-1)!;
  }

  /** Data as it goes on the wire, and each error's path and code (the message is formatError's, on the server). */
  function comparable(body: GraphQLBody) {
    return {
      data: JSON.parse(JSON.stringify(body.data ?? null)) as unknown,
      errors: (body.errors ?? [])
        .map((e) => ({ path: e.path ?? null, code: e.extensions?.code }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    };
  }

  const documents: Array<[string, string, () => Record<string, unknown>, string?]> = [
    [
      'a nested read with lists, counts and page info',
      `query ($account: ID!) { adAccount(id: $account) { id name adSets(first: 3, effectiveStatus: [ACTIVE, PAUSED, ARCHIVED]) {
         totalCount pageInfo { hasNextPage endCursor } nodes { id name effectiveStatus dailyBudget targeting { geoLocations { countries } ageMin customAudiences { id } } campaign { id name } ads(first: 1) { totalCount nodes { id name } } } } } }`,
      () => ({ account: ids.account }),
    ],
    [
      'fragments, inline fragments on an interface and a union, and __typename',
      `fragment Names on AdSet { name campaign { ...CampaignName } } fragment CampaignName on Campaign { name }
       query ($adSet: ID!, $post: ID!) {
         node(id: $adSet) { __typename id ...Names ... on Campaign { objective } }
         post: node(id: $post) { __typename ... on Post { message from { __typename ... on Person { id name } ... on Page { id name } }
           comments(first: 5, filter: STREAM) { nodes { id message isHidden from { __typename } parent { id } } } } } }`,
      () => ({ adSet: ids.adSet, post: ids.post }),
    ],
    [
      '@include and @skip from variables',
      'query ($id: ID!, $withCampaign: Boolean!, $bare: Boolean!) { adSet(id: $id) { id name @skip(if: $bare) campaign @include(if: $withCampaign) { id } } }',
      () => ({ id: ids.adSet, withCampaign: true, bare: true }),
    ],
    [
      'the operation named among several',
      'query First { me { id } } query Second($id: ID!) { campaign(id: $id) { id name } }',
      () => ({ id: ids.campaign }),
      'Second',
    ],
    ['introspection, as the IDE asks it', getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }), () => ({})],
    [
      "a domain error at a field's path, beside data",
      'query ($comment: ID!) { me { id } comment(id: $comment) { id } adSets: adAccount(id: "x") { id } }',
      () => ({ comment: ids.comment }),
    ],
  ];

  it.each(documents)('%s', async (_name, query, variables, operationName) => {
    const [theirs, ours] = [await interpreted(query, variables(), token, operationName), await compiled(query, variables(), token, operationName)];
    expect(ours).toEqual(theirs);
    expect(ours.data).not.toBeNull();
  });

  it('agrees for a viewer who may read less (nulls where the object is out of reach)', async () => {
    const [, query, variables] = documents[0]!;
    const ours = await compiled(query, variables(), outsiderToken);
    expect(ours).toEqual(await interpreted(query, variables(), outsiderToken));
    expect(ours.data).toEqual({ adAccount: null });
  });

  it.each([
    ['{ a: __typename }', '0'],
    ['{ a: __typename }', ''],
    ['query A { a: __typename } query B { b: __typename }', 'C'],
    ['query A { a: __typename } query B { b: __typename }', undefined],
  ])('refuses %j with operation name %j in graphql-js’s words, with 400', async (query, operationName) => {
    const { status, body } = await server.graphql(query, undefined, token, operationName);
    const expected = await execute({ schema, document: parse(query), operationName });
    expect(status).toBe(400);
    expect(body).toEqual({ errors: [{ message: expected.errors![0]!.message, extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }] });
  });

  it('refuses variables with graphql-js’s words, as BAD_USER_INPUT, and runs nothing', async () => {
    const query = 'query ($first: Int!, $status: [EffectiveStatus!]) { adAccount(id: "1") { adSets(first: $first, effectiveStatus: $status) { totalCount } } }';
    // Run once with good variables, so that the refused ones meet the compiled document.
    for (let run = 0; run < INTERPRETED_RUNS; run++) expect((await server.graphql(query, { first: 1, status: ['ACTIVE'] }, token)).status).toBe(200);
    const refused = { first: 'ten', status: ['SOMETIMES'] };
    const { status, body } = await server.graphql(query, refused, token);
    const expected = await executedHere(query, refused, token);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors!.map((e) => e.message)).toEqual(expected.errors!.map((e) => e.message));
    expect(body.errors!.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
  });
});
