import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** A mail as the SMTP server received it: envelope recipient, subject, both bodies. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The first link to this app's pages in the text body. */
  link: string;
  /** The Message-ID header. */
  messageId: string;
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` not yet taken (already received, or when it arrives). */
  next(to: string): Promise<ReceivedMail>;
  /** Mails sent from now on wait, unaccepted, until `resume`. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free loopback port (the smtp-server package): the app sends through nodemailer's
 * SMTP transport exactly as it would to a provider, and tests read what arrived.
 */
export async function startSmtpServer({
  acceptAfterMs = 0,
}: {
  /** How long the server takes to accept each mail (a slow provider); it is received only once accepted. */
  acceptAfterMs?: number;
} = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];

  function deliver(mail: ReceivedMail) {
    received.push(mail);
    const index = waiting.findIndex((w) => w.to === mail.to);
    if (index >= 0) {
      taken.add(mail);
      waiting.splice(index, 1)[0]!.resolve(mail);
    }
  }

  // A mail whose sender hung up before it was accepted was not sent.
  const closed = new Set<string>();
  let paused: { until: Promise<void>; resume: () => void } | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          await paused?.until;
          if (acceptAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptAfterMs));
          if (closed.has(session.id)) return;
          const text = parsed.text ?? '';
          for (const rcpt of session.envelope.rcptTo) {
            deliver({
              messageId: parsed.messageId ?? '',
              to: rcpt.address,
              subject: parsed.subject ?? '',
              text,
              html: typeof parsed.html === 'string' ? parsed.html : '',
              link: /https?:\/\/\S+\?token=[A-Za-z0-9_-]+/.exec(text)?.[0] ?? '',
            });
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next(to) {
      const ready = received.find((mail) => mail.to === to && !taken.has(mail));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push({ to, resolve }));
    },
    pause() {
      let resume = () => {};
      const until = new Promise<void>((resolve) => (resume = resolve));
      paused ??= { until, resume };
    },
    resume() {
      paused?.resume();
      paused = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
