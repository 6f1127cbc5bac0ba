import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../logging/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for, kept in the outbox: one_time_passcode, ... */
  kind: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * E-mail through nodemailer to SMTP_URL. Without SMTP_URL (development), a message goes to the log and the
 * email_outbox table instead, so the quick start works with no mail server; that includes the one-time
 * passcodes it carries, which is why production sets SMTP_URL.
 */
export function createMailer(config: Config, db: Db, log: Logger): Mailer {
  // nodemailer is loaded with the first message: most processes (the command line, a server nobody asks for a
  // passcode) never send one.
  let transport: Promise<Transporter> | undefined;
  const smtp = (smtpUrl: string) => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
  return {
    async send(message) {
      if (config.smtpUrl) {
        await (await smtp(config.smtpUrl)).sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text });
        return;
      }
      await db('email_outbox').insert({
        id: randomUUID(),
        to_address: message.to,
        subject: message.subject,
        body_text: message.text,
        kind: message.kind,
        created_at: new Date(),
        sent_at: null,
        error: null,
      });
      log.warn(
        { mail: { to: message.to, subject: message.subject, kind: message.kind, text: message.text } },
        'SMTP_URL is not set: e-mail written to the log and the outbox table',
      );
    },
    close() {
      // A transport that could not be made has nothing to close.
      void transport?.then(
        (open) => open.close(),
        () => undefined,
      );
    },
  };
}
