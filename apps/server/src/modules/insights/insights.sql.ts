import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';

/**
 * Every statement of the insights module (issue 42). It writes `post_view_days` and `profile_view_days` only (counts
 * per work or profile, day, source and referring host); its reads count likes (`post_reactions`, `remote_reactions`),
 * saves (`bookmarks`) and additions to others' collections (`collection_works`) by when they were made.
 */

/** A batch of gathered views, one entry per row it adds to, as parallel lists. */
export interface ViewBatch {
  /** The work's id, or the profile's username. */
  subjects: string[];
  days: string[];
  sources: string[];
  hosts: string[];
  /** The signed-in viewer of each entry (null: signed out): the artist's own views are left out here. */
  viewers: (string | null)[];
  views: number[];
}

const asJson = (batch: ViewBatch) =>
  JSON.stringify(
    batch.subjects.map((subject, n) => ({
      subject,
      day: batch.days[n],
      source: batch.sources[n],
      host: batch.hosts[n],
      viewer: batch.viewers[n],
      views: batch.views[n],
    })),
  );

/**
 * Adds a batch to the count rows in one statement: the works' and the profiles' rows, each grouped and upserted;
 * entries of unknown works or people, and the artist's own, are left out.
 */
export async function upsertViewBatch(db: Db, posts: ViewBatch, profiles: ViewBatch): Promise<void> {
  const rows = sql`subject text, day date, source text, host text, viewer uuid, views int`;
  await queryRows(
    db,
    sql`with
      post_views as (
        select * from json_to_recordset(${asJson(posts)}::json) as v(${rows})
      ),
      profile_views as (
        select * from json_to_recordset(${asJson(profiles)}::json) as v(${rows})
      ),
      added_posts as (
        insert into post_view_days as d (post_id, day, source, host, views)
        select p.id, v.day, v.source, v.host, sum(v.views)::int
        from post_views v join posts p on p.id = v.subject::uuid
        where p.author_id is distinct from v.viewer
        group by p.id, v.day, v.source, v.host
        order by 1, 2, 3, 4
        on conflict (post_id, day, source, host) do update set views = d.views + excluded.views
        returning 1
      ),
      added_profiles as (
        insert into profile_view_days as d (user_id, day, source, host, views)
        select u.id, v.day, v.source, v.host, sum(v.views)::int
        from profile_views v join users u on lower(u.username) = lower(v.subject)
        where u.id is distinct from v.viewer and u.remote_actor_id is null
        group by u.id, v.day, v.source, v.host
        order by 1, 2, 3, 4
        on conflict (user_id, day, source, host) do update set views = d.views + excluded.views
        returning 1
      )
      select (select count(*) from added_posts) + (select count(*) from added_profiles) as rows`,
  );
}

/**
 * The statement of knownFediverseHosts: for each host, a probe of remote_actors_host_idx (migration 0050: the host
 * part of the IRI, `split_part(iri, '/', 3)`), then the scheme checked on the rows found. Exported for the test that
 * EXPLAINs it.
 */
export const knownFediverseHostsQuery = (hosts: string[]) =>
  sql`select h.host from json_array_elements_text(${JSON.stringify(hosts)}::json) as h(host)
      where exists (select from remote_actors ra
                    where split_part(ra.iri, '/', 3) = h.host and left(ra.iri, 8) = 'https://')`;

/** Which of these hosts serve people of the fediverse we know (a remote person's address is there). */
export async function knownFediverseHosts(db: Db, hosts: string[]): Promise<string[]> {
  if (hosts.length === 0) return [];
  const rows = await queryRows<{ host: string }>(db, knownFediverseHostsQuery(hosts));
  return rows.map((row) => row.host);
}

/** A work's author and first words, if there is such a local work. */
export async function selectPostOwner(db: Db, postId: string): Promise<{ author_id: string } | undefined> {
  const [row] = await queryRows<{ author_id: string }>(db, sql`select author_id from posts where id = ${postId}::uuid`);
  return row;
}

export interface DayRow {
  day: string;
  views: number;
  work_views: number;
  likes: number;
  saves: number;
  collections: number;
}

export interface SourceRow {
  source: string;
  host: string;
  views: number;
}

interface Window {
  from: string;
  to: string;
}

const start = (window: Window) => sql`(${window.from}::date)::timestamp at time zone 'UTC'`;
const utcDay = (column: SQL) => sql`(${column} at time zone 'UTC')::date`;

