/**
 * Bare Express 5 in its own process (bench/peers.bench.ts): `GET /healthz` answering adgraph's body, and nothing
 * else, the frame adgraph's `/healthz` is measured against. Prints its port on a line once listening; SIGTERM
 * closes it and it exits 0.
 */
import express from 'express';
import { listenAndPrintPort } from './listen.ts';

const app = express();
app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
listenAndPrintPort(app);
