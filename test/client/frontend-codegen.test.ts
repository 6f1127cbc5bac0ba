// Same on every database: what is tested is the generated types and the operations compiling against the schema.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 20: examples/frontend-codegen is what a frontend in its own repository copies. Here it is copied to a
 * folder of its own, GraphQL Code Generator runs on it against a live server (introspection, as the frontend
 * would), and tsc checks what it generated under the example's own tsconfig.json, with a form that sends back
 * what it read. A file that sends the old JSON shape of targeting must fail that check.
 */

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const CODEGEN = join(ROOT, 'node_modules/@graphql-codegen/cli/esm/bin.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

let server: TestServer;
let project: string;

beforeAll(async () => {
  server = await startTestServer();
  project = await mkdtemp(join(tmpdir(), 'adgraph-frontend-'));
  await cp(join(ROOT, 'examples/frontend-codegen'), project, { recursive: true });
  // The frontend's own node_modules would hold the same packages (the install line in codegen.ts).
  await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
});
afterAll(async () => {
  await server?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

const tsc = () =>
  run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );

describe('examples/frontend-codegen', () => {
  it('generates typed documents from the live schema, and they type-check under its tsconfig', async () => {
    await run(process.execPath, [CODEGEN, '--config', 'codegen.ts'], { cwd: project, env: { ...process.env, ADGRAPH_SCHEMA: `${server.url}/graphql` } });
    const generated = await readFile(join(project, 'src/gql/graphql.ts'), 'utf8');
    expect(generated).toContain('export const SaveAdSetFormDocument');
    // enumsAsTypes: unions, no runtime enums; typed nested inputs, not unknown.
    expect(generated).toMatch(/export type BillingEvent =\s*\| 'APP_INSTALLS'/);
    expect(generated).not.toMatch(/export enum /);
    expect(generated).toMatch(/export type TargetingInput = \{[^}]*geoLocations: GeoLocationsInput;/);
    // The scalars map: BigInt as it travels in JSON.
    expect(generated).toContain('dailyBudget: number | string | null');
    expect(generated).toMatch(/targeting: \{ ageMin: number \| null/);
    expect(await tsc()).toBe('');
  }, 120_000);

  it('tsc refuses a form that sends the old JSON shape', async () => {
    await writeFile(
      join(project, 'src/old-shape.ts'),
      "import type { UpdateAdSetInput } from './gql/graphql.ts';\nexport const input: UpdateAdSetInput = { targeting: { geo_locations: { countries: ['US'] } } };\n",
    );
    expect(await tsc()).toMatch(/old-shape\.ts.*'geo_locations' does not exist in type 'TargetingInput'/s);
    await rm(join(project, 'src/old-shape.ts'));
  }, 60_000);
});
