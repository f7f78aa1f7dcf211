import { sql, type SQL } from 'drizzle-orm';
import { POST_REACTION_CAP } from '@share-arts/contract';
import { isoDate, reactorsJson } from '../../lib/sql-json.js';
import { DEFAULT_AVATAR_URL } from '../../lib/assets.js';
import { literalLimit } from '../../lib/sql-limit.js';

/**
 * A comment (alias `c`, its author `cu`) as JSON in the contract's Comment shape, built by the
 * database: the answer sends it as it comes.
 */
export function commentJson(viewerId: string | null): SQL {
  const votes = (kind: 'up' | 'down') =>
    reactorsJson({
      table: 'comment_votes',
      column: 'comment_id',
      id: sql`c.id`,
      kind,
      viewerId,
      cap: POST_REACTION_CAP,
      count: kind === 'up' ? sql`c.upvote_count` : sql`c.downvote_count`,
    });
  return sql`json_build_object(
    '_id', c.id, 'postId', c.post_id, 'userId', c.author_id, 'username', cu.username,
    'userPhoto', coalesce(cu.photo_url, ${DEFAULT_AVATAR_URL}::text),
    'content', c.content, 'createdAt', ${isoDate('c.created_at')}, 'updatedAt', ${isoDate('c.updated_at')},
    'edited', c.edited,
    'votes', json_build_object(
      'upvoteCount', c.upvote_count, 'downvoteCount', c.downvote_count,
      'upvotedBy', ${votes('up')}, 'downvotedBy', ${votes('down')}
    ),
    'viewerVote', ${
      viewerId === null
        ? sql`null::text`
        : sql`case when c.upvote_count + c.downvote_count = 0 then null
            else (select v.kind from comment_votes v where v.comment_id = c.id and v.user_id = ${viewerId}::uuid) end`
    }
  )`;
}

/**
 * The newest `cap` comments of the post `postId` as anyone sees them (viewerVote null, no viewer placed
 * first), as a JSON array, newest first: the post cache's part, which each request personalizes.
 */
export function newestCommentsJson(postId: SQL, cap: number): SQL {
  return sql`coalesce((
    select json_agg(x.comment order by x.created_at desc, x.id desc)
    from (
      select ${commentJson(null)} as comment, c.created_at, c.id
      from comments c join users cu on cu.id = c.author_id
      where c.post_id = ${postId}
      order by c.created_at desc, c.id desc
      ${literalLimit(cap)}
    ) x
  ), '[]'::json)`;
}
