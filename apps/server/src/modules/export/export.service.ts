import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { EXPORT_ERRORS, EXPORT_LIMITS, formatDate, type ExportLink } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { createExportArchive, type ExportLog, type PictureFiles } from './export.archive.js';

/** A running export renews its row this often; a row not renewed for RUN_STALE_SECONDS is a dead process's. */
const RENEW_EVERY_MS = 15_000;
const RUN_STALE_SECONDS = 60;

/** An account's usable links: the newest; asking for more drops the oldest, so asking in a loop stores no more. */
const LINKS_KEPT = 5;

const hashOf = (token: string) => hash('sha256', token, 'hex');

const running = () => new HttpError(409, EXPORT_ERRORS.running);

/** What GET /api/account/export/:token sends: the zip and the name it is saved under. */
export interface ExportDownload {
  stream: Readable;
  fileName: string;
}

/**
 * "Download your data" (issue 24). The signed-in client asks for a link; the browser then downloads
 * the zip from it, so the browser's own download manager receives the stream (nothing held in the
 * page). A link is a random token, stored only as its hash, that works once within a few minutes.
 *
 * One export at a time per account, across processes: the running export holds the account's row in
 * export_runs, taken in the same transaction that uses the link (so a refused download leaves the link
 * unused), renewed while the zip streams and deleted when the stream ends, however it ends. A process
 * that dies leaves a row nobody renews, which the next export takes over after a minute. A PostgreSQL
 * advisory lock would need a connection held for the whole download, and PGlite, one session for every
 * request, would grant it to every request alike; a row works the same on both.
 */
export function createExportService({ db, storage, log }: { db: Db; storage: PictureFiles; log: ExportLog }) {
  const fresh = sql`renewed_at > now() - make_interval(secs => ${RUN_STALE_SECONDS})`;

  return {
    /** A one-time link to the zip; 409 while an export of the account runs. */
    async createLink(userId: string): Promise<ExportLink> {
      const [busy] = await queryRows(db, sql`select 1 from export_runs where user_id = ${userId}::uuid and ${fresh}`);
      if (busy) throw running();
      const token = randomBytes(32).toString('base64url');
      const [row] = await queryRows<{ expires_at: string }>(
        db,
        sql`with gone as (
              delete from export_links l where l.user_id = ${userId}::uuid and (l.used_at is not null
                or l.expires_at <= now() or l.token_hash not in (select token_hash from export_links
                  where user_id = ${userId}::uuid order by created_at desc limit ${LINKS_KEPT - 1}))
            )
            insert into export_links (token_hash, user_id, expires_at)
            values (${hashOf(token)}, ${userId}::uuid, now() + make_interval(mins => ${EXPORT_LIMITS.linkMinutes}))
            returning expires_at`,
      );
      return { url: `/api/account/export/${token}`, expiresAt: formatDate(new Date(row!.expires_at)) };
    },

    /**
     * Uses a link: the zip of its account, streamed. 404 for a link that is unknown, used or expired;
     * 409 while another export of the account runs (the link stays usable until it expires).
     */
    async download(token: string): Promise<ExportDownload> {
      const runId = randomUUID();
      const { userId, username } = await db.transaction(async (tx) => {
        const [link] = await queryRows<{ user_id: string; username: string }>(
          tx,
          sql`update export_links l set used_at = now() from users u
              where l.token_hash = ${hashOf(token)} and l.used_at is null and l.expires_at > now() and u.id = l.user_id
              returning l.user_id, u.username`,
        );
        if (!link) throw notFound(EXPORT_ERRORS.linkNotFound);
        // Taken only when free or abandoned; a concurrent taker waits for this row and then finds it fresh.
        const [run] = await queryRows(
          tx,
          sql`insert into export_runs (user_id, run_id) values (${link.user_id}::uuid, ${runId}::uuid)
              on conflict (user_id) do update set run_id = excluded.run_id, renewed_at = now(), started_at = now()
                where export_runs.renewed_at <= now() - make_interval(secs => ${RUN_STALE_SECONDS})
              returning run_id`,
        );
        if (!run) throw running();
        return { userId: link.user_id, username: link.username };
      });

      const renew = setInterval(() => {
        queryRows(
          db,
          sql`update export_runs set renewed_at = now() where user_id = ${userId}::uuid and run_id = ${runId}::uuid`,
        ).catch((err: unknown) => log.warn({ err, userId }, 'could not renew an export run'));
      }, RENEW_EVERY_MS);
      renew.unref();
      let released: Promise<void> | undefined;
      const release = () => {
        clearInterval(renew);
        released ??= queryRows(
          db,
          sql`delete from export_runs where user_id = ${userId}::uuid and run_id = ${runId}::uuid`,
        ).then(
          () => {},
          (err: unknown) => log.warn({ err, userId }, 'could not end an export run (it lapses in a minute)'),
        );
        return released;
      };

      // The run ends before the zip's last bytes leave, so a client that has the whole zip may start the
      // next export at once; failed or abandoned by the client (Fastify destroys the stream), on close.
      const { stream } = createExportArchive({ db, storage, userId, log, beforeEnd: release });
      stream.once('close', () => void release());
      const day = new Date().toISOString().slice(0, 10);
      return { stream, fileName: `share-arts-${username.replace(/[^A-Za-z0-9_.-]/g, '_')}-${day}.zip` };
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
