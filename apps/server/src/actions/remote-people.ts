/**
 * Following out (issue 39): what the federation module writes for remote people whose works come here. A remote
 * person is a `remote_actors` row and its shadow account, a `users` row joined to it (`users.remote_actor_id`,
 * migration 0039: username `preferredUsername@host`, no email, no password, so it can never sign in); their works
 * are ordinary `posts` (with `note_iri`) and `media` (with `remote_url`). Writes `remote_actors`, `users`, `posts`,
 * `post_media`, `media` (a picture's source and alt text) and the author's `post_count`. Called by the federation
 * module only.
 */
import { sql } from 'drizzle-orm';
import { LIMITS } from '@share-arts/contract';
import { queryRows, type Db } from '../db/client.js';
import { publish, publishSql } from '../events/events.js';
import { deleteAccountRows, type DeletedMedia } from './account-deletion.js';
import { deletePostRow } from './posts.js';

/** A remote person as last fetched. */
export interface RemotePersonFields {
  iri: string;
  /** `preferredUsername@host` (host lower case, punycode). */
  handle: string;
  /** Their preferredUsername. */
  username: string;
  inbox: string;
  sharedInbox: string | null;
  name: string;
  iconUrl: string | null;
  profileUrl: string | null;
  outbox: string | null;
  /** Their bio (`summary`) as text. */
  bio: string;
}

/** The first `max` characters (code points: no half of an emoji). */
const cut = (text: string, max: number) => [...text].slice(0, max).join('');

/**
 * Keeps a remote person (their `remote_actors` row, updated when it is there) and their shadow account, made once
 * and renamed with them (name, bio, handle). Answers the account's id and username, and whether it is new (the
 * caller then reads their newest works). A handle another shadow account holds already (the same name on the same
 * server, under another actor id: an account deleted and made again) is taken over: the old account keeps its works
 * under its actor id with the name made unique.
 */
export async function upsertShadowAccount(
  db: Db,
  person: RemotePersonFields,
): Promise<{ remoteActorId: string; userId: string; username: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const [actor] = await queryRows<{ id: string }>(
      tx,
      sql`insert into remote_actors (iri, handle, inbox, shared_inbox, name, icon_url, profile_url, outbox, username, fetched_at)
          values (${person.iri}, ${person.handle}, ${person.inbox}, ${person.sharedInbox}, ${person.name},
                  ${person.iconUrl}, ${person.profileUrl}, ${person.outbox}, ${person.username}, now())
          on conflict (iri) do update set handle = excluded.handle, inbox = excluded.inbox,
            shared_inbox = excluded.shared_inbox, name = excluded.name, icon_url = excluded.icon_url,
            profile_url = excluded.profile_url, outbox = excluded.outbox, username = excluded.username,
            fetched_at = now()
          returning id`,
    );
    const remoteActorId = actor!.id;
    const username = person.handle;
    // Another shadow account holding the handle (not this actor's): it steps aside under its row's id.
    await queryRows(
      tx,
      sql`update users set username = username || '~' || left(id::text, 8)
          where lower(username) = lower(${username}) and remote_actor_id is not null
            and remote_actor_id <> ${remoteActorId}::uuid`,
    );
    const firstName = cut(person.name || person.username, LIMITS.nameMax);
    const bio = cut(person.bio, LIMITS.bioMax);
    const link = person.profileUrl && person.profileUrl.length <= LIMITS.linkMax ? person.profileUrl : '';
    const [row] = await queryRows<{ id: string; username: string; created: boolean }>(
      tx,
      sql`insert into users (username, first_name, last_name, email, password_hash, bio, link, remote_actor_id)
          values (${username}, ${firstName}, '', '', '', ${bio}, ${link}, ${remoteActorId}::uuid)
          on conflict (remote_actor_id) do update set username = excluded.username, first_name = excluded.first_name,
            bio = excluded.bio, link = excluded.link,
            updated_at = case when (users.username, users.first_name, users.bio, users.link)
                                 is distinct from (excluded.username, excluded.first_name, excluded.bio, excluded.link)
                              then now() else users.updated_at end
          returning id, username, (xmax = 0) as created`,
    );
    // What posts and lists show of the account (its name) is read again.
    if (!row!.created) await publish(tx, { type: 'author-changed', userId: row!.id });
    return { remoteActorId, userId: row!.id, username: row!.username, created: row!.created };
  });
}

