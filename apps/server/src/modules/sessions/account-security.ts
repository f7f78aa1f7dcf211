import {
  SECURITY,
  SECURITY_ERRORS,
  SECURITY_EVENT_TITLES,
  type SecurityEvent,
  type SecurityEventKind,
} from '@share-arts/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import { HttpError } from '../../lib/http-error.js';
import { mailLocale } from '../../lib/i18n.js';
import { MAIL_JOB, securityNoticeMail, type Mailer } from '../mail/index.js';
import { describeDevice, describePlace } from './device.js';
import type { SessionClient } from './sessions.service.js';
import {
  confirmedSince,
  insertSecurityEvent,
  markReauthenticated,
  selectSecurityEvent,
  selectSecurityEvents,
  type SecurityEventRow,
} from './sessions.sql.js';

const NOTICE_JOB = 'mail.security-notice';

const toEvent = (row: SecurityEventRow): SecurityEvent => ({
  id: row.id,
  kind: row.kind,
  detail: row.detail,
  at: row.at,
  device: row.user_agent ? describeDevice(row.user_agent).device : '',
  place: row.address ? describePlace(row.address) : '',
});

/**
 * Account security (issue 38). "Sudo mode": what protects the account (its address, two-factor, passkeys) is
 * changed only by a session that signed in or confirmed who it is in the last SECURITY.reauthMinutes, so a
 * copied token alone cannot take the account. The security log: every such change is kept with the session's
 * device and network, listed to the owner, and mailed to the account's address from a background job.
 */
export function createAccountSecurity({
  db,
  jobs,
  mailer,
  origin,
  now,
}: {
  db: Db;
  jobs: JobQueue;
  mailer: Mailer;
  /** The origin the mails' links start with. */
  origin: string;
  now: () => number;
}) {
  jobs.define<{ eventId: string }>(
    NOTICE_JOB,
    async ({ eventId }, job) => {
      const row = await selectSecurityEvent(db, eventId);
      if (!row) return;
      const event = toEvent(row);
      await job.once(`mail:${eventId}`, async () => {
        const change = { title: SECURITY_EVENT_TITLES[event.kind], ...event };
        await mailer.send(
          securityNoticeMail(mailLocale(row.language), row.email, row.username, change, `${origin}/settings/account`),
        );
      });
    },
    MAIL_JOB,
  );

  return {
    /**
     * preHandler, after requireUser: 403 SECURITY_ERRORS.reauthRequired unless the session signed in or
     * confirmed who it is (POST /api/auth/reauthenticate) in the last SECURITY.reauthMinutes.
     */
    async requireConfirmed(request: FastifyRequest): Promise<void> {
      // An app's OAuth token (issue 45) never changes what protects the account, however new its session.
      if (request.scopes !== undefined) throw new HttpError(403, SECURITY_ERRORS.reauthRequired);
      const since = new Date(now() - SECURITY.reauthMinutes * 60_000);
      if (!(await confirmedSince(db, request.userId!, request.sessionId!, since))) {
        throw new HttpError(403, SECURITY_ERRORS.reauthRequired);
      }
    },

    /** The session proved who it is now: answers until when it may change what protects the account. */
    async confirmed(userId: string, sessionId: string): Promise<{ until: string }> {
      const at = new Date(now());
      await markReauthenticated(db, userId, sessionId, at);
      return { until: new Date(at.getTime() + SECURITY.reauthMinutes * 60_000).toISOString() };
    },

    /**
     * Keeps a change in the account's security log and, unless `mail` is false (a change that mails its own
     * notice), queues the mail about it to the account's address.
     */
    async record(
      userId: string,
      kind: SecurityEventKind,
      client: SessionClient | undefined,
      { detail = '', mail = true }: { detail?: string; mail?: boolean } = {},
    ): Promise<void> {
      const eventId = await insertSecurityEvent(db, {
        userId,
        kind,
        detail,
        at: new Date(now()),
        userAgent: client?.userAgent ?? '',
        address: client?.address ?? '',
      });
      if (mail) await jobs.send(NOTICE_JOB, { eventId });
    },

    async log(userId: string): Promise<SecurityEvent[]> {
      return (await selectSecurityEvents(db, userId, SECURITY.logMax)).map(toEvent);
    },
  };
}

export type AccountSecurity = ReturnType<typeof createAccountSecurity>;
