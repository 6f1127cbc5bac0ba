import { createClient } from '../../src/oauth/service.ts';
import { fetchAccessToken } from './oauth.ts';
import type { TestServer } from './server.ts';
import { worldBuilder } from './world.ts';

/**
 * One principal of each kind the ad object tests ask about: a user in each role of one organization, an admin
 * of another organization (the outsider), a site admin, and API clients of the organization with the ads and
 * page scopes. Tokens, as the callers send them.
 */
export type Role = 'admin' | 'advertiser' | 'auditor' | 'moderator' | 'member' | 'outsider' | 'siteAdmin' | 'adsClient' | 'adsReadClient' | 'pagesClient';

export async function principalTokens(server: TestServer, organizationId: string, otherOrganizationId: string): Promise<Record<Role, string>> {
  const world = worldBuilder(server.deps);
  const user = async (role: 'admin' | 'advertiser' | 'auditor' | 'moderator' | 'member', orgId = organizationId) =>
    (await world.user({ organizationId: orgId, role })).token;
  const clientToken = async (scope: string) => {
    const { client, clientSecret } = await createClient(server.deps, { name: `client ${scope}`, scope, organization: organizationId });
    return fetchAccessToken(server.url, client.clientId, clientSecret);
  };
  return {
    admin: await user('admin'),
    advertiser: await user('advertiser'),
    auditor: await user('auditor'),
    moderator: await user('moderator'),
    member: await user('member'),
    outsider: await user('admin', otherOrganizationId),
    siteAdmin: (await world.user({ siteAdmin: true })).token,
    adsClient: await clientToken('ads_management'),
    adsReadClient: await clientToken('ads_read'),
    pagesClient: await clientToken('pages_manage_engagement'),
  };
}

/**
 * API clients of a page's organization by their page scopes, as the comment tests name them: the full page
 * token, the two permission sets for deleting comments, and the partial ones that must be refused.
 */
export const PAGE_CLIENT_SCOPES = {
  pageClient: 'pages_manage_engagement pages_read_engagement pages_read_user_content',
  engagementClient: 'pages_manage_engagement pages_read_engagement',
  userContentClient: 'pages_manage_engagement pages_read_user_content',
  manageClient: 'pages_manage_engagement',
  readClient: 'pages_read_engagement',
  readUserContentClient: 'pages_read_user_content',
  readBothClient: 'pages_read_engagement pages_read_user_content',
  adsClient: 'ads_management',
} as const;
export type PageClient = keyof typeof PAGE_CLIENT_SCOPES;

const PAGE_ROLES = ['owner', 'admin', 'moderator', 'advertiser', 'auditor'] as const;
export type PageRole = (typeof PAGE_ROLES)[number];

export interface Signed {
  id: string;
  name: string;
  token: string;
}

/**
 * The cast of the comment tests around one organization's page: a user in each role of it, the given people
 * with no organization, a site admin, and tokens of the given page clients.
 */
export async function pageCast<P extends string, C extends PageClient>(
  server: TestServer,
  organizationId: string,
  others: readonly P[],
  clients: readonly C[],
) {
  const world = worldBuilder(server.deps);
  const people = {} as Record<PageRole | P | 'siteAdmin', Signed>;
  const sign = async (options: Parameters<typeof world.user>[0]): Promise<Signed> => {
    const { user, token } = await world.user(options);
    return { id: user.id, name: user.name || user.username, token };
  };
  for (const role of PAGE_ROLES) people[role] = await sign({ organizationId, role });
  for (const who of others) people[who] = await sign({});
  people.siteAdmin = await sign({ siteAdmin: true });
  const clientTokens = {} as Record<C, string>;
  for (const name of clients) {
    const { client, clientSecret } = await createClient(server.deps, { name, scope: PAGE_CLIENT_SCOPES[name], organization: organizationId });
    clientTokens[name] = await fetchAccessToken(server.url, client.clientId, clientSecret);
  }
  return { people, clientTokens };
}
