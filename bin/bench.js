#!/usr/bin/env node
// `npm run bench` (it builds first): the compiled benchmarks (dist/bench/main.js), every section, or the ones
// named: `npm run bench -- reads pages tokens cli`. During development, `npx tsx bench/main.ts [section ...]`.
import { compiled } from './compiled.js';

await import(compiled('bench/main.js', 'bench'));
