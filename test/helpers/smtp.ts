import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it. */
export interface CapturedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string | null;
  subject: string;
  /** The body, with its transfer encoding (quoted-printable or base64) undone. */
  text: string;
  raw: string;
}

export interface TestSmtpServer {
  /** SMTP_URL for the application: smtp://127.0.0.1:<port>. */
  url: string;
  messages: CapturedMail[];
  /** Resolves with the first message (already received or still to come) that matches; rejects after `timeoutMs`. */
  waitFor(predicate: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  /** The first message to this address. */
  waitForMailTo(address: string, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

function unfoldHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** RFC 2047 encoded words in a header (=?UTF-8?Q?...?= or =?UTF-8?B?...?=). */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

export function parseMail(raw: string, to: string[], from: string | null): CapturedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = unfoldHeaders(head);
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to, from, subject: decodeHeader(headers.get('subject') ?? ''), text: text.replace(/\r\n/g, '\n'), raw };
}

/**
 * A real SMTP server on a free loopback port that keeps every message it accepts. No TLS (the application
 * would otherwise try STARTTLS against a self-signed certificate) and no authentication required.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<{ predicate: (mail: CapturedMail) => boolean; resolve: (mail: CapturedMail) => void }>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const mail = parseMail(
          Buffer.concat(chunks).toString('utf8'),
          session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        );
        messages.push(mail);
        for (const waiter of [...waiters]) {
          if (waiter.predicate(mail)) {
            waiters.delete(waiter);
            waiter.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  const waitFor = (predicate: (mail: CapturedMail) => boolean, timeoutMs = 10_000) => {
    const found = messages.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise<CapturedMail>((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (mail: CapturedMail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no matching e-mail arrived within ${timeoutMs} ms (received: ${messages.map((m) => m.to.join(',')).join('; ') || 'none'})`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor,
    waitForMailTo: (address, timeoutMs) => waitFor((mail) => mail.to.includes(address.toLowerCase()), timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The one-time passcode in a mail's text: the line that holds nothing but one code-like word
 * (the mail puts the code on a line of its own).
 */
export function passcodeFrom(text: string): string {
  const match = /^[ \t]*([A-Za-z0-9][A-Za-z0-9-]{5,63})[ \t]*$/m.exec(text);
  if (!match) throw new Error(`no passcode in the mail text:\n${text}`);
  return match[1]!;
}
