import {
  ERRORS,
  PAGE_LIMITS,
  TAG_LIMITS,
  type FollowedTagPage,
  type PageQuery,
  type ExploreQuery,
  type TagState,
  type TagSuggestions,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { primaryOnly, type ReadRouting } from '../../db/replicas.js';
import { badRequest } from '../../lib/http-error.js';
import type { PostPageResult, PostsService } from '../posts/index.js';
import {
  deleteTagFollow,
  insertTagFollow,
  selectFollowedTags,
  selectTagState,
  selectTagSuggestions,
  type TagStateRow,
} from './tags.sql.js';

/** What a tag may be, as `extractHashtags` finds it in a post: letters, digits and `_` of any script. */
const TAG = new RegExp(`^[\\p{L}\\p{N}_]{1,${TAG_LIMITS.maxLength}}$`, 'u');
/** What may start one (a prefix being typed). */
const TAG_PREFIX = new RegExp(`^[\\p{L}\\p{N}_]{0,${TAG_LIMITS.maxLength}}$`, 'u');

/** The tag as posts store it (lower case); a 400 naming the rule for anything else. */
export function normalizeTag(tag: string): string {
  if (!TAG.test(tag)) throw badRequest(ERRORS.invalidTag);
  return tag.toLowerCase();
}

const toState = (row: TagStateRow): TagState => ({
  tag: row.tag,
  postCount: Number(row.post_count),
  following: row.following,
});

/** Tags: a tag's page and count, following tags, and the tags to suggest as someone types `#`. */
export function createTagsService({
  db,
  reads = primaryOnly(db),
  posts,
  followsChanged = () => {},
}: {
  db: Db;
  /** Where the reads of pages may go: a caught-up replica, or the primary (db/replicas.ts, issue 25). */
  reads?: ReadRouting;
  posts: PostsService;
  /** The user's followed tags changed: this process forgets their Home at once (the others hear `viewer-changed`). */
  followsChanged?: (userId: string) => void;
}) {
  /** A writer's reads are on the primary (db/replicas.ts), so setFollow's answer sees its own write. */
  async function state(tag: string, viewerId: string | null): Promise<TagState> {
    return toState(await selectTagState(reads.reader(viewerId), normalizeTag(tag), viewerId));
  }

  return {
    state,

    /** The posts carrying the tag, in the sorts and pages of every posts list. */
    posts(tag: string, query: ExploreQuery, viewerId: string | null): Promise<PostPageResult> {
      return posts.tagged(normalizeTag(tag), query, viewerId);
    },

    /** Follows or unfollows; doing it twice changes nothing. Past TAG_LIMITS.followMax tags: 400. */
    async setFollow(userId: string, tag: string, follow: boolean): Promise<TagState> {
      const name = normalizeTag(tag);
      if (follow) {
        if (!(await insertTagFollow(db, userId, name))) throw badRequest(ERRORS.tooManyFollowedTags);
      } else {
        await deleteTagFollow(db, userId, name);
      }
      followsChanged(userId);
      return state(name, userId);
    },

    async followed(userId: string, query: PageQuery): Promise<FollowedTagPage> {
      const { page, nextCursor } = await selectFollowedTags(reads.reader(userId), userId, {
        cursor: query.cursor,
        limit: query.limit ?? PAGE_LIMITS.default,
      });
      return { tags: page.map(toState), nextCursor };
    },

    /**
     * Tags starting with what was typed, the most used first. A prefix no tag could start with (a space,
     * punctuation) finds none rather than failing: it is typing in progress.
     */
    async suggest(prefix: string | undefined, limit: number | undefined): Promise<TagSuggestions> {
      const typed = (prefix ?? '').replace(/^#/u, '');
      if (!TAG_PREFIX.test(typed)) return { tags: [] };
      const rows = await selectTagSuggestions(db, typed.toLowerCase(), limit ?? TAG_LIMITS.suggestDefault);
      return { tags: rows.map((row) => ({ tag: row.tag, postCount: Number(row.post_count) })) };
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
