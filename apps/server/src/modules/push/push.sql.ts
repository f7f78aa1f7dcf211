import { sql, type SQL } from 'drizzle-orm';
import type { PushKind } from '@share-arts/contract';
import { queryRows, type Db } from '../../db/client.js';
import type { MediaVariant } from '../../db/schema.js';

/**
 * Every statement of the push module (issue 44). It writes `push_subscriptions` and `push_groups` only, and reads
 * the notifications (and their actors, works, comments) it pushes.
 */

export interface SubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  kinds: PushKind[];
  /** `web`: the web app's payload; `mastodon`: a Mastodon app's (issue 45). */
  client: 'web' | 'mastodon';
  /** Whose notifications a Mastodon app is pushed: all, followed, follower, none. */
  policy: AppPolicy;
  /** The Mastodon alerts a Mastodon app asked for (answered back as it gave them). */
  alerts: string[] | null;
  encoding: 'aes128gcm' | 'aesgcm';
  /** A Mastodon app's access token, sealed (push.token-seal.ts). */
  app_token: string | null;
}

export type AppPolicy = 'all' | 'followed' | 'follower' | 'none';

/** A Mastodon app's subscription's own settings (issue 45). */
export interface AppSettings {
  alerts: string[];
  policy: AppPolicy;
  encoding: 'aes128gcm' | 'aesgcm';
  appToken: string | null;
}

const ROW = sql.raw('id, endpoint, p256dh, auth, kinds, client, policy, alerts, encoding, app_token');

/** Subscribes this session's device, or replaces its subscription; an endpoint another session had is taken from it. */
export async function upsertSubscription(
  db: Db,
  row: {
    userId: string;
    sessionId: string;
    endpoint: string;
    p256dh: string;
    auth: string;
    kinds: PushKind[];
    /** A Mastodon app's subscription (issue 45); else the web app's. */
    app?: AppSettings;
  },
): Promise<SubscriptionRow> {
  const app = row.app;
  return db.transaction(async (tx) => {
    // One browser has one push subscription: the account signed in there last is the one it is pushed for.
    await tx.execute(
      sql`delete from push_subscriptions where endpoint = ${row.endpoint} and session_id <> ${row.sessionId}::uuid`,
    );
    const [saved] = await queryRows<SubscriptionRow>(
      tx,
      sql`insert into push_subscriptions (user_id, session_id, endpoint, p256dh, auth, kinds, client, policy, alerts,
            encoding, app_token)
          select ${row.userId}::uuid, s.id, ${row.endpoint}, ${row.p256dh}, ${row.auth}, ${kindsArray(row.kinds)},
            ${app ? 'mastodon' : 'web'}, ${app?.policy ?? 'all'}, ${app ? textArray(app.alerts) : sql`null::text[]`},
            ${app?.encoding ?? 'aes128gcm'}, ${app?.appToken ?? null}
          from sessions s where s.id = ${row.sessionId}::uuid and s.user_id = ${row.userId}::uuid
          on conflict (session_id) do update set endpoint = excluded.endpoint, p256dh = excluded.p256dh,
            auth = excluded.auth, kinds = excluded.kinds, client = excluded.client, policy = excluded.policy,
            alerts = excluded.alerts, encoding = excluded.encoding, app_token = excluded.app_token, failures = 0
          returning ${ROW}`,
    );
    return saved!;
  });
}

const textArray = (items: readonly string[]): SQL =>
  sql`array(select json_array_elements_text(${JSON.stringify(items)}::json))::text[]`;
const kindsArray = (kinds: readonly PushKind[]): SQL => textArray(kinds);

/** Changes a Mastodon app's subscription (its alerts, their kinds, its policy); undefined when it has none. */
export async function updateApp(
  db: Db,
  sessionId: string,
  change: { kinds?: PushKind[]; alerts?: string[]; policy?: AppPolicy },
): Promise<SubscriptionRow | undefined> {
  const [row] = await queryRows<SubscriptionRow>(
    db,
    sql`update push_subscriptions set
          kinds = ${change.kinds ? kindsArray(change.kinds) : sql`kinds`},
          alerts = ${change.alerts ? textArray(change.alerts) : sql`alerts`},
          policy = ${change.policy ?? sql`policy`}
        where session_id = ${sessionId}::uuid and client = 'mastodon'
        returning ${ROW}`,
  );
  return row;
}

/** Changes the kinds this session's device is pushed; undefined when it has no subscription. */
export async function updateKinds(db: Db, sessionId: string, kinds: PushKind[]): Promise<SubscriptionRow | undefined> {
  const [row] = await queryRows<SubscriptionRow>(
    db,
    sql`update push_subscriptions set kinds = ${kindsArray(kinds)} where session_id = ${sessionId}::uuid
        returning ${ROW}`,
  );
  return row;
}

export async function selectSubscription(db: Db, sessionId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await queryRows<SubscriptionRow>(
    db,
    sql`select ${ROW} from push_subscriptions where session_id = ${sessionId}::uuid`,
  );
  return row;
}

