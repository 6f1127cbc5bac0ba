import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seeds/demo.ts';
import { CLI_ARGS, cliEnv } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { compareAnswer, compareText, sortedRows } from './answers.ts';
import { codeBlocks, DOC_PAGES, readPage, ROOT, type CodeBlock } from './markdown.ts';

/**
 * Every example of the documentation runs here, against one real server on a loopback port over a fresh database
 * with the demo data, so the pages cannot drift from what the server does. How a page marks its examples:
 * - ```sh run: a shell script, run by bash in page order; variables it assigns stay set for the page's next
 *   scripts. `http://localhost:4000` is the test server, `npx adgraph` the command line on the server's database.
 * - ```graphql run: an operation sent to /graphql with the session of ads@northwind.example.
 * - ```ts run: a program run with tsx from the repository (imports of `./client/` are the repository's).
 * - ```json answer (or ```text answer) right after one of those: what it prints, compared as ./answers.ts says;
 *   `json volatile answer` for statistics, whose numbers follow the calendar; `text unordered answer` for a
 *   listing whose rows come in no set order (compared sorted, the header first).
 * - `norun`: shown, not run here (installing, serving, long-running commands; other tests cover them).
 * Every sh, graphql and ts block says one or the other, so an example cannot be added without being run.
 * The scripts see `$TOKEN` (a session of ads@northwind.example) and `$PASSCODE` (the last one-time passcode
 * the server e-mailed), as a reader has them from the pages' earlier steps.
 */
const DOCUMENTED_URL = 'http://localhost:4000';
const EXECUTABLE = new Set(['sh', 'graphql', 'ts']);

interface Example {
  page: string;
  block: CodeBlock;
  answer?: CodeBlock;
}

function examplesOf(page: string): Example[] {
  const blocks = codeBlocks(readPage(page));
  return blocks.flatMap((block, index) => {
    if (!EXECUTABLE.has(block.language) || !block.words.includes('run')) return [];
    const next = blocks[index + 1];
    return [{ page, block, answer: next?.words.includes('answer') ? next : undefined }];
  });
}