/** A remote work as the federation module read it from its Note. */
export interface RemoteWork {
  authorId: string;
  noteIri: string;
  noteUrl: string | null;
  content: string;
  /** The language of its words, from its Note's `contentMap` (issue 43), canonical; null: not said. */
  language: string | null;
  tags: string[];
  contentWarning: string | null;
  createdAt: Date | null;
  /** The pictures uploaded, in the Note's order, each with where it was fetched from. */
  pictures: { mediaId: string; remoteUrl: string }[];
}

/**
 * A remote work: the post at its `published` time, its pictures in order (each with its source), its author's post
 * count, and its `post-published` event marked `remote` (never sent out as our Create; the live frame goes to its
 * followers only, whose Home it is on), in one transaction. A Note stored already (by its id) is not stored again:
 * answers null, and the caller deletes the pictures it uploaded for it.
 */
export async function insertRemoteWork(db: Db, work: RemoteWork): Promise<string | null> {
  return db.transaction(async (tx) => {
    const tags = sql.join(
      work.tags.map((tag) => sql`${tag}`),
      sql`, `,
    );
    const time = work.createdAt?.toISOString() ?? null;
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`with created as (
            insert into posts (author_id, content, language, tags, content_warning, note_iri, note_url, created_at,
                               updated_at)
            select ${work.authorId}::uuid, ${work.content}, ${work.language}, array[${tags}]::text[],
                   ${work.contentWarning},
                   ${work.noteIri}, ${work.noteUrl}, coalesce(${time}::timestamptz, now()), coalesce(${time}::timestamptz, now())
            where exists (select from users where id = ${work.authorId}::uuid and remote_actor_id is not null)
            on conflict (note_iri) do nothing
            returning id, author_id, created_at, tags
          ),
          picked as (
            select (value->>'mediaId')::uuid as media_id, value->>'remoteUrl' as remote_url, n
            from json_array_elements(${JSON.stringify(work.pictures)}::json) with ordinality as p(value, n)
          ),
          pictures as (
            insert into post_media (post_id, media_id, position)
            select created.id, picked.media_id, (picked.n - 1)::smallint from created, picked
          ),
          sources as (
            update media m set remote_url = picked.remote_url from picked, created where m.id = picked.media_id
          ),
          counted as (
            update users u set post_count = u.post_count + 1 from created where u.id = created.author_id
          )
          select id, ${publishSql({
            type: 'post-published',
            postId: sql`id`,
            authorId: sql`author_id`,
            createdAt: sql`created_at`,
            tags: sql`tags`,
            remote: sql`true`,
          })} from created`,
    );
    return row?.id ?? null;
  });
}

/** A stored remote work: its post, author and pictures in order (with their source and alt text). */
export interface StoredRemoteWork {
  postId: string;
  authorId: string;
  remoteActorIri: string;
  pictures: { mediaId: string; remoteUrl: string | null; alt: string }[];
}

/** The remote work stored for a Note id, with its author's actor id; undefined when none. */
export async function selectRemoteWork(db: Db, noteIri: string): Promise<StoredRemoteWork | undefined> {
  const [row] = await queryRows<{
    id: string;
    author_id: string;
    iri: string;
    pictures: { mediaId: string; remoteUrl: string | null; alt: string }[];
  }>(
    db,
    sql`select p.id, p.author_id, ra.iri,
          coalesce((select json_agg(json_build_object('mediaId', m.id, 'remoteUrl', m.remote_url, 'alt', m.alt)
                                    order by pm.position)
                    from post_media pm join media m on m.id = pm.media_id where pm.post_id = p.id), '[]'::json) as pictures
        from posts p join users u on u.id = p.author_id join remote_actors ra on ra.id = u.remote_actor_id
        where p.note_iri = ${noteIri}`,
  );
  return row ? { postId: row.id, authorId: row.author_id, remoteActorIri: row.iri, pictures: row.pictures } : undefined;
}

