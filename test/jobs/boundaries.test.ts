import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The job runner and the job kinds are domain code: they import no surface (issue 19). A job that failed keeps
 * its error as the domain builds it (src/errors/graph.ts) and a surface prints it; the principal a job acts as is
 * restored by src/identity/principals.ts, not by the HTTP authentication.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SURFACES = ['src/http', 'src/graph-api', 'src/graphql', 'src/server', 'src/cli'];
const JOB_CODE = ['src/jobs', 'src/ads/copy-jobs.ts', 'src/insights/reports/job.ts', 'src/insights/reports/service.ts', 'src/insights/reports/store.ts'];

function filesOf(path: string): string[] {
  const full = join(ROOT, path);
  if (full.endsWith('.ts')) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(full, name));
}

function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((match) => match[1]!).filter((spec) => spec.startsWith('.'));
}

describe('module boundaries of background jobs', () => {
  it.each(JOB_CODE)('%s imports no surface', (path) => {
    const files = filesOf(path);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const spec of importsOf(file)) {
        const target = relative(ROOT, resolve(dirname(file), spec));
        expect(
          SURFACES.some((surface) => target.startsWith(surface)),
          `${relative(ROOT, file)} imports ${spec}`,
        ).toBe(false);
      }
    }
  });
});
