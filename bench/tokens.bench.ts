/**
 * The token endpoint under load, against a real server in its own process on a loopback port over a fresh
 * SQLite database with the demo data (`npm run bench -- tokens` alone). Scenarios, all measured in the same run:
 *
 *   (a) POST /oauth2/token for one repeat client: its verification is remembered (CLIENT_AUTH_CACHE_SECONDS),
 *       so a request costs an RS256 signature, not a bcrypt.
 *   (b) POST /oauth2/token for many cold clients: BENCH_COLD_CLIENTS clients (default 200) created up front,
 *       one request each, so every request costs a bcrypt (BCRYPT_COST, default 10) in the worker pool.
 *   (c) p99 of a light GraphQL query (`{ me { id } }`, session-authenticated) alone, at a fixed offered rate
 *       (BENCH_LIGHT_RATE req/s, default 200, well below saturation, so p99 measures latency, not queueing
 *       behind the benchmark's own requests).
 *   (d) the same query at the same rate while (b)'s load runs concurrently on a second set of cold clients;
 *       (d') is that token load.
 *   (e)/(f) failed authentications, wrong secret vs unknown client, side by side (both must cost one
 *       bcrypt: about the same time); their 401s are expected.
 *
 * Printed: req/s, p50 and p99 for each, the bcrypt checks each scenario caused (counted at the server's worker
 * pool, by bench/count-bcrypt.ts loaded into its process),
 * and the ratios (a)/(b) req/s, (d)/(c) p99 and (f)/(e) p50. Any unexpected status fails the run.
 * Knobs: BENCH_SECONDS (default 5, for (a) and (c)), BENCH_CONNECTIONS (default 10), BENCH_COLD_CLIENTS,
 * BENCH_LIGHT_RATE, and the server's own environment (BCRYPT_COST, CLIENT_AUTH_CACHE_SECONDS, ...).
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { allocateIds } from '../src/db/ids.ts';
import { createClient } from '../src/oauth/service.ts';
import { apiClients } from '../src/oauth/store.ts';
import type { AppDeps } from '../src/context/index.ts';
import {
  autocannon,
  CONNECTIONS,
  DEMO_ORGANIZATION,
  positive,
  printTable,
  SECONDS,
  withDemoServer,
  type AutocannonResult,
  type SectionOutcome,
  type Tracker,
} from './harness.ts';

const COLD = positive('BENCH_COLD_CLIENTS', 200);
const LIGHT_RATE = positive('BENCH_LIGHT_RATE', 200);
// Enough connections that a slower answer does not hold back the offered rate (coordinated omission).
const LIGHT_CONNECTIONS = 16;
const FAILURES = 40;
const LIGHT = '{ me { id } }';

interface Row {
  name: string;
  result: AutocannonResult;
  bcrypt: number;
  expected: number[];
}

/**
 * Clients, made through the service before the server starts: one repeat client, and two sets of cold ones (a
 * little more than needed: autocannon may build a request per connection that it never sends). The cold clients
 * are copies of one client made through the service: one secret and stored hash, their own client_id each. A
 * verification is remembered by client_id, so each still costs a bcrypt when used; making them costs one bcrypt in
 * all, not one each.
 */
async function makeClients(deps: AppDeps) {
  const setupStarted = Date.now();
  const [repeat, template] = await Promise.all(
    ['repeat', 'cold'].map(async (name) => {
      const made = await createClient(deps, { name, scope: 'ads_read', organization: DEMO_ORGANIZATION });
      return { client: made.client, clientId: made.client.clientId, secret: made.clientSecret };
    }),
  );
  const make = (count: number, prefix: string) =>
    deps.db.transaction(async (trx) => {
      const ids = await allocateIds(trx, 'api_client', count);
      const made = ids.map((id, i) => ({ ...template!.client, id, clientId: randomUUID(), clientName: `${prefix} ${i}` }));
      for (let i = 0; i < made.length; i += 100) await trx(apiClients.table).insert(made.slice(i, i + 100).map((c) => apiClients.toRow(c)));
      return made.map((c) => ({ clientId: c.clientId, secret: template!.secret }));
    });
  const coldB = await make(COLD + 2 * CONNECTIONS, 'cold-b');
  const coldD = await make(COLD + 2 * CONNECTIONS, 'cold-d');
  return { repeat: repeat!, coldB, coldD, setupSeconds: (Date.now() - setupStarted) / 1000 };
}

