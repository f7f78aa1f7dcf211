import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/** The PostgreSQL channel every server process listens on. */
export const EVENT_CHANNEL = 'share_arts_live';

/**
 * What changed, as small as possible: the receiving processes read the current state themselves, so
 * events may be coalesced and never carry stale numbers. Sent inside the action's transaction (SQL
 * function share_arts_publish, migration 0024): on PostgreSQL it is written to the outbox, which the relay
 * (outbox.ts) sends once the transaction has committed; elsewhere (PGlite) with `pg_notify`, which
 * PostgreSQL delivers only when (and if) the transaction commits. Either way in commit order per post.
 */
export type DomainEvent =
  /** A notification row was written for its recipient. */
  | { type: 'notification-added'; recipientId: string; notificationId: string }
  /** The recipient's unread count changed without a new notification (read, or an action undone). */
  | { type: 'unread-changed'; recipientId: string }
  /**
   * The post's like or comment count changed. `reactions`: by a like or dislike, which changes nothing else
   * of the post than its counts and newest reactors.
   */
  | { type: 'post-counts-changed'; postId: string; reactions?: true }
  /**
   * A user published a post, with its time (`created_at` as JSON writes it) and tags: the Home timelines
   * kept in memory (posts/home-timeline.ts) take it in from these alone. `imported`: a work brought from another
   * service (issue 40), at its original time: the timelines take it in at its place, but it is no news (no live
   * `post` frame, no `Create` to the fediverse). `remote`: a work from another server (following out, issue 39):
   * never sent out as our `Create`; its live frame goes to its author's followers only (it is in no public list).
   */
  | {
      type: 'post-published';
      postId: string;
      authorId: string;
      createdAt: string;
      tags: string[];
      imported?: true;
      remote?: true;
    }
  /** An import of the user's moved on (issue 40): their sockets are told to read it again. */
  | { type: 'import-progress'; userId: string; importId: string }
  /**
   * The post's content or picture changed, or it was deleted. `retagged`: an edit of its words, which may have
   * changed its tags (and so whose Home it is on).
   */
  | { type: 'post-changed'; postId: string; retagged?: true }
  /** A comment of the post was edited, or voted on by `voterId` (what the post's newest comments show changed). */
  | { type: 'comments-changed'; postId: string; voterId?: string }
  /** The user changed what their posts show of them (name, photo). */
  | { type: 'author-changed'; userId: string }
  /**
   * What the user's public profile shows changed (issue 39): name, bio, photo, link, the AI-training opt-out, who
   * sees their works, or their pinned works. The federation module sends the fediverse an Update of the actor.
   */
  | { type: 'profile-changed'; userId: string }
  /** A comment was added to the post (issue 39: the federation module sends a public one as a reply). */
  | { type: 'comment-published'; commentId: string; postId: string; authorId: string }
  /** The user signed up (people searches must find them). */
  | { type: 'user-joined'; userId: string }
  /** The user's account was deleted (sent by a trigger on the users table, migrations 0007 and 0009). */
  | { type: 'account-deleted'; userId: string }
  /**
   * Sessions ended (issue 24: LOG OUT, ended from the settings, a password change or reset): their tokens are
   * refused and their live sockets closed. `sessionId` absent: every session of the user, but `except` if given
   * (a password change keeps the session that made it).
   */
  | { type: 'session-ended'; userId: string; sessionId?: string; except?: string }
  /**
   * What these people hide changed (issue 23): a block or unblock (both people), a mute or unmute, a muted word
   * added or removed (the muter). Every process forgets their remembered relations (safety/relations.ts).
   */
  | { type: 'relations-changed'; userIds: string[] }
  /**
   * What the user reacted to, saved or follows changed (issue 26): a like or dislike, a bookmark added or removed,
   * a follow or unfollow of a person or a tag. Every process forgets their remembered viewer state and Home
   * timeline (posts/viewer-state.ts).
   */
  | { type: 'viewer-changed'; userId: string }
  /**
   * A report of something from another server that its reporter asked to send there too (issue 39): the federation
   * module sends that server a `Flag` from the instance actor (reports.forward_to, claimed once).
   */
  | { type: 'report-forwarded'; reportId: string }
  /**
   * A remote person's server answered the user's follow of them (issue 39, following out): `accepted`, or refused
   * (the follow ended). The live module tells the user's browser, whose follow button leaves "Requested".
   */
  | { type: 'follow-answered'; userId: string; followeeId: string; accepted: boolean };

let lastPublish = 0;
/** When this process last wrote an event (Date.now()): the outbox relay looks for new ones while it is recent. */
export const lastPublishAt = (): number => lastPublish;
/** This process is writing an event now (publish and publishSql say so themselves; a statement built once, too). */
export const notePublish = (): void => {
  lastPublish = Date.now();
};

export async function publish(tx: Db, event: DomainEvent): Promise<void> {
  notePublish();
  await tx.execute(sql`select share_arts_publish(${JSON.stringify(event)})`);
}

/** An event whose values the statement sending it computes (its fields as SQL expressions). */
type SqlEvent<E = DomainEvent> = E extends DomainEvent ? { [F in keyof E]: F extends 'type' ? E[F] : SQL } : never;

/**
 * `publish` as an expression inside a larger statement (a write done in one round trip): the event's JSON
 * is built by the database from values only the statement knows, such as the id of a row it inserts.
 */
export function publishSql(event: SqlEvent): SQL {
  const fields = Object.entries(event).map(([key, value]) =>
    typeof value === 'string' ? sql`${key}::text, ${value}::text` : sql`${key}::text, ${value as SQL}`,
  );
  notePublish();
  return sql`share_arts_publish(json_build_object(${sql.join(fields, sql`, `)})::text)`;
}

/** The events of a notification: one event, or the relay's batch (a JSON array of events). */
export function parseEvents(payload: string): DomainEvent[] {
  if (!payload.startsWith('[')) {
    const event = parseEvent(payload);
    return event ? [event] : [];
  }
  try {
    const events = JSON.parse(payload) as unknown[];
    return Array.isArray(events)
      ? events.filter(
          (e): e is DomainEvent => typeof e === 'object' && e !== null && typeof (e as DomainEvent).type === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function parseEvent(payload: string): DomainEvent | null {
  try {
    const event = JSON.parse(payload) as DomainEvent;
    return typeof event === 'object' && event !== null && typeof event.type === 'string' ? event : null;
  } catch {
    return null;
  }
}
