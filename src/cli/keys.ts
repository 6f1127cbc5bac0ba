import type { Command } from 'commander';
import { print, withDeps } from './runtime.ts';

/** `adgraph keys`: token signing keys. */
export function addKeyCommands(program: Command): void {
  program
    .command('keys')
    .description('token signing keys')
    .command('rotate')
    .description('make a new active signing key; the old one stays published until its tokens have expired')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) =>
      withDeps(async (d) => {
        const { rotateKeys } = await import('../oauth/keys.ts');
        const { kid, retired } = await rotateKeys(d.db, d.config);
        print(
          !!options.json,
          { kid, retired },
          `active key: ${kid}${retired.length ? `\nretired (published until their tokens expire): ${retired.join(', ')}` : ''}`,
        );
      }),
    );
}