/** Likes, saves and additions to others' collections of the works `posts` selects (ids, alias-free), per day. */
const reactionsByDay = (posts: SQL, window: Window) => sql`
  likes as (
    select day, count(*)::int as n from (
      select ${utcDay(sql`r.created_at`)} as day from post_reactions r
      where r.post_id in ${posts} and r.kind = 'like' and r.created_at >= ${start(window)}
      union all
      select ${utcDay(sql`rr.created_at`)} from remote_reactions rr
      where rr.post_id in ${posts} and rr.kind = 'like' and rr.created_at >= ${start(window)}
    ) l group by day
  ),
  saves as (
    select ${utcDay(sql`b.created_at`)} as day, count(*)::int as n from bookmarks b
    where b.post_id in ${posts} and b.created_at >= ${start(window)} group by 1
  ),
  collected as (
    select ${utcDay(sql`cw.added_at`)} as day, count(*)::int as n
    from collection_works cw join collections c on c.id = cw.collection_id
    join posts p on p.id = cw.post_id
    where cw.post_id in ${posts} and c.owner_id <> p.author_id and cw.added_at >= ${start(window)} group by 1
  )`;

const daysOf = (window: Window) =>
  sql`days as (select d::date as day from generate_series(${window.from}::date, ${window.to}::date, interval '1 day') d)`;

const perDay = sql`
  select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(views.n, 0) as views, coalesce(work_views.n, 0) as work_views,
         coalesce(likes.n, 0) as likes, coalesce(saves.n, 0) as saves, coalesce(collected.n, 0) as collections
  from days
  left join views on views.day = days.day
  left join work_views on work_views.day = days.day
  left join likes on likes.day = days.day
  left join saves on saves.day = days.day
  left join collected on collected.day = days.day
  order by days.day`;

/** One work's counts per day of the window, every day there. */
export function selectPostDays(db: Db, postId: string, window: Window): Promise<DayRow[]> {
  const post = sql`(select ${postId}::uuid)`;
  return queryRows<DayRow>(
    db,
    sql`with ${daysOf(window)},
      views as (select day, sum(views)::int as n from post_view_days
                where post_id = ${postId}::uuid and day between ${window.from}::date and ${window.to}::date group by day),
      work_views as (select null::date as day, 0 as n where false),
      ${reactionsByDay(post, window)}
      ${perDay}`,
  );
}

/** An artist's counts per day: their profile's views, all their works' views, likes, saves and collections. */
export function selectProfileDays(db: Db, userId: string, window: Window): Promise<DayRow[]> {
  const works = sql`(select id from posts where author_id = ${userId}::uuid)`;
  return queryRows<DayRow>(
    db,
    sql`with ${daysOf(window)},
      views as (select day, sum(views)::int as n from profile_view_days
                where user_id = ${userId}::uuid and day between ${window.from}::date and ${window.to}::date group by day),
      work_views as (select day, sum(views)::int as n from post_view_days
                     where post_id in ${works} and day between ${window.from}::date and ${window.to}::date group by day),
      ${reactionsByDay(works, window)}
      ${perDay}`,
  );
}

/** Where a work's or a profile's views came from in the window, the most first. */
export function selectSources(
  db: Db,
  subject: { postId: string } | { userId: string },
  window: Window,
): Promise<SourceRow[]> {
  const from =
    'postId' in subject
      ? sql`post_view_days where post_id = ${subject.postId}::uuid`
      : sql`profile_view_days where user_id = ${subject.userId}::uuid`;
  return queryRows<SourceRow>(
    db,
    sql`select source, host, sum(views)::int as views from ${from}
        and day between ${window.from}::date and ${window.to}::date
        group by source, host order by 3 desc, 1, 2`,
  );
}

export interface TopWorkRow {
  id: string;
  content: string;
  variants: { width: number; format: string; file: string; animated?: boolean; gamut?: string }[] | null;
  original_file: string | null;
  views: number;
  likes: number;
  saves: number;
  collections: number;
}

/** An artist's works seen most in the window (up to 10), with their likes, saves and collections in it. */
export function selectTopWorks(db: Db, userId: string, window: Window): Promise<TopWorkRow[]> {
  return queryRows<TopWorkRow>(
    db,
    sql`with top as (
          select v.post_id, sum(v.views)::int as views from post_view_days v
          where v.post_id in (select id from posts where author_id = ${userId}::uuid)
            and v.day between ${window.from}::date and ${window.to}::date
          group by v.post_id order by 2 desc, 1 limit 10
        )
        select p.id, left(p.content, 120) as content, m.variants, m.original_file, top.views,
          (select count(*)::int from post_reactions r
           where r.post_id = p.id and r.kind = 'like' and r.created_at >= ${start(window)})
          + (select count(*)::int from remote_reactions rr
             where rr.post_id = p.id and rr.kind = 'like' and rr.created_at >= ${start(window)}) as likes,
          (select count(*)::int from bookmarks b where b.post_id = p.id and b.created_at >= ${start(window)}) as saves,
          (select count(*)::int from collection_works cw join collections c on c.id = cw.collection_id
           where cw.post_id = p.id and c.owner_id <> p.author_id and cw.added_at >= ${start(window)}) as collections
        from top join posts p on p.id = top.post_id
        left join lateral (select md.variants, md.original_file from post_media pm join media md on md.id = pm.media_id
                           where pm.post_id = p.id order by pm.position limit 1) m on true
        order by top.views desc, p.id`,
  );
}
