import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/webhooks/rules/deliveries.ts';

/** One POST a receiver took: its raw body, parsed, and whether its signature checked out. */
export interface Delivery {
  raw: string;
  body: { object: string; entry: Array<{ id: string; time: number; changes: Array<{ field: string; value: Record<string, any> }> }> };
  signature: string | undefined;
}

export type Behaviour = 'ok' | 'fail' | 'hang' | 'redirect' | 'wrong-challenge';

/**
 * A webhook receiver on a loopback port, as an app would run one: answers the hub challenge with what it was sent
 * (when the verify token matches), takes deliveries, and can be told to fail, hang or redirect instead.
 */
export interface Receiver {
  url: string;
  deliveries: Delivery[];
  challenges: URLSearchParams[];
  behaviour: Behaviour;
  /** Every change delivered, in order, flattened out of the entries. */
  changes(): Array<{ field: string; value: Record<string, any>; entry: string }>;
  /** Resolves once `count` changes have arrived (or rejects after `ms`). */
  until(count: number, ms?: number): Promise<void>;
  verified(secret: string): boolean[];
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
  });

export async function startReceiver(verifyToken = 'hub-token'): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const challenges: URLSearchParams[] = [];
  const hanging = new Set<IncomingMessage>();
  const receiver: Receiver = {
    url: '',
    deliveries,
    challenges,
    behaviour: 'ok',
    changes: () => deliveries.flatMap((delivery) => delivery.body.entry.flatMap((entry) => entry.changes.map((change) => ({ ...change, entry: entry.id })))),
    until: (count, ms = 10_000) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const check = () => {
          if (receiver.changes().length >= count) return resolve();
          if (Date.now() - started > ms) return reject(new Error(`only ${receiver.changes().length} of ${count} changes arrived in ${ms} ms`));
          setTimeout(check, 20);
        };
        check();
      }),
    verified: (secret) => deliveries.map((delivery) => verifySignature(secret, delivery.raw, delivery.signature)),
    close: () =>
      new Promise((resolve) => {
        for (const request of hanging) request.socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    if (request.method === 'GET') {
      challenges.push(url.searchParams);
      const challenge = url.searchParams.get('hub.challenge') ?? '';
      const tokenOk = url.searchParams.get('hub.verify_token') === verifyToken && url.searchParams.get('hub.mode') === 'subscribe';
      if (!tokenOk) return void response.writeHead(403).end('bad verify token');
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end(receiver.behaviour === 'wrong-challenge' ? 'not-it' : challenge);
    }
    const raw = await readBody(request);
    switch (receiver.behaviour) {
      case 'hang':
        hanging.add(request);
        return;
      case 'fail':
        return void response.writeHead(500).end('receiver down');
      case 'redirect':
        return void response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
      default: {
        const signature = request.headers['x-hub-signature-256'];
        deliveries.push({ raw, body: JSON.parse(raw), signature: typeof signature === 'string' ? signature : undefined });
        response.writeHead(200).end('EVENT_RECEIVED');
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
