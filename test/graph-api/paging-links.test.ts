import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import type { AdAccountRecord, CampaignRecord } from '../../src/ads/store.ts';

/**
 * paging.next and paging.previous point at the server's configured address (PUBLIC_URL, here with a path, as behind a
 * proxy that serves it under /graph), never at the Host or X-Forwarded-Host a request names: those are the caller's
 * to choose, and a link carries the caller's access_token when it came as a parameter. TRUST_PROXY is on, so even a
 * trusted proxy's forwarded host does not move the links.
 */
const PUBLIC_URL = 'https://ads.example.com/graph';

let server: TestServer;
let token: string;
let account: AdAccountRecord;
let campaigns: CampaignRecord[];

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL, TRUST_PROXY: 'loopback', ASYNC_RUNNER: 'false' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  token = (await world.user({ organizationId: org.id, role: 'advertiser' })).token;
  account = await world.adAccount(org.id);
  campaigns = await world.campaigns(account, 5);
});
afterAll(() => server?.close());

/** A GET over node:http, which sends the Host header it is given (fetch would put the server's own). */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** What the proxy in front does with a link: the public address routed to this instance. */
const routed = (link: string) => link.replace(PUBLIC_URL, server.url);

const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9' };

describe('paging links', () => {
  it('point at PUBLIC_URL whatever Host and X-Forwarded-Host say, and carry the query token', async () => {
    const first = await get(`/v24.0/act_${account.id}/campaigns?limit=2&fields=name&access_token=${token}`, FORGED);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const next: string = first.body.paging.next;
    expect(next.startsWith(`${PUBLIC_URL}/v24.0/act_${account.id}/campaigns?`), next).toBe(true);
    expect(next).not.toContain('evil.example');
    expect(new URL(next).searchParams.get('access_token')).toBe(token);
    expect(new URL(next).searchParams.get('fields')).toBe('name');

    const second = await get(new URL(routed(next)).pathname + new URL(next).search, FORGED);
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual(campaigns.slice(2, 4).map((c) => c.id));
    const previous: string = second.body.paging.previous;
    expect(previous.startsWith(`${PUBLIC_URL}/v24.0/act_${account.id}/campaigns?`), previous).toBe(true);
  });

  it('carry no token that came in the Authorization header', async () => {
    const first = await get(`/v24.0/act_${account.id}/campaigns?limit=2`, { ...FORGED, authorization: `Bearer ${token}` });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const next: string = first.body.paging.next;
    expect(next.startsWith(`${PUBLIC_URL}/v24.0/`), next).toBe(true);
    expect(new URL(next).searchParams.has('access_token')).toBe(false);
  });

  it('in a batch item too', async () => {
    const response = await fetch(`${server.url}/v24.0/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-host': 'evil.example' },
      body: new URLSearchParams({ access_token: token, batch: JSON.stringify([{ method: 'GET', relative_url: `act_${account.id}/campaigns?limit=1` }]) }),
    });
    const [item] = (await response.json()) as Array<{ code: number; body: string }>;
    expect(item!.code).toBe(200);
    expect(JSON.parse(item!.body).paging.next.startsWith(`${PUBLIC_URL}/v24.0/act_${account.id}/campaigns?`)).toBe(true);
  });
});
