/**
 * patches/@apollo+server+*.patch (applied by `npm ci`'s postinstall, patch-package), three changes to what Apollo
 * does for every request, each held here to what Apollo did before (docs/benchmarks.md, "Against the peers"):
 * - the request context Apollo hands a gateway executor (src/graphql/compiled-execution.ts) had `response.http` as
 *   an object literal with a getter and setter made for every request. V8 keeps such accessors in an old-generation
 *   object, which held the request's whole context through every young-generation collection until a full one: a
 *   tenth of the CPU of a small request went to promoting garbage. The patch makes it a class with the same getter
 *   and setter: `status` reads and writes the response's status, `headers` the response's headers;
 * - the query's hash (the document cache's key, and what a persisted query is checked against) was a Hash object
 *   per request; now Node's one-shot `crypto.hash`, the same SHA-256 digest, remembered by the text (up to 500 texts
 *   of up to 4,096 characters);
 * - the media types Negotiator prefers for an Accept header were worked out by a new Negotiator per request (one
 *   even without the header); now remembered per header, at most 64 of them, the same answers.
 * These tests fail when the patch is not applied.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApolloServer, HeaderMap } from '@apollo/server';

type GatewayContext = { response: { http: { status?: number; headers: { get(name: string): string | null; set(name: string, value: string): void } } } };
type Maker = (requestContext: unknown, server: unknown, internals: unknown) => GatewayContext;

// The module is internal to Apollo (no export names it): loaded from its file, both builds Apollo ships.
const entry = createRequire(import.meta.url).resolve('@apollo/server'); // <package>/dist/cjs/index.js
const packageRoot = dirname(dirname(dirname(entry)));
const makers = async (): Promise<Array<[string, Maker]>> =>
  Promise.all(
    ['esm', 'cjs'].map(async (build) => {
      const file = pathToFileURL(join(packageRoot, 'dist', build, 'utils', 'makeGatewayGraphQLRequestContext.js')).href;
      const module = (await import(file)) as { makeGatewayGraphQLRequestContext?: Maker; default?: { makeGatewayGraphQLRequestContext: Maker } };
      return [build, module.makeGatewayGraphQLRequestContext ?? module.default!.makeGatewayGraphQLRequestContext] as [string, Maker];
    }),
  );

/** A module of Apollo's, from both builds it ships (`utils/…`), with the export named `name`. */
const fromBothBuilds = async <T>(path: string, name: string): Promise<Array<[string, T]>> =>
  Promise.all(
    ['esm', 'cjs'].map(async (build) => {
      const module = (await import(pathToFileURL(join(packageRoot, 'dist', build, path)).href)) as Record<string, unknown> & {
        default?: Record<string, unknown>;
      };
      return [build, (module[name] ?? module.default![name]) as T] as [string, T];
    }),
  );

const apolloRequestContext = () => ({
  request: { query: '{ __typename }', http: { method: 'POST', search: '', headers: new HeaderMap() } },
  response: { http: { status: undefined as number | undefined, headers: new HeaderMap() } },
});

describe("Apollo's gateway request context (patched)", () => {
  it('has no accessor of its own on response.http: the status accessor is on its class', async () => {
    for (const [build, make] of await makers()) {
      const made = make(apolloRequestContext(), { logger: console, cache: undefined }, { includeStacktraceInErrorResponses: false });
      expect(Object.getOwnPropertyDescriptor(made.response.http, 'status'), build).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(made.response.http), 'status')?.get, build).toBeTypeOf('function');
    }
  });

  it("reads and writes the response's status and headers as the literal did", async () => {
    for (const [build, make] of await makers()) {
      const original = apolloRequestContext();
      const made = make(original, { logger: console, cache: undefined }, { includeStacktraceInErrorResponses: false });
      expect(made.response.http.status, build).toBeUndefined();
      made.response.http.status = 418;
      expect(original.response.http.status, build).toBe(418);
      original.response.http.status = 202;
      expect(made.response.http.status, build).toBe(202);
      made.response.http.headers.set('x-made', 'yes');
      expect(original.response.http.headers.get('x-made'), build).toBe('yes');
      original.response.http.headers.set('x-original', 'also');
      expect(made.response.http.headers.get('x-original'), build).toBe('also');
    }
  });
});

