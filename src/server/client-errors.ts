import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The request line and headers one request may have: Node's default, set here so that --max-http-header-size
 * (or NODE_OPTIONS) cannot change what the server accepts. Over it the answer is 431.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** How long the rest of a refused request is read (and dropped) after the answer, before the connection is cut. */
const LINGER_MS = 5_000;

/** Node's default answer to each parser error (lib/_http_server.js); anything else is 400. */
const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const answered = new WeakSet<Socket>();

/**
 * The server's `clientError` listener: a request Node cannot parse (headers over MAX_HEADER_BYTES, a malformed
 * request line) gets Node's own status, then the connection is closed gracefully. Node's default writes the
 * answer and destroys the socket at once; with the client still sending (a long URL, a body after oversized
 * headers) the kernel then resets the connection, and on Node 24 the client sees that reset instead of the
 * answer (Node 20 and 22 happened to deliver the answer first). Here the answer is followed by a half-close, and
 * the rest of the request is read and dropped for up to LINGER_MS, so the client reads the answer on every Node.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // The parser reports the same error again for every later chunk of the request: answer once.
  if (answered.has(socket)) return;
  answered.add(socket);
  // As Node's default: no answer to a client that is gone, nor in the middle of a response already started.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.resume();
  const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(linger));
}
