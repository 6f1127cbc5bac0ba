import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, codeBlocks, DOC_PAGES, linksOf, readPage, ROOT } from './markdown.ts';

/** The documentation stands on its own: every link lands, and nothing points outside the repository. */
describe('the documentation', () => {
  it('links only to files and headings that exist', () => {
    const problems: string[] = [];
    for (const page of DOC_PAGES) {
      for (const link of linksOf(readPage(page))) {
        if (/^(https?:|mailto:)/.test(link)) continue;
        const [file, anchor] = link.split('#') as [string, string | undefined];
        const target = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
        if (target.startsWith('..') || !existsSync(path.join(ROOT, target))) {
          problems.push(`${page}: ${link}: no file ${target}`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readPage(target)).has(anchor))
          problems.push(`${page}: ${link}: no heading #${anchor} in ${target}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names no path outside the repository, no machine path and no issue number a reader cannot open', () => {
    const outside: Array<[RegExp, string]> = [
      [/\.\.\/shared\b|\.\.\/\.\.\//, 'a path outside the repository'],
      [/(^|[\s`'"(=:])\/(work|tmp|home|root|Users)\//m, 'an absolute machine path'],
      [/\bissues? #?\d+/i, 'an issue number'],
      [/\bDECISIONS(\.md| section| \d)/, 'the decisions file by its file name'],
    ];
    const problems = DOC_PAGES.flatMap((page) =>
      readPage(page)
        .split('\n')
        .flatMap((line, index) => outside.filter(([pattern]) => pattern.test(line)).map(([, what]) => `${page}:${index + 1}: ${what}: ${line.trim()}`)),
    );
    expect(problems).toEqual([]);
  });

  it('lists every environment variable the configuration reads', () => {
    const source = readFileSync(path.join(ROOT, 'src/config/index.ts'), 'utf8');
    const variables = new Set(
      [...source.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g), ...source.matchAll(/\['([A-Z][A-Z0-9_]+)', \{/g), ...source.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map(
        (match) => match[1]!,
      ),
    );
    expect(variables.size).toBeGreaterThan(40);
    const page = readPage('docs/configuration.md');
    expect([...variables].filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it('shows one-time passcodes as the UUIDs they are', () => {
    const examples = DOC_PAGES.flatMap((page) => codeBlocks(readPage(page)).map((block) => block.text)).filter((text) => text.includes('one_time_passcode'));
    expect(examples.length).toBeGreaterThan(0);
    for (const text of examples) {
      // A passcode is a literal UUID, or the shell's "'"$PASSCODE"'" splice of the one the server e-mailed.
      for (const match of text.matchAll(/"one_time_passcode":\s*"([^"]*)"/g)) {
        expect(match[1] === "'" ? text : match[1]).toMatch(match[1] === "'" ? /"'"\$PASSCODE"'"/ : /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/);
      }
    }
  });
});
