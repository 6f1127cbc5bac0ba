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
    admin: await user('admin'), advertiser: await user('advertiser'), auditor: await user('auditor'), moderator: await user('moderator'),
    member: await user('member'), outsider: await user('admin', otherOrganizationId), siteAdmin: (await world.user({ siteAdmin: true })).token,
    adsClient: await clientToken('ads_management'), adsReadClient: await clientToken('ads_read'), pagesClient: await clientToken('pages_manage_engagement'),
  };
}
