import { UsageError } from './runtime.ts';

/**
 * A secret an operator types or pipes in, never an argument: arguments are visible to every user of the machine
 * (`ps`, /proc/<pid>/cmdline) and stay in the shell's history.
 */

/** All of standard input, without the one line ending `echo` or a file adds. */
export async function readSecretFromStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks on the terminal without echoing what is typed (Enter ends it, Backspace works, Ctrl-C or Ctrl-D gives up). */
export function promptSecret(question: string, stdin: NodeJS.ReadStream = process.stdin, out: NodeJS.WriteStream = process.stderr): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      out.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new UsageError('password: not given (cancelled)'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    out.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/**
 * The new password: from standard input with `fromStdin`, else asked twice on a terminal. Without a terminal and
 * without --password-stdin there is no safe way to get it, which is refused.
 */
export async function readNewPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin) return readSecretFromStdin();
  if (!process.stdin.isTTY) throw new UsageError('password: give --password-stdin to read it from standard input (no terminal to ask on)');
  const first = await promptSecret('New password: ');
  const again = await promptSecret('Repeat it: ');
  if (first !== again) throw new UsageError('password: the two passwords differ; nothing was changed');
  return first;
}
