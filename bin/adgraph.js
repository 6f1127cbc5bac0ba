#!/usr/bin/env node
// The `adgraph` command line, compiled (see ./compiled.js); `npm run dev` runs the sources instead.
import { compiled } from './compiled.js';

await import(compiled('src/cli/main.js', 'adgraph'));
