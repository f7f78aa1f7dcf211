import { createTransport } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

/** One mail: a plain-text body and the same in simple HTML. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The Message-ID header, without its angle brackets: a mail sent again by a retried job carries the same
   * one, and mail programs show it once.
   */
  messageId?: string;
}

export interface Mailer {
  /** Sends one mail; rejects when the server refuses it or cannot be reached. */
  send(mail: Mail): Promise<void>;
  /** Closes the SMTP connections. */
  close(): void;
  /** Where mail goes: `smtp` through SMTP_URL, `log` printed to the server's log. */
  readonly kind: 'smtp' | 'log';
}

export interface MailerOptions {
  /** SMTP_URL; undefined prints each mail to the log instead. */
  smtpUrl: string | undefined;
  /** MAIL_FROM. */
  from: string;
  log: FastifyBaseLogger;
}

/**
 * The one way out for mail (issue 24). With SMTP_URL, nodemailer's SMTP transport; without, nodemailer's
 * JSON transport composes the mail as it would be sent and the app's logger prints its recipient, subject
 * and text (links included), so a new instance without a mail server can still confirm and reset.
 */
export function createMailer({ smtpUrl, from, log }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport = createTransport(smtpUrl, { from });
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail(withMessageId(mail));
      },
      close: () => transport.close(),
    };
  }
  const transport = createTransport({ jsonTransport: true }, { from });
  return {
    kind: 'log',
    async send(mail) {
      await transport.sendMail(withMessageId(mail));
      log.info({ mail: { to: mail.to, subject: mail.subject } }, `mail (no SMTP_URL, so not sent):\n${mail.text}`);
    },
    close: () => transport.close(),
  };
}

const withMessageId = ({ messageId, ...mail }: Mail) => (messageId ? { ...mail, messageId: `<${messageId}>` } : mail);
