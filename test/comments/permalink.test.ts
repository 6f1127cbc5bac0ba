import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { expectGraphError, graphClient, type GraphClient } from '../helpers/graph.ts';
import { fetchAccessToken } from '../helpers/oauth.ts';
import { PAGE_CLIENT_SCOPES } from '../helpers/principals.ts';
import { createClient } from '../../src/oauth/service.ts';
import { commentExternalId } from '../../src/comments/store.ts';

/**
 * permalink_url (the specification: "not returned ... when the calling app only has the public-content page
 * access feature"): a client reads its own organization's pages only, so no caller reads a page as public content
 * alone; the permalink reaches whoever may read the comment (its page's client, a visitor where the comment shows)
 * and nobody else: a hidden comment, or another organization's page, is missing for them, permalink included.
 */
let server: TestServer;
let graph: GraphClient;
let ownClient: string;
let otherClient: string;
let visitor: string;
let commentId: string;
let hiddenId: string;

beforeAll(async () => {
  server = await startTestServer();
  const world = worldBuilder(server.deps);
  graph = graphClient(server);
  const org = await world.organization();
  const other = await world.organization();
  const page = await world.page(org.id);
  const post = await world.post(page);
  commentId = commentExternalId(await world.comment(post));
  hiddenId = commentExternalId(await world.comment(post, { isHidden: true }));
  const token = async (organization: string) => {
    const { client, clientSecret } = await createClient(server.deps, { name: 'reader', scope: PAGE_CLIENT_SCOPES.pageClient, organization });
    return fetchAccessToken(server.url, client.clientId, clientSecret);
  };
  ownClient = await token(org.id);
  otherClient = await token(other.id);
  visitor = (await world.user()).token;
});
afterAll(() => server?.close());

describe('permalink_url', () => {
  const expected = () => `${server.deps.config.publicUrl}/${commentId.replace('_', '?comment_id=')}`;

  it("is read by the page's own client and by a person who may read the comment", async () => {
    for (const token of [ownClient, visitor]) {
      expect((await graph.get(commentId, token, { fields: 'message,permalink_url' })).body.permalink_url).toBe(expected());
    }
  });

  it('reaches nobody who may not read the comment: a hidden one is missing for a visitor, and a client of another organization reads no page of it', async () => {
    // A client reads its own organization's pages only (there is no public-content access): for another's, the comment does not exist.
    expectGraphError(await graph.get(commentId, otherClient, { fields: 'permalink_url' }), { status: 400, code: 100, subcode: 33 });
    expectGraphError(await graph.get(hiddenId, visitor, { fields: 'permalink_url' }), { status: 400, code: 100, subcode: 33 });
    expect((await graph.get(hiddenId, ownClient, { fields: 'permalink_url' })).body.permalink_url).toBe(
      `${server.deps.config.publicUrl}/${hiddenId.replace('_', '?comment_id=')}`,
    );
  });
});