/**
 * A remote work's `Update`: its words, tags and warning, and its pictures: the same ones with their alt texts, or
 * (`mediaIds`, pictures fetched again) others in their place. Answers the ids of the pictures it no longer shows,
 * whose rows and files the caller deletes after the commit. Its readers hear of it (`post-changed`, retagged).
 */
export async function updateRemoteWork(
  db: Db,
  change: {
    postId: string;
    content: string;
    language: string | null;
    tags: string[];
    contentWarning: string | null;
    /** The alt texts of the pictures kept, by id. */
    alts: { mediaId: string; alt: string }[];
    /** Pictures in place of the old ones, in order (when they changed). */
    replace?: { mediaId: string; remoteUrl: string }[];
  },
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const tags = sql.join(
      change.tags.map((tag) => sql`${tag}`),
      sql`, `,
    );
    await queryRows(
      tx,
      sql`update posts set content = ${change.content}, language = ${change.language}, tags = array[${tags}]::text[],
            content_warning = ${change.contentWarning}, updated_at = now()
          where id = ${change.postId}::uuid`,
    );
    let dropped: string[] = [];
    if (change.replace) {
      const old = await queryRows<{ media_id: string }>(
        tx,
        sql`delete from post_media where post_id = ${change.postId}::uuid returning media_id`,
      );
      dropped = old.map((row) => row.media_id);
      await queryRows(
        tx,
        sql`with picked as (
              select (value->>'mediaId')::uuid as media_id, value->>'remoteUrl' as remote_url, n
              from json_array_elements(${JSON.stringify(change.replace)}::json) with ordinality as p(value, n)
            ),
            placed as (
              insert into post_media (post_id, media_id, position)
              select ${change.postId}::uuid, media_id, (n - 1)::smallint from picked
            )
            update media m set remote_url = picked.remote_url from picked where m.id = picked.media_id`,
      );
    }
    for (const { mediaId, alt } of change.alts) {
      await queryRows(tx, sql`update media set alt = ${alt} where id = ${mediaId}::uuid and alt <> ${alt}`);
    }
    await publish(tx, { type: 'post-changed', postId: change.postId, retagged: true });
    return dropped;
  });
}

/**
 * A remote work's `Delete`: the post with its reactions, comments and bookmarks (counters kept exact: deletePostRow)
 * and its pictures' rows. Answers the pictures' files, which the caller removes after the commit.
 */
export async function removeRemoteWork(db: Db, work: { postId: string; authorId: string }): Promise<DeletedMedia[]> {
  return db.transaction(async (tx) => {
    const locked = await queryRows<{ id: string }>(
      tx,
      sql`select id from posts where id = ${work.postId}::uuid and author_id = ${work.authorId}::uuid
          and note_iri is not null for update`,
    );
    if (locked.length === 0) return [];
    const pictures = await queryRows<DeletedMedia & { id: string }>(
      tx,
      sql`select m.id, m.original_file, m.variants from post_media pm join media m on m.id = pm.media_id
          where pm.post_id = ${work.postId}::uuid`,
    );
    await deletePostRow(tx, work.postId, work.authorId);
    const ids = JSON.stringify(pictures.map((picture) => picture.id));
    await queryRows(
      tx,
      sql`delete from media where id in (select value::uuid from json_array_elements_text(${ids}::json))`,
    );
    return pictures.map(({ original_file, variants }) => ({ original_file, variants }));
  });
}

/**
 * The shadow accounts of the remote actors `actorIris` go, in the caller's transaction, with everything they own
 * (their works, pictures' rows, follows of them: deleteAccountRows keeps everyone's counters exact). Answers their
 * pictures' files, which the caller removes after the commit.
 */
export async function removeShadowAccounts(tx: Db, actorIris: string[]): Promise<DeletedMedia[]> {
  if (actorIris.length === 0) return [];
  const shadows = await queryRows<{ id: string }>(
    tx,
    sql`select u.id from users u join remote_actors ra on ra.id = u.remote_actor_id
        where ra.iri in (select value from json_array_elements_text(${JSON.stringify(actorIris)}::json))
        order by u.id`,
  );
  const files: DeletedMedia[] = [];
  for (const { id } of shadows) files.push(...(await deleteAccountRows(tx, id)).media);
  return files;
}
