import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, and the pages a reader walks: the README and every page under docs/. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DOC_PAGES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

export const readPage = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');

/** A fenced code block: its language, the words after it (`run`, `answer`, ...), its text and where it starts. */
export interface CodeBlock {
  language: string;
  words: string[];
  text: string;
  line: number;
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    blocks.push({ language: open[1]!, words: open[2]!.trim().split(/\s+/).filter(Boolean), text: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

/** The markdown without its fenced blocks (links and headings are read from this). */
export const proseOf = (markdown: string) => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of proseOf(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every inline link target of a page's prose: `[text](target)`. */
export function linksOf(markdown: string): string[] {
  return [...proseOf(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}
