// Same on every database: the date formats and the search cluster are what is tested; the database only holds who signs in.
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
    // The specification's keys, plus bestEffortOutput and usable (issue 11: an unsupported conversion has no output).
    expect(Object.keys(out).sort()).toEqual(['bestEffortOutput', 'exact', 'input', 'lenient', 'output', 'parts', 'usable']);
    expect(out).toMatchObject({ input: "yyyy-MM-dd'T'HH:mm:ssZZ||epoch_millis", exact: true, lenient: false, usable: true });
    expect(out.output.startsWith("uuuu-MM-dd'T'HH:mm:ssxxx||uuuu-MM-dd'T'HH:mm:ssXXX||")).toBe(true);
    expect(out.output.endsWith('||epoch_millis')).toBe(true);
    expect(out.bestEffortOutput).toBe(out.output);
    expect(out.parts).toHaveLength(2);
    for (const part of out.parts) {
      expect(Object.keys(part).sort()).toEqual(['bestEffortOutput', 'changes', 'findings', 'input', 'lenient', 'output', 'severity', 'suggestions']);
      for (const change of part.changes) expect(Object.keys(change).sort()).toEqual(['from', 'letter', 'to', 'why']);
      for (const finding of part.findings) expect(Object.keys(finding).sort()).toEqual(['message', 'severity']);
    }
    expect(out.parts[0].changes.map((c: { letter: string }) => c.letter)).toEqual(['y', 'd', 'Z']);
    expect(out.parts[0].suggestions).toEqual([
      {
        builtIn: 'strict_date_time_no_millis',
        message: expect.stringMatching(/^Joda `yyyy-MM-dd'T'HH:mm:ssZZ` is what the built-in `strict_date_time_no_millis` was in 6.x/),
      },
    ]);
    expect(out.parts[1]).toEqual({
      input: 'epoch_millis',
      output: 'epoch_millis',
      bestEffortOutput: 'epoch_millis',
      severity: 'exact',
      lenient: true,
      changes: [],
      findings: [],
      suggestions: [],
    });
  });

  it('adds the alternatives for what else Joda accepted with --lenient, and prints text without --json', async () => {
    const json = await runCli(['dates', 'convert', 'd.M.yyyy', '--lenient', '--json'], env());
    expect(JSON.parse(json.stdout)).toMatchObject({ output: 'd.M.uuuu||d.M.u', exact: true, lenient: true });

    const text = await runCli(['dates', 'convert', 'dd/MM/yyyy HH:mm'], env());
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('dd/MM/uuuu HH:mm||d/MM/uuuu HH:mm');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}change yyyy -> uuuu: /));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}exact: Joda also accepted fewer digits in Joda `MM`, years of fewer digits in Joda `yyyy` \(194\).*--lenient or lenient: true, adds them: 3 alternatives/,
      ),
    );
    expect(lines.at(-1)).toBe('  exact, not lenient');
  });

  it('with --lenient, month and day names of the other length are alternatives; letter case stays a finding with what to do', async () => {
    const run = await runCli(['dates', 'convert', 'EEE, dd MMM yyyy HH:mm:ss', '--lenient', '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    const alternatives: string[] = out.output.split('||');
    expect(alternatives[0]).toBe('EEE, dd MMM uuuu HH:mm:ss');
    expect(alternatives).toEqual(expect.arrayContaining(['EEE, d MMMM u H:m:s', 'EEEE, d MMM u H:m:s', 'EEEE, d MMMM u H:m:s']));
    const findings: string[] = out.parts[0].findings.map((f: { message: string }) => f.message);
    expect(findings).toContainEqual(
      expect.stringMatching(
        /^Joda `MMM` is text \(month name\): Joda parsed it in any letter case.*`script` processor in the ingest pipeline ahead of the `date` processor/,
      ),
    );
    expect(findings).toContainEqual(expect.stringMatching(/^Joda `EEE` is text \(day name\)/));
    // Without --lenient the full names are only named.
    const plain = JSON.parse((await runCli(['dates', 'convert', 'dd MMM yyyy', '--json'], env())).stdout);
    expect(plain.output).toBe('dd MMM uuuu||d MMM uuuu');
    expect(plain.parts[0].findings.map((f: { message: string }) => f.message)).toContainEqual(
      expect.stringMatching(/full month names under Joda `MMM` \(January\)/),
    );
  });

  it('an unsupported conversion prints no pattern first, exits 3, and names letters with their library', async () => {
    const text = await runCli(['dates', 'convert', 'YYYY-ww'], env());
    expect(text.code).toBe(3);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('NO EQUIVALENT java.time FORMAT: 1 of 1 part(s) unsupported; read the findings below (nothing here may be used as is)');
    expect(lines).toContainEqual('  best effort, NOT equivalent (do not use as is: see the unsupported findings above): yyyy-ww');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}unsupported: Joda `ww` \(week of weekyear\) without Joda `xxxx`.*Joda `xxxx` in the legacy format \(it converts to java.time `YYYY`\)/,
      ),
    );
    expect(text.stdout).not.toMatch(/use xxxx|\(java YYYY\)/);
    expect(lines.at(-1)).toBe('  not exact, not lenient, unsupported');

    const json = await runCli(['dates', 'convert', 'yyyy-MM-dd||yyyy-ww', '--json'], env());
    expect(json.code).toBe(3);
    const out = JSON.parse(json.stdout);
    expect(out).toMatchObject({ output: null, usable: false, bestEffortOutput: 'uuuu-MM-dd||uuuu-MM-d||uuuu-ww' });
    expect(out.parts.map((p: { output: string | null }) => p.output)).toEqual(['uuuu-MM-dd||uuuu-MM-d', null]);
  });

  it('exits non-zero with one line on bad input', async () => {
    for (const args of [
      ['dates', 'convert', 'yyyy-qq-dd', '--json'],
      ['dates', 'convert', 'yyyy||', '--json'],
    ]) {
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
