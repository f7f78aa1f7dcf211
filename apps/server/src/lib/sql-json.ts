import { sql, type SQL } from 'drizzle-orm';

/** A timestamptz as the contract's `YYYY-MM-DDTHH:mm:ssZ` string, built by the database inside JSON. */
export const isoDate = (column: string): SQL =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`);

/** A media row as JSON with the keys of Drizzle's row type (what toPicture reads); null when absent. */
export const mediaJson = (alias: string): SQL =>
  sql.raw(
    `case when ${alias}.id is null then null else json_build_object(` +
      `'id', ${alias}.id, 'ownerId', ${alias}.owner_id, 'purpose', ${alias}.purpose, ` +
      `'originalFile', ${alias}.original_file, 'originalMime', ${alias}.original_mime, ` +
      `'originalBytes', ${alias}.original_bytes, 'width', ${alias}.width, 'height', ${alias}.height, ` +
      `'placeholder', ${alias}.placeholder, 'alt', ${alias}.alt, 'variants', ${alias}.variants, ` +
      `'originalName', ${alias}.original_name, 'pixelated', ${alias}.pixelated, 'animated', ${alias}.animated, ` +
      `'blurhash', ${alias}.blurhash, 'focusX', ${alias}.focus_x, 'focusY', ${alias}.focus_y) end`,
  );

/**
 * The newest `cap` users who reacted with `kind` in `table` to the row `column = id`, the viewer first
 * when among them (without a viewer, only the newest), as `[{ _id, username }]`. Both parts read the
 * (row, kind, created_at DESC) index in order, so a post with a million likes costs the same as one
 * with twenty. `count` is the row's counter of that kind, kept in the same transaction as the reactions:
 * when it is 0 nothing is looked up (most comments have no votes of a kind, many posts no likes).
 */
export function reactorsJson(options: ReactorListOptions & { count: SQL }): SQL {
  return sql`case when ${options.count} = 0 then '[]'::json else ${reactorList(options)} end`;
}

interface ReactorListOptions {
  table: 'post_reactions' | 'comment_votes';
  column: 'post_id' | 'comment_id';
  id: SQL;
  kind: string;
  viewerId: string | null;
  cap: number;
  /** A condition on a reactor's id (`user_id`) for this viewer: whom they may see among the reactors. */
  seen?: (userId: SQL) => SQL;
}

/** A suspended account is named in nobody's list of who liked or voted (issue 38, item 8); the counts keep it. */
const NOT_SUSPENDED = sql`not (ru.suspended_until is not null and ru.suspended_until > now())`;

function reactorList(options: ReactorListOptions): SQL {
  const { table, column, id, kind, viewerId, cap, seen } = options;
  const from = sql.raw(`${table}`);
  const key = sql.raw(column);
  if (viewerId === null) {
    return sql`coalesce((
    select json_agg(json_build_object('_id', ru.id, 'username', ru.username) order by r.created_at desc)
    from (
      select user_id, created_at from ${from}
      where ${key} = ${id} and kind = ${kind}
      order by created_at desc
      limit ${cap}
    ) r
    join users ru on ru.id = r.user_id and ${NOT_SUSPENDED}
  ), '[]'::json)`;
  }
  return sql`coalesce((
    select json_agg(json_build_object('_id', ru.id, 'username', ru.username) order by r.rank)
    from (
      (select user_id, 0 as rank from ${from}
       where ${key} = ${id} and kind = ${kind} and user_id = ${viewerId}::uuid)
      union all
      (select user_id, row_number() over (order by created_at desc) as rank from ${from}
       where ${key} = ${id} and kind = ${kind} and user_id is distinct from ${viewerId}::uuid
         and ${seen ? seen(sql`user_id`) : sql`true`}
       order by created_at desc
       limit ${cap})
      order by rank
      limit ${cap}
    ) r
    join users ru on ru.id = r.user_id and ${NOT_SUSPENDED}
  ), '[]'::json)`;
}

/**
 * Someone on another server (the remote_actors row `alias`, issue 39) as the fields a PersonSummary adds for them,
 * in SQL, for answers the database writes whole (a comment): `firstName` their name (the handle's user part when
 * they gave none) and `remote` `{ handle, url }` (their page, else their actor id; the inbox keeps only http(s)
 * ones), as the users module's toPersonSummary names them in notifications and followers lists.
 */
export const remotePersonFields = (alias: string): SQL =>
  sql.raw(
    `'firstName', coalesce(nullif(btrim(${alias}.name), ''), split_part(${alias}.handle, '@', 1)), ` +
      `'remote', json_build_object('handle', ${alias}.handle, 'url', coalesce(${alias}.profile_url, ${alias}.iri))`,
  );