const PAGES = DOC_PAGES.map((page) => ({ page, examples: examplesOf(page) })).filter(({ examples }) => examples.length > 0);

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { cwd: options.cwd, env: options.env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

describe('the documentation: every example runs and answers as shown', () => {
  let server: TestServer;
  let token: string;
  let scratch: string;

  beforeAll(async () => {
    // The origin the getting-started page's browser frontend runs on (its CORS preflight example).
    server = await startTestServer({ ASYNC_POLL_MS: '100', CORS_ORIGINS: 'http://localhost:5173' });
    // The helper sets PUBLIC_URL once the port is known; the token issuer, derived from it at load, follows here.
    server.deps.config.tokenIssuer = server.url;
    await seedDemo(server.deps);
    const login = await server.login('ads@northwind.example', 'Adgraph-Demo-2026!');
    token = ((await login.json()) as { session_token: string }).session_token;
    scratch = mkdtempSync(path.join(tmpdir(), 'adgraph-docs-'));
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** The documented address becomes the test server's, in what is sent; the reverse in what comes back. */
  const toServer = (text: string) => text.replaceAll(DOCUMENTED_URL, server.url);
  const fromServer = (text: string) => text.replaceAll(server.url, DOCUMENTED_URL);

  /** The passcode of the last one-time passcode e-mail (it leaves after the reply, so it may take a moment). */
  async function lastPasscode(): Promise<string> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const mail = await server.deps.db('email_outbox').where({ kind: 'one_time_passcode' }).orderBy('created_at', 'desc').first();
      const code = /[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/.exec(String(mail?.body_text ?? ''))?.[0];
      if (code) return code;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no one-time passcode e-mail in the outbox');
  }

  async function runShell(example: Example, state: string): Promise<string> {
    const assigned = [...example.block.text.matchAll(/^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
    const script = [
      'set -eo pipefail',
      // `npx adgraph` in the pages is the command line of this checkout, started as the other CLI tests start it
      // (its bin, on the build test/global-setup.ts keeps fresh; through tsx each start took a second more).
      `adgraph() { (cd ${JSON.stringify(ROOT)} && ${JSON.stringify(process.execPath)} ${CLI_ARGS.map((arg) => JSON.stringify(arg)).join(' ')} "$@"); }`,
      `source ${JSON.stringify(state)}`,
      toServer(example.block.text).replaceAll('npx adgraph ', 'adgraph '),
      ...assigned.map((name) => `declare -p ${name} >> ${JSON.stringify(state)}`),
    ].join('\n');
    const env = {
      ...cliEnv(server.database, { LOG_LEVEL: 'warn' }),
      TOKEN: token,
      PASSCODE: /\$PASSCODE\b/.test(example.block.text) ? await lastPasscode() : '',
    };
    const result = await run('bash', ['-c', script], { cwd: scratch, env });
    expect(result.code, `${where(example)} exited ${result.code}\n${result.stderr}`).toBe(0);
    return fromServer(result.stdout);
  }

  async function runGraphql(example: Example): Promise<string> {
    const { body } = await server.graphql(example.block.text, undefined, token);
    return fromServer(JSON.stringify(body));
  }

  async function runTypeScript(example: Example, index: number): Promise<string> {
    const folder = path.join(ROOT, '.tmp', 'docs-examples');
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${path.basename(example.page, '.md')}-${index}.ts`);
    writeFileSync(file, toServer(example.block.text).replaceAll("from './client/", "from '../../client/"));
    try {
      const result = await run(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, TOKEN: token } });
      expect(result.code, `${where(example)} exited ${result.code}\n${result.stderr}`).toBe(0);
      return fromServer(result.stdout);
    } finally {
      rmSync(file, { force: true });
    }
  }

  const where = (example: Example) => `${example.page}:${example.block.line}`;

  function check(example: Example, output: string): void {
    const answer = example.answer;
    if (!answer) {
      if (example.block.language === 'graphql') expect(JSON.parse(output).errors, `${where(example)}: ${output}`).toBeUndefined();
      return;
    }
    const volatile = answer.words.includes('volatile');
    const problems =
      answer.language === 'json'
        ? (() => {
            let actual: unknown;
            try {
              actual = JSON.parse(output);
            } catch {
              return [`the output is not JSON: ${output}`];
            }
            return compareAnswer(JSON.parse(answer.text), actual, volatile);
          })()
        : answer.words.includes('unordered')
          ? compareText(sortedRows(answer.text), sortedRows(output), volatile)
          : compareText(answer.text, output, volatile);
    expect(problems, `${where(example)}: the answer documented at line ${answer.line} differs\n${output}`).toEqual([]);
  }

  for (const { page, examples } of PAGES) {
    it(`${page}: ${examples.length} examples`, { timeout: 180_000 }, async () => {
      const state = path.join(scratch, `${path.basename(page, '.md')}.state.sh`);
      writeFileSync(state, '');
      let index = 0;
      for (const example of examples) {
        const output =
          example.block.language === 'sh'
            ? await runShell(example, state)
            : example.block.language === 'graphql'
              ? await runGraphql(example)
              : await runTypeScript(example, index++);
        check(example, output);
      }
    });
  }

  it('every sh, graphql and ts block says whether it runs, and every answer follows an example', () => {
    const problems: string[] = [];
    for (const page of DOC_PAGES) {
      const blocks = codeBlocks(readPage(page));
      blocks.forEach((block, index) => {
        const at = `${page}:${block.line}`;
        if (EXECUTABLE.has(block.language) && !block.words.includes('run') && !block.words.includes('norun'))
          problems.push(`${at}: \`\`\`${block.language} without run or norun`);
        if (block.words.includes('answer') && !blocks[index - 1]?.words.includes('run')) problems.push(`${at}: an answer after no example`);
        if (block.words.includes('answer') && block.language === 'json') {
          try {
            JSON.parse(block.text);
          } catch {
            problems.push(`${at}: the answer is not JSON`);
          }
        }
      });
    }
    expect(problems).toEqual([]);
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('```graphql run');
  });
});
