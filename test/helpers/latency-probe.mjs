// A worker thread that measures a server's /healthz latency, idle and then during a burst of requests, from its
// own event loop: a client in the server's thread would wait on the server's work and count it twice.
// workerData: { url, idleProbes, burst: { clients, requestsPerClient, request: { path, method, headers, body } } }
// Posts { idle: ms[], busy: ms[], statuses: number[] }.
import { parentPort, workerData } from 'node:worker_threads';

const { url, idleProbes, burst } = workerData;

async function probe() {
  const started = performance.now();
  const response = await fetch(`${url}/healthz`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
  return performance.now() - started;
}

const idle = [];
for (let i = 0; i < idleProbes; i++) idle.push(await probe());

const statuses = [];
let running = true;
const load = Promise.all(
  Array.from({ length: burst.clients }, async () => {
    for (let i = 0; i < burst.requestsPerClient; i++) {
      const { path, ...init } = burst.request;
      const response = await fetch(`${url}${path}`, init);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
  }),
).finally(() => {
  running = false;
});
const busy = [];
while (running) {
  busy.push(await probe());
  await new Promise((resolve) => setTimeout(resolve, 5));
}
await load;
parentPort.postMessage({ idle, busy, statuses });
