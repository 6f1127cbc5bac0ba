#!/usr/bin/env node
// The `adgraph` command line, compiled (see ./compiled.js); `npm run dev` runs the sources instead.
import module from 'node:module';
import { compiled } from './compiled.js';

// V8 keeps the code it compiled for the modules (Node's compile cache, in the system's temporary folder): a
// command starts in about four fifths of the time from the second run on. (Node 20 has no such cache; the
// line below that refuses it still runs.)
module.enableCompileCache?.();
await import(compiled('src/cli/main.js', 'adgraph'));
