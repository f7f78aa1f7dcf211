import { sql, type SQL } from 'drizzle-orm';

/** A reaction of one of two opposite kinds (like or dislike, up or down) by a user to a row with counters. */
export interface ReactionWrite<Kind extends string> {
  /** The row reacted to: its table, the condition that finds it (on alias `t`), its counter per kind. */
  target: { table: 'posts' | 'comments'; where: SQL; counters: Record<Kind, string> };
  /** The reactions' table and its column naming the target (its primary key is that column and user_id). */
  reactions: { table: 'post_reactions' | 'comment_votes'; column: 'post_id' | 'comment_id' };
  userId: string;
  kind: Kind;
  /** A condition on `target` without which nothing is recorded (a dislike needs likes). */
  allowedWhen?: SQL;
  /** What follows from `target, reaction` in the same statement (notifications, events): CTEs and select items. */
  then: { ctes: SQL; selected: SQL };
}

/**
 * The statement that records a reaction in one round trip, in its own transaction; it answers `found`
 * (the target exists), `changed` (false when the user already reacted so) and the target's counters.
 *
 * - The target row is locked first: reactions to one row take turns, and a locked row reads at its newest.
 * - ON CONFLICT inserts the reaction or switches the other kind, and always meets the newest reaction
 *   row: of two identical requests, one changes it. `reaction.inserted` tells the two apart (xmax is 0
 *   on a row the statement inserted, and set on the one it switched).
 * - The counters are written from the values read under the lock, not from the UPDATE's own row: the
 *   statement's snapshot may predate the last writer we waited for (that lost counts in a test of 12
 *   concurrent toggles on PostgreSQL).
 */
export function reactionStatement<Kind extends string>(write: ReactionWrite<Kind>): SQL {
  const { target, reactions, userId, kind, then } = write;
  const kinds = Object.keys(target.counters) as Kind[];
  const counterColumns = kinds.map((k) => sql.raw(target.counters[k]));
  const table = sql.raw(target.table);
  const counters = sql.join(
    kinds.map((k, i) => {
      const column = counterColumns[i]!;
      return sql`${column} = target.${column} + case when ${kind}::text = ${k}::text then 1 when reaction.inserted then 0 else -1 end`;
    }),
    sql`, `,
  );
  return sql`with target as (
      select t.id, t.author_id, ${sql.join(
        counterColumns.map((column) => sql`t.${column}`),
        sql`, `,
      )} from ${table} t where ${target.where} for update
    ),
    reaction as (
      insert into ${sql.raw(reactions.table)} as r (${sql.raw(reactions.column)}, user_id, kind)
      select id, ${userId}::uuid, ${kind}::text from target where ${write.allowedWhen ?? sql`true`}
      on conflict (${sql.raw(reactions.column)}, user_id) do update set kind = excluded.kind, created_at = now()
        where r.kind <> excluded.kind
      returning xmax::text = '0' as inserted
    ),
    counted as (
      update ${table} t set ${counters} from target, reaction where t.id = target.id
    ),
    ${then.ctes}
    select exists (select from target) as found, exists (select from reaction) as changed,
      ${sql.join(
        counterColumns.map((column) => sql`(select ${column} from target) as ${column}`),
        sql`, `,
      )},
      ${then.selected}`;
}
