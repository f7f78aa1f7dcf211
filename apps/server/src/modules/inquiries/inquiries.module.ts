import type { ServerContext } from '../../context.js';
import { mailLocale } from '../../lib/i18n.js';
import { inquiryMail, MAIL_JOB, type MailModule } from '../mail/index.js';
import { inquiriesRoutes } from './inquiries.routes.js';
import { createInquiriesService } from './inquiries.service.js';
import { selectInquiryMail } from './inquiries.sql.js';

/** The job that mails a new inquiry to its artist, when they chose mail (inquiry settings). */
export const INQUIRY_MAIL_JOB = 'inquiries.mail';

/**
 * The inquiries module (issue 42): requests to artists and their threads; a new one notifies the artist (the live
 * stream sends the notification) and, if they chose, is mailed by a background job, as the account mails are.
 */
export async function wireInquiries(
  shared: ServerContext<{ publicOrigin: string | undefined; port: number }>,
  { mail }: { mail: MailModule },
) {
  const { app, config, db, guards, jobs, limiter } = shared;
  const origin = config.publicOrigin ?? `http://localhost:${config.port}`;

  jobs.define<{ inquiryId: string }>(
    INQUIRY_MAIL_JOB,
    async ({ inquiryId }, job) => {
      const row = await selectInquiryMail(db, inquiryId);
      // Deleted since, mail turned off, or a block since: nothing to send.
      if (!row?.mail || row.blocked) return;
      const url = `${origin}/inquiries/${inquiryId}`;
      const excerpt = row.body.length > 500 ? `${row.body.slice(0, 500)}…` : row.body;
      await job.once(`mail:${inquiryId}`, () =>
        mail.mailer.send({
          ...inquiryMail(mailLocale(row.language), row.email, row.artist_username, row.client_username, excerpt, url),
          messageId: `inquiry-${inquiryId}@share-arts`,
        }),
      );
    },
    MAIL_JOB,
  );

  const inquiries = createInquiriesService({
    db,
    limiter,
    // Queued once the inquiry is committed: the job reads the row, and sends nothing if it is gone or mail is off.
    mailNew: async (inquiryId: string) => void (await jobs.send(INQUIRY_MAIL_JOB, { inquiryId })),
  });
  await app.register(inquiriesRoutes, { prefix: '/api', inquiries, guards });
  return { inquiries };
}

export type InquiriesModule = Awaited<ReturnType<typeof wireInquiries>>;
