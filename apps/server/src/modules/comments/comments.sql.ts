import { sql, type SQL } from 'drizzle-orm';
import { POST_REACTION_CAP } from '@share-arts/contract';
import { isoDate, reactorsJson } from '../../lib/sql-json.js';

/**
 * A comment (alias `c`, its author `cu`) as JSON: the contract's Comment but for the author photo,
 * which the presenter resolves (`photoUrl`, null for the default).
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
    });
  return sql`json_build_object(
    '_id', c.id, 'postId', c.post_id, 'userId', c.author_id, 'username', cu.username, 'photoUrl', cu.photo_url,
    'content', c.content, 'createdAt', ${isoDate('c.created_at')}, 'updatedAt', ${isoDate('c.updated_at')},
    'edited', c.edited, 'upvoteCount', c.upvote_count, 'downvoteCount', c.downvote_count,
    'upvotedBy', ${votes('up')}, 'downvotedBy', ${votes('down')},
    'viewerVote', (select v.kind from comment_votes v where v.comment_id = c.id and v.user_id = ${viewerId}::uuid)
  )`;
}
