import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';

/**
 * graphql-ws clients of one server, as a browser's would be (the library, connected at once, no retries), signed in
 * with a bearer token or anonymous; `disposeAll` closes every one made.
 */
export function graphqlWsClients(serverUrl: () => string) {
  const clients: Client[] = [];
  return {
    connect(token?: string): Client {
      const client = createClient({
        url: serverUrl().replace(/^http/, 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams: token ? { authorization: `Bearer ${token}` } : {},
        retryAttempts: 0,
        lazy: false,
      });
      clients.push(client);
      return client;
    },
    async disposeAll(): Promise<void> {
      await Promise.all(clients.map((client) => client.dispose()));
    },
  };
}
