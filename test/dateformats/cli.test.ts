import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

// `adgraph dates convert` as an operator runs it: a child process (no database is needed).
const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete e.NODE_OPTIONS;
  return e;
};

describe('adgraph dates convert', () => {
  it('prints the documented JSON shape with --json', async () => {
    const run = await runCli(['dates', 'convert', "yyyy-MM-dd'T'HH:mm:ssZZ||epoch_millis", '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out).sort()).toEqual(['exact', 'input', 'lenient', 'output', 'parts']);
    expect(out).toMatchObject({ input: "yyyy-MM-dd'T'HH:mm:ssZZ||epoch_millis", exact: true, lenient: false });
    expect(out.output.startsWith("uuuu-MM-dd'T'HH:mm:ssxxx||uuuu-MM-dd'T'HH:mm:ssXXX||")).toBe(true);
    expect(out.output.endsWith('||epoch_millis')).toBe(true);
    expect(out.parts).toHaveLength(2);
    for (const part of out.parts) {
      expect(Object.keys(part).sort()).toEqual(['changes', 'findings', 'input', 'lenient', 'output', 'severity']);
      for (const change of part.changes) expect(Object.keys(change).sort()).toEqual(['from', 'letter', 'to', 'why']);
      for (const finding of part.findings) expect(Object.keys(finding).sort()).toEqual(['message', 'severity']);
    }
    expect(out.parts[0].changes.map((c: { letter: string }) => c.letter)).toEqual(['y', 'd', 'Z']);
    expect(out.parts[1]).toEqual({ input: 'epoch_millis', output: 'epoch_millis', severity: 'exact', lenient: true, changes: [], findings: [] });
  });

  it('adds the fewer-digit alternatives with --lenient, and prints text without --json', async () => {
    const json = await runCli(['dates', 'convert', 'yyyy-MM-dd', '--lenient', '--json'], env());
    expect(JSON.parse(json.stdout)).toMatchObject({ output: 'uuuu-MM-dd||uuuu-MM-d||uuuu-M-dd||uuuu-M-d', exact: true, lenient: true });

    const text = await runCli(['dates', 'convert', 'dd/MM/yy hh:mm'], env());
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('dd/MM/uu hh:mm||d/MM/uu hh:mm');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}change yy -> uu: /));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}unsupported: two-digit year yy/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}unsupported: hh .*without a/));
  });

  it('exits non-zero with one line on bad input', async () => {
    for (const args of [['dates', 'convert', 'yyyy-qq-dd', '--json'], ['dates', 'convert', 'yyyy||', '--json']]) {
      const run = await runCli(args, env());
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^adgraph: (Illegal pattern component: qq|empty date format part)/);
    }
    const missing = await runCli(['dates', 'convert'], env());
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/missing required argument 'format'/);
  });
});