const require = createRequire(import.meta.url);
// The builtin module's object, whose createHash @apollo/utils.createhash calls (it requires "crypto" at each call).
const nodeCrypto = require('node:crypto') as typeof import('node:crypto');
type ApolloClass = typeof ApolloServer;
const apolloBuilds = (): Array<[string, ApolloClass]> => [
  ['esm', ApolloServer],
  ['cjs', (require(join(packageRoot, 'dist', 'cjs', 'index.js')) as { ApolloServer: ApolloClass }).ApolloServer],
];
const sha256 = (text: string) => nodeCrypto.createHash('sha256').update(text).digest('hex');

describe("Apollo's query hash (patched)", () => {
  it('makes no Hash object for a request, and hashes each text once', async () => {
    for (const [build, Apollo] of apolloBuilds()) {
      const server = new Apollo({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } });
      await server.start();
      const original = nodeCrypto.createHash;
      const oneShot = nodeCrypto.hash;
      let made = 0;
      let hashed = 0;
      nodeCrypto.createHash = ((...args: Parameters<typeof original>) => {
        made += 1;
        return original(...args);
      }) as typeof original;
      nodeCrypto.hash = ((...args: Parameters<typeof oneShot>) => {
        hashed += 1;
        return oneShot(...args);
      }) as typeof oneShot;
      try {
        for (let i = 0; i < 3; i++) {
          const answer = await server.executeOperation({ query: `{ hello } # ${build}` });
          expect(answer.body.kind === 'single' && answer.body.singleResult.data, build).toEqual({ hello: 'world' });
        }
      } finally {
        nodeCrypto.createHash = original;
        nodeCrypto.hash = oneShot;
        await server.stop();
      }
      expect(made, build).toBe(0);
      if (build === 'cjs') expect(hashed, build).toBe(1); // the builtin's object, which only the CommonJS build calls through
    }
  });

  it("is the query's SHA-256 in hex: a persisted query registers and is found by it, another hash is refused", async () => {
    for (const [build, Apollo] of apolloBuilds()) {
      const server = new Apollo({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } });
      await server.start();
      try {
        const query = `{ hello } # persisted, ${build}`;
        const persisted = (sha256Hash: string, withQuery: boolean) =>
          server.executeOperation({ ...(withQuery ? { query } : {}), extensions: { persistedQuery: { version: 1, sha256Hash } } });
        const single = (answer: Awaited<ReturnType<typeof persisted>>) => (answer.body.kind === 'single' ? answer.body.singleResult : undefined);
        expect(single(await persisted(sha256(query), true))?.data, build).toEqual({ hello: 'world' });
        expect(single(await persisted(sha256(query), false))?.data, build).toEqual({ hello: 'world' });
        expect(single(await persisted(sha256(`${query} `), true))?.errors?.[0]?.message, build).toBe('provided sha does not match query');
        // Past the length it remembers (4,096 characters): hashed each time, the same digest.
        const long = `{ hello } # ${'x'.repeat(5000)}`;
        for (let i = 0; i < 2; i++) {
          const answer = await server.executeOperation({ query: long, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(long) } } });
          expect(single(answer)?.data, `${build}, long text`).toEqual({ hello: 'world' });
        }
      } finally {
        await server.stop();
      }
    }
  });
});

describe("Apollo's media-type negotiation (patched)", () => {
  const Negotiator = require('negotiator') as new (request: { headers: { accept?: string } }) => { mediaType(types: string[]): string | undefined };
  const TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8', 'multipart/mixed; deferSpec=20220824', 'text/html'];
  const ACCEPTS = [
    undefined,
    '',
    '*/*',
    'application/json',
    'application/graphql-response+json, application/json;q=0.9',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'multipart/mixed; deferSpec=20220824, application/json',
    'image/png',
    `application/json;q=0.5, ${'x-long/'.repeat(50)}a;q=0.9, text/html;q=0.7`,
  ];

  it('answers what a Negotiator answers, for each header, again and again, past the headers it keeps', async () => {
    const builds = await fromBothBuilds<() => (accept: string | undefined, types: string[]) => string | undefined>(
      'utils/remembered.js',
      'rememberedMediaType',
    );
    // More distinct headers than it keeps (64), so it also answers after emptying itself.
    const many = Array.from({ length: 150 }, (_, i) => `text/html;q=0.${(i % 9) + 1}, application/json;q=0.${((i * 7) % 9) + 1}, x-${i}/y`);
    for (const [build, rememberedMediaType] of builds) {
      const preferred = rememberedMediaType();
      for (const accept of [...ACCEPTS, ...many, ...ACCEPTS, ...many]) {
        expect(preferred(accept, TYPES), `${build}: ${accept}`).toBe(new Negotiator({ headers: { accept } }).mediaType(TYPES));
      }
    }
  });
});
