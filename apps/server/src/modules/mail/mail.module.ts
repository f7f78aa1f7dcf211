import type { ServerContext } from '../../context.js';
import { createMailer } from './mailer.js';

/**
 * How a job that sends mail is retried: for about 3 hours (5 s, 10 s, 20 s… at most an hour apart) before it
 * stays failed, for an admin to see and retry.
 */
export const MAIL_JOB = { retryLimit: 12, retryDelaySeconds: 5, retryDelayMaxSeconds: 3600, expireInSeconds: 120 };

/** The mail module: the one mailer, closed when the server stops (after the modules that send through it). */
export async function wireMail(shared: ServerContext<{ smtpUrl?: string | undefined; mailFrom?: string }>) {
  const { app, config, log } = shared;
  // Mail (issue 24): SMTP_URL, or the log.
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom ?? 'no-reply@localhost', log });
  app.addHook('onClose', async () => mailer.close());
  return { mailer };
}

export type MailModule = Awaited<ReturnType<typeof wireMail>>;
