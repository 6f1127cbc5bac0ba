/**
 * The server's entry point for the token benchmark: `node count-bcrypt.js <the CLI's module> serve` counts the
 * bcrypt checks the server sends to its worker pool (src/hashing), then runs the CLI as `node <the CLI's module>
 * serve` would, and answers the count when the benchmark asks over the IPC channel. It is the proof that a repeat
 * client is served from memory and a cold one is not. (An entry point, not `node --import`: worker threads
 * inherit the process's --import, and the pool's workers must not load this.)
 */
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';

let checks = 0;
const run = Piscina.prototype.run;
Piscina.prototype.run = function (this: Piscina, task: unknown, options?: Parameters<typeof run>[1]) {
  if ((task as { op?: string } | null)?.op === 'verify') checks += 1;
  return run.call(this, task, options);
};

process.on('message', (message) => {
  if (message === 'bcrypt-checks') process.send?.({ bcryptChecks: checks });
});
// The channel must not keep a server that failed to start from exiting.
process.channel?.unref();

// The CLI reads its command from process.argv: without this module in it, as if the CLI had been run itself.
process.argv.splice(1, 1);
await import(pathToFileURL(process.argv[1]!).href);
