/**
 * The bare-server ceiling in its own process (started by bench/harness.ts startCeiling): a plain node:http server
 * answering every request with the bytes of the file named by its argument, as the GraphQL server answers the
 * nested read. It loads nothing else, so its cost is what HTTP and those bytes cost. Prints its port on a line
 * once listening; SIGTERM closes it and it exits 0.
 */
import { readFileSync } from 'node:fs';
import { listenAndPrintPort } from './peers/listen.ts';

const bytes = readFileSync(process.argv[2]!);
listenAndPrintPort((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
    res.end(bytes);
  });
});
