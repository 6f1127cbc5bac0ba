#!/usr/bin/env node
// Runs a benchmark through tsx's loader, like bin/adgraph.js (no build step): `bench.js` for GraphQL,
// `bench.js tokens` for the token endpoint, `bench.js adsets` for ad set reads at the account limit.
import { register } from 'tsx/esm/api';

const BENCHMARKS = { graphql: '../bench/graphql.bench.ts', tokens: '../bench/tokens.bench.ts', adsets: '../bench/adsets.bench.ts' };
const name = process.argv[2] ?? 'graphql';
if (!(name in BENCHMARKS)) {
  console.error(`bench: unknown benchmark "${name}"; one of ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
register();
await import(BENCHMARKS[name]);
