import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves `handler` on a free loopback port and prints the port on a line (what bench/harness.ts startPortPrinter
 * reads); SIGTERM closes every connection, runs `stop` and exits 0.
 */
export function listenAndPrintPort(handler: RequestListener, stop: () => Promise<void> = async () => undefined): void {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void stop().then(() => process.exit(0)));
  });
}