export const benchTokens = (): Promise<SectionOutcome> =>
  withDemoServer(
    {
      // Failed attempts are part of the run: keep the brute-force limits out of the way.
      env: { RATE_LIMIT_TOKEN_CLIENT: '1000000/900', RATE_LIMIT_TOKEN_IP: '1000000/900' },
      prepare: makeClients,
      // Proof that (a) is served from memory and (b) is not.
      countBcrypt: true,
    },
    async ({ url: base, config, summary, sessionToken, bcryptChecks, prepared: { repeat, coldB, coldD, setupSeconds } }) => {
      const form = (clientId: string, secret: string) =>
        new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString();
      const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

      // Check once before timing: a fast error is not a fast answer.
      const first = await fetch(`${base}/oauth2/token`, { method: 'POST', headers: formHeaders, body: form(repeat.clientId, repeat.secret) });
      if (first.status !== 200) throw new Error(`token request failed: ${first.status} ${await first.text()}`);
      const graphqlHeaders = { 'content-type': 'application/json', 'service-session-token': sessionToken };
      const light = await fetch(`${base}/graphql`, { method: 'POST', headers: graphqlHeaders, body: JSON.stringify({ query: LIGHT }) });
      const lightBody = (await light.json()) as { data?: { me?: { id: string } }; errors?: unknown };
      if (light.status !== 200 || !lightBody.data?.me?.id) throw new Error(`${LIGHT} answered ${light.status}: ${JSON.stringify(lightBody)}`);

      const rows: Row[] = [];
      const measure = async (name: string, run: () => Tracker, expected = [200]) => {
        const before = await bcryptChecks();
        const result = await run();
        rows.push({ name, result, bcrypt: (await bcryptChecks()) - before, expected });
        return result;
      };

      /** One request per client of the set, each a different client. */
      const coldLoad = (clients: Array<{ clientId: string; secret: string }>) => {
        let next = 0;
        return autocannon({
          url: base,
          connections: CONNECTIONS,
          amount: COLD,
          requests: [
            {
              method: 'POST',
              path: '/oauth2/token',
              headers: formHeaders,
              setupRequest: (req) => {
                const client = clients[next++];
                if (!client) throw new Error('ran out of cold clients');
                return { ...req, body: form(client.clientId, client.secret) };
              },
            },
          ],
        });
      };
      const lightLoad = (duration: number) =>
        autocannon({
          url: `${base}/graphql`,
          connections: LIGHT_CONNECTIONS,
          overallRate: LIGHT_RATE,
          duration,
          method: 'POST',
          headers: graphqlHeaders,
          body: JSON.stringify({ query: LIGHT }),
        });

      const a = await measure('(a) token, one repeat client (remembered)', () =>
        autocannon({
          url: `${base}/oauth2/token`,
          connections: CONNECTIONS,
          duration: SECONDS,
          method: 'POST',
          headers: formHeaders,
          body: form(repeat.clientId, repeat.secret),
        }),
      );
      const b = await measure(`(b) token, ${COLD} cold clients (bcrypt each)`, () => coldLoad(coldB));
      const c = await measure(`(c) ${LIGHT} at ${LIGHT_RATE} req/s, alone`, () => lightLoad(SECONDS));

      // (d): the light query for exactly as long as a second cold-client load takes.
      const before = await bcryptChecks();
      const lightRun = lightLoad(3_600);
      const tokenRun = coldLoad(coldD);
      const dPrime = await tokenRun;
      const dPrimeChecks = (await bcryptChecks()) - before;
      lightRun.stop();
      const d = await lightRun;
      rows.push({ name: `(d) ${LIGHT} at ${LIGHT_RATE} req/s, during (b)'s load`, result: d, bcrypt: 0, expected: [200] });
      rows.push({ name: "(d') token, cold clients, during (d)", result: dPrime, bcrypt: dPrimeChecks, expected: [200] });

      // (e)/(f): the two failures that must look alike, one bcrypt each; run side by side (one connection
      // each) so both see the same machine, after a first unknown-client request has made the dummy hash.
      const unknownId = '00000000-0000-4000-8000-000000000000';
      await fetch(`${base}/oauth2/token`, { method: 'POST', headers: formHeaders, body: form(unknownId, 'warm-up') });
      const failing = (clientId: string, secret: string) =>
        autocannon({ url: `${base}/oauth2/token`, connections: 1, amount: FAILURES, method: 'POST', headers: formHeaders, body: form(clientId, secret) });
      const beforeFailures = await bcryptChecks();
      const [e, f] = await Promise.all([failing(repeat.clientId, `${repeat.secret}-wrong`), failing(unknownId, repeat.secret)]);
      const failureChecks = (await bcryptChecks()) - beforeFailures;
      rows.push({ name: '(e) token, wrong secret (401 expected)', result: e, bcrypt: NaN, expected: [401] });
      rows.push({ name: '(f) token, unknown client, alongside (e) (401 expected)', result: f, bcrypt: NaN, expected: [401] });

      const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
      console.log(
        `adgraph token benchmark: SQLite, demo data (${summary.counts.adSets} ad sets), BCRYPT_COST=${config.bcryptCost}, ` +
          `CLIENT_AUTH_CACHE_SECONDS=${config.clientAuthCacheSeconds}, ${availableParallelism()} cores (${cpu}), Node ${process.version}\n` +
          `token loads: ${CONNECTIONS} connections; light query: ${LIGHT_CONNECTIONS} connections at ${LIGHT_RATE} req/s; ` +
          `(a)/(c) ${SECONDS}s; ${2 * (COLD + 2 * CONNECTIONS) + 2} clients created in ${setupSeconds.toFixed(1)}s\n`,
      );
      printTable(
        rows.map(({ name, result, bcrypt }) => ({
          scenario: name,
          'req/s': (result.requests.total / Math.max(result.duration, 0.001)).toFixed(0),
          'p50 ms': String(result.latency.p50),
          'p99 ms': String(result.latency.p99),
          requests: String(result.requests.total),
          bcrypt: Number.isNaN(bcrypt) ? `${failureChecks} (e+f)` : String(bcrypt),
          statuses: Object.entries(result.statusCodeStats)
            .map(([code, { count }]) => `${code}:${count}`)
            .join(' '),
          'errors/timeouts': `${result.errors}/${result.timeouts}`,
        })),
        ['statuses'],
      );

      const rps = (r: AutocannonResult) => r.requests.total / Math.max(r.duration, 0.001);
      console.log('');
      const ratio = (label: string, value: string) => console.log(`${label.padEnd(58)} ${value}`);
      ratio('(a)/(b) req/s, repeat client vs cold clients:', `${(rps(a) / rps(b)).toFixed(1)}x`);
      ratio(
        `(d)/(c) p99 of ${LIGHT}, under token load vs alone:`,
        `${(d.latency.p99 / Math.max(c.latency.p99, 1)).toFixed(2)}x  (${d.latency.p99} ms vs ${c.latency.p99} ms)`,
      );
      ratio(
        '(f)/(e) p50, unknown client vs wrong secret:',
        `${(f.latency.p50 / Math.max(e.latency.p50, 1)).toFixed(2)}x  (${f.latency.p50} ms vs ${e.latency.p50} ms)`,
      );

      const unexpected = rows.filter(
        ({ result, expected }) =>
          result.errors > 0 ||
          result.timeouts > 0 ||
          result.requests.total === 0 ||
          Object.keys(result.statusCodeStats).some((code) => !expected.includes(Number(code))),
      );
      for (const { name, result } of unexpected)
        console.error(
          `\n${name}: unexpected answers: status codes ${JSON.stringify(result.statusCodeStats)}, errors ${result.errors}, timeouts ${result.timeouts}`,
        );
      if (unexpected.length === 0) console.log('\nevery answer as expected: 2xx everywhere except the 401s of (e) and (f)');
      return { ok: unexpected.length === 0, goals: [] };
    },
  );
