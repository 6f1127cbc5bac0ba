#!/usr/bin/env node
// Runs the GraphQL benchmark (bench/graphql.bench.ts) through tsx's loader, like bin/adgraph.js: no build step.
import { register } from 'tsx/esm/api';

register();
await import('../bench/graphql.bench.ts');
