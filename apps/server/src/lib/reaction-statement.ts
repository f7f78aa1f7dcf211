import { sql, type SQL } from 'drizzle-orm';
import { queryRowsAfterLock, type BoundStatement, type Db } from '../db/client.js';

/** A reaction of one of two opposite kinds (like or dislike, up or down) by a user to a row with counters. */
export interface ReactionWrite<Kind extends string> {
  /** The row reacted to: its table, the condition that finds it (on alias `t`), its counter per kind. */
  target: {
    table: 'posts' | 'comments';
    where: SQL;
    counters: Record<Kind, string>;
    /**
     * The statement that locks the row, when it also decides whether the user may react to it: it answers
     * `refused` (true: nothing is written, and the target reads as not found). By default the row is only locked.
     */
    lock?: SQL;
  };
  /** The reactions' table and its column naming the target (its primary key is that column and user_id). */
  reactions: { table: 'post_reactions' | 'comment_votes'; column: 'post_id' | 'comment_id' };
  userId: string;
  kind: Kind;
  /** A condition on `target` without which nothing is recorded (a dislike needs likes). */
  allowedWhen?: SQL;
  /**
   * The notification: `notifyOn` (a like, an upvote) notifies the target's author, the other kind withdraws
   * it when it replaced that one. `build` makes the CTEs for those conditions (notificationCtes).
   */
  notification: {
    notifyOn: Kind;
    build: (when: { from: SQL; notifyWhen: SQL; withdrawWhen: SQL }) => { ctes: SQL; events: SQL };
  };
  /** More select items, on `target` and `reaction` (events, checks). */
  selected?: SQL;
}

/**
 * Records a reaction: the target row is locked first, in a statement of its own (reactions to one row take
 * turns), then one statement does the rest with a snapshot taken under that lock (see
 * queryRowsAfterLock). It answers `found` (the target exists), `changed` (false when the user already
 * reacted so), the target's counters before (`like_count`) and, when it changed, after (`new_like_count`).
 *
 * - ON CONFLICT inserts the reaction or switches the other kind: of two identical requests, one changes
 *   it. `reaction.inserted` tells the two apart (xmax is 0 on a row the statement inserted, and set on
 *   the one it switched).
 * - The counters are written from the values read under the lock.
 */
export function recordReaction<Kind extends string, Row>(db: Db, write: ReactionWrite<Kind>): Promise<Row> {
  return runReaction<Row>(db, reactionStatements(write));
}

/** The two statements of a reaction (see recordReaction), to run with runReaction or keep as a template. */
export function reactionStatements<Kind extends string>(write: ReactionWrite<Kind>): { lock: SQL; statement: SQL } {
  return {
    lock: write.target.lock ?? sql`select from ${sql.raw(write.target.table)} t where ${write.target.where} for update`,
    statement: reactionStatement(write),
  };
}

/** Runs a reaction's statements (reactionStatements, maybe bound from a statementTemplate). */
export async function runReaction<Row>(
  db: Db,
  { lock, statement }: { lock: SQL | BoundStatement; statement: SQL | BoundStatement },
): Promise<Row> {
  const [row] = await queryRowsAfterLock<Row>(
    db,
    lock,
    statement,
    // No row locked: the statement still runs, and says what is missing (the target, or what holds it).
    (locked) => locked[0]?.refused !== true,
  );
  return row ?? ({ found: false, changed: false } as Row);
}

function reactionStatement<Kind extends string>(write: ReactionWrite<Kind>): SQL {
  const { target, reactions, userId, kind } = write;
  const notification = write.notification.build({
    from: sql`target, reaction`,
    notifyWhen: sql`${kind}::text = ${write.notification.notifyOn}::text`,
    withdrawWhen: sql`${kind}::text <> ${write.notification.notifyOn}::text and not reaction.inserted`,
  });
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
      )} from ${table} t where ${target.where}
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
      returning ${sql.join(
        counterColumns.map((column) => sql`t.${column}`),
        sql`, `,
      )}
    ),
    ${notification.ctes}
    select exists (select from target) as found, exists (select from reaction) as changed,
      ${sql.join(
        kinds.map((k, i) => {
          const column = counterColumns[i]!;
          return sql`(select ${column} from target) as ${column}, (select ${column} from counted) as ${sql.raw(`new_${target.counters[k]}`)}`;
        }),
        sql`, `,
      )},
      ${notification.events}${write.selected ? sql`, ${write.selected}` : sql``}`;
}
