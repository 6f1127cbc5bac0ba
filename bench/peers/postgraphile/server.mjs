// PostGraphile 5 in its own process for `npm run bench -- peers` (bench/peers.bench.ts): the Amber preset, no
// plugins, no authentication, over the PostgreSQL database DATABASE_URL names (adgraph's tables after its
// migrations and demo data), served by grafserv on node:http at /graphql. Prints its port on a line once
// listening; SIGTERM closes it and it exits 0. Plain JavaScript: it runs on this folder's node_modules, which
// `npm ci` here installs on the section's first use, never adgraph's.
import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

const connectionString = process.env.DATABASE_URL;
if (!connectionString?.startsWith('postgres')) throw new Error('server.mjs: DATABASE_URL must name a PostgreSQL database');

const pgl = postgraphile({
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString, schemas: ['public'] })],
  grafast: { explain: false },
  grafserv: { graphiql: false, watch: false },
});
const serv = pgl.createServ(grafserv);
const server = createServer();
serv.addTo(server);
await serv.ready();
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void pgl.release().then(() => process.exit(0)));
});
