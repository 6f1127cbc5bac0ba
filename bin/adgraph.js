#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's loader: no build step, so `npm ci && npm start` is enough.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
