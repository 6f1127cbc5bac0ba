/**
 * Bare Apollo Server 5 on Express 5 in its own process (bench/peers.bench.ts), set up as Apollo's documentation
 * sets it up (express.json(), then expressMiddleware), with a one-field schema: the frame adgraph's
 * `{ __typename }` and `{ me { id } }` are measured against. Prints its port on a line once listening; SIGTERM
 * closes it and it exits 0.
 */
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { listenAndPrintPort } from './listen.ts';

const apollo = new ApolloServer({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } });
await apollo.start();
const app = express();
app.use('/graphql', express.json(), expressMiddleware(apollo));
listenAndPrintPort(app, () => apollo.stop());