export async function selectByEndpoint(db: Db, endpoint: string): Promise<SubscriptionRow | undefined> {
  const [row] = await queryRows<SubscriptionRow>(
    db,
    sql`select ${ROW} from push_subscriptions where endpoint = ${endpoint}`,
  );
  return row;
}

/** A subscription the browser replaced: its new endpoint and keys (another row with that endpoint is dropped). */
export async function renewSubscription(
  db: Db,
  id: string,
  device: { endpoint: string; p256dh: string; auth: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from push_subscriptions where endpoint = ${device.endpoint} and id <> ${id}::uuid`);
    await tx.execute(
      sql`update push_subscriptions set endpoint = ${device.endpoint}, p256dh = ${device.p256dh}, auth = ${device.auth},
            failures = 0
          where id = ${id}::uuid`,
    );
  });
}

export async function deleteSubscription(db: Db, sessionId: string): Promise<void> {
  await db.execute(sql`delete from push_subscriptions where session_id = ${sessionId}::uuid`);
}

/** A dead subscription (404 or 410 from its push service, or too many failures): forgotten. */
export async function deleteSubscriptionById(db: Db, id: string): Promise<void> {
  await db.execute(sql`delete from push_subscriptions where id = ${id}::uuid`);
}

export async function selectDevice(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  const [row] = await queryRows<SubscriptionRow>(db, sql`select ${ROW} from push_subscriptions where id = ${id}::uuid`);
  return row;
}

export async function markDelivered(db: Db, id: string): Promise<void> {
  await db.execute(sql`update push_subscriptions set last_success_at = now(), failures = 0 where id = ${id}::uuid`);
}

/** Counts a failed delivery; answers the failures so far (undefined: the subscription is gone). */
export async function markFailed(db: Db, id: string): Promise<number | undefined> {
  const [row] = await queryRows<{ failures: number }>(
    db,
    sql`update push_subscriptions set failures = failures + 1 where id = ${id}::uuid returning failures`,
  );
  return row?.failures;
}

/** A notification's push group, from its kind (alias `n`): `like:<postId>`, `follow`, …; null when not pushed. */
const GROUP_KEY = sql`case when n.kind in ('like', 'boost') then 'like:' || n.post_id
    when n.kind = 'upvote' then 'upvote:' || n.comment_id
    when n.kind = 'comment' then 'comment:' || n.post_id
    when n.kind = 'mention' then 'mention:' || n.post_id
    when n.kind = 'follow' then 'follow'
    when n.kind in ('inquiry', 'inquiry-message', 'inquiry-state') then 'inquiry:' || n.inquiry_id
  end`;

/** The push kind of a notification (alias `n`). */
const PUSH_KIND = sql`case when n.kind in ('like', 'boost', 'upvote') then 'likes'
    when n.kind = 'comment' then 'comments'
    when n.kind = 'mention' then 'mentions'
    when n.kind = 'follow' then 'follows'
    when n.kind in ('inquiry', 'inquiry-message', 'inquiry-state') then 'inquiries'
  end`;

export interface GroupRef {
  user_id: string;
  group_key: string;
}

/**
 * Notifications that arrived in this process (their `notification-added` events), in one statement: each one's push
 * group is marked, once per group. `live` (this process has one of those people's sockets open): the groups are
 * marked seen live, and their next push sends nothing of what arrived meanwhile. Otherwise they become pending, and
 * the groups that were not already are answered (the caller queues their job). Nothing is written for a kind that
 * is not pushed, nor for someone with no device that takes the kind.
 */
export async function markGroups(
  db: Db,
  marks: { userId: string; notificationId: string }[],
  live: boolean,
): Promise<GroupRef[]> {
  if (marks.length === 0) return [];
  const input = JSON.stringify(marks.map((mark) => ({ user_id: mark.userId, notification_id: mark.notificationId })));
  return queryRows<GroupRef>(
    db,
    sql`with input as (select * from json_to_recordset(${input}::json) as i(user_id uuid, notification_id uuid)),
        arrived as (
          select n.recipient_id as user_id, n.created_at, ${GROUP_KEY} as group_key, ${PUSH_KIND} as push_kind
          from input i join notifications n on n.id = i.notification_id and n.recipient_id = i.user_id
        ),
        marked as (
          select distinct on (a.user_id, a.group_key) a.user_id, a.group_key, a.created_at
          from arrived a
          where a.group_key is not null
            and exists (select from push_subscriptions s where s.user_id = a.user_id and a.push_kind = any(s.kinds))
          order by a.user_id, a.group_key, a.created_at
        )
        insert into push_groups as g (user_id, group_key, pending, sent_up_to, live_seen_at)
        select user_id, group_key, ${!live}, created_at - interval '1 millisecond',
               ${live ? sql`now()` : sql`null::timestamptz`}
        from marked
        on conflict (user_id, group_key) do update set
          ${live ? sql`live_seen_at = now()` : sql`pending = true, sent_up_to = greatest(g.sent_up_to, excluded.sent_up_to)`}
        ${live ? sql`` : sql`where not g.pending`}
        returning g.user_id, g.group_key`,
  );
}

/** What a group gathered since its last push: its newest notification, with the group's counts. */
export interface GroupItemRow {
  user_id: string;
  group_key: string;
  id: string;
  kind: string;
  created_at: Date | string;
  total: number;
  actors: number;
  /** The newest person's name (null: an actor with no name at all). */
  actor_name: string | null;
  actor_photo: string | null;
  actor_username: string | null;
  post_id: string | null;
  post_content: string | null;
  post_pic: MediaVariant[] | null;
  comment_content: string | null;
  inquiry_id: string | null;
  inquiry_state: string | null;
  /** The recipient's language (`users.language`): the push is worded in it. */
  recipient_language: string | null;
  /** Whether the recipient follows the newest person, and whether they follow the recipient (Mastodon's policy). */
  actor_followed: boolean;
  actor_follows: boolean;
}

/**
 * Takes pending groups (their job's work) in one statement: for each, the unread notifications of the group since
 * its last push (the newest, with the count and the people), and marks them pushed. A group that is not pending
 * (an earlier try, or another process, took it) is left out; so is one that a tab of the person saw live meanwhile
 * (it is marked pushed, with nothing to push).
 */
export async function takeGroups(db: Db, groups: GroupRef[]): Promise<GroupItemRow[]> {
  if (groups.length === 0) return [];
  const wanted = JSON.stringify(groups.map((group) => ({ user_id: group.user_id, group_key: group.group_key })));
  return queryRows<GroupItemRow>(
    db,
    sql`with wanted as (select * from json_to_recordset(${wanted}::json) as w(user_id uuid, group_key text)),
        taken as (
          select pg.user_id, pg.group_key, pg.sent_up_to, coalesce(pg.live_seen_at > pg.sent_up_to, false) as live
          from push_groups pg join wanted w on w.user_id = pg.user_id and w.group_key = pg.group_key
          where pg.pending
          for update of pg
        ),
        batch as (
          select t.user_id, t.group_key, t.live, n.id, n.kind, n.created_at, n.actor_id, n.remote_actor_id, n.post_id,
                 n.comment_id, n.inquiry_id
          from taken t
          join notifications n on n.recipient_id = t.user_id and n.created_at > t.sent_up_to and n.read_at is null
          where ${GROUP_KEY} = t.group_key
        ),
        stats as (
          select user_id, group_key, count(*)::int as total,
                 count(distinct coalesce(actor_id, remote_actor_id))::int as actors, max(created_at) as newest
          from batch group by user_id, group_key
        ),
        pushed as (
          update push_groups pg set pending = false, live_seen_at = null,
                 sent_up_to = greatest(pg.sent_up_to, coalesce(s.newest, pg.sent_up_to))
          from taken t left join stats s on s.user_id = t.user_id and s.group_key = t.group_key
          where pg.user_id = t.user_id and pg.group_key = t.group_key
        ),
        newest as (
          select distinct on (user_id, group_key) * from batch where not live
          order by user_id, group_key, created_at desc, id desc
        )
        select b.user_id, b.group_key, b.id, b.kind, b.created_at, s.total, s.actors,
               coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username,
                        nullif(ra.name, ''), ra.username, ra.handle) as actor_name,
               u.photo_url as actor_photo, u.username as actor_username,
               p.id as post_id, p.content as post_content,
               (select m.variants from post_media pm join media m on m.id = pm.media_id
                where pm.post_id = p.id order by pm.position limit 1) as post_pic,
               c.content as comment_content,
               b.inquiry_id, iq.state as inquiry_state, r.language as recipient_language,
               exists (select from follows f where f.follower_id = b.user_id and f.followee_id = b.actor_id
                       and not f.pending) as actor_followed,
               exists (select from follows f where f.follower_id = b.actor_id and f.followee_id = b.user_id
                       and not f.pending) as actor_follows
        from newest b
        join users r on r.id = b.user_id
        join stats s on s.user_id = b.user_id and s.group_key = b.group_key
        left join users u on u.id = b.actor_id
        left join remote_actors ra on ra.id = b.remote_actor_id
        left join posts p on p.id = b.post_id and p.moderation_state is null
        left join comments c on c.id = b.comment_id
        left join inquiries iq on iq.id = b.inquiry_id`,
  );
}

/** The devices of these people (each with the kinds it takes). */
export async function selectDevicesOf(db: Db, userIds: string[]): Promise<(SubscriptionRow & { user_id: string })[]> {
  if (userIds.length === 0) return [];
  return queryRows(
    db,
    sql`select ${ROW}, user_id from push_subscriptions
        where user_id in (select json_array_elements_text(${JSON.stringify(userIds)}::json)::uuid)`,
  );
}

/** Pushes delivered: each subscription's last success, its failures back to 0. */
export async function markManyDelivered(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`update push_subscriptions set last_success_at = now(), failures = 0
        where id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::uuid)`,
  );
}

/** Dead subscriptions (404 or 410, or a push service on a private address): forgotten. */
export async function deleteSubscriptions(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`delete from push_subscriptions where id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::uuid)`,
  );
}

/** The groups waiting for their job (tests push them at once). */
export async function selectPendingGroups(db: Db): Promise<{ user_id: string; group_key: string }[]> {
  return queryRows(db, sql`select user_id, group_key from push_groups where pending`);
}
