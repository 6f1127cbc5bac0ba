/**
 * patches/@apollo+server+*.patch (applied by `npm ci`'s postinstall, patch-package): the request context Apollo
 * hands a gateway executor (src/graphql/compiled-execution.ts) had `response.http` as an object literal with a
 * getter and setter made for every request. V8 keeps such accessors in an old-generation object, which held the
 * request's whole context through every young-generation collection until a full one: a tenth of the CPU of a
 * small request went to promoting garbage (docs/benchmarks.md, "Against the peers"). The patch makes it a class
 * with the same getter and setter. These tests fail when the patch is not applied, and hold it to what the
 * literal did: `status` reads and writes the response's status, `headers` the response's headers.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HeaderMap } from '@apollo/server';

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
