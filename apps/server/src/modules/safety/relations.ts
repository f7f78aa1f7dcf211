import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import { createUserMemory } from '../../lib/user-memory.js';
import { selectRelations } from './safety.sql.js';

/**
 * What a viewer does not see of other people (issue 23), as one read of the blocks, mutes and muted words
 * tables gives it. Never changed once built: a change makes a new one.
 */
export interface Relations {
  /** Those the viewer blocked and those who blocked them: hidden everywhere. */
  blocked: ReadonlySet<string>;
  /** Those the viewer muted: hidden from their lists and comment threads. */
  muted: ReadonlySet<string>;
  /** The muted words without the tags (as typed), and the muted #tags in lower case without '#'. */
  words: readonly string[];
  tags: readonly string[];
  /** None of the above: nothing to filter. */
  none: boolean;
  /**
   * The share of the rows each list dropped for this viewer lately (see posts.reader.ts's page): how many
   * more rows its next page asks for at once. Kept here, so it is forgotten with the relations.
   */
  dropRates: Map<string, number>;
}

export const NO_RELATIONS: Relations = Object.freeze({
  blocked: new Set<string>(),
  muted: new Set<string>(),
  words: [],
  tags: [],
  none: true,
  dropRates: new Map<string, number>(),
});

export interface RelationsCache {
  /** The viewer's relations: remembered, else read once (concurrent requests share the read). */
  of(userId: string): Promise<Relations>;
  /** Forgets these people's relations at once in this process (every process hears `relations-changed`). */
  forget(userIds: readonly string[]): void;
}

/**
 * Each viewer's blocks (either way), mutes and muted words, remembered as the account and session checks
 * remember theirs, so a page of posts filters them in memory instead of asking the database on every
 * request. A block or unblock sends `relations-changed` for both people in its transaction, a mute, an
 * unmute or a muted word for the muter, and every process forgets them; the process that wrote also forgets
 * them at once (`forget`), before the answer leaves. A read in progress when they are forgotten is not
 * remembered; after the event listener was away, nothing is. Bounded by the number of people remembered
 * in all (someone who blocks 1,000 people weighs 1,000).
 */
export function createRelationsCache({
  db,
  bus,
  maxSize = 1_000_000,
}: {
  db: Db;
  bus: EventBus;
  maxSize?: number;
}): RelationsCache {
  // Someone in no relation at all shares the one empty record (its drop rates stay empty).
  const memory = createUserMemory<Relations>({
    maxSize,
    sizeOf: (relations) => 1 + relations.blocked.size + relations.muted.size + relations.words.length,
    load,
  });
  bus.subscribe(
    (event) => {
      if (event.type === 'relations-changed') memory.forget(event.userIds);
      // The account's blocks and mutes went with it (ON DELETE CASCADE); others' sets keep its id, which
      // hides nothing any more.
      else if (event.type === 'account-deleted') memory.forget([event.userId]);
    },
    () => memory.clear(),
  );

  async function load(userId: string): Promise<Relations> {
    const rows = await selectRelations(db, userId);
    if (rows.length === 0) return NO_RELATIONS;
    const blocked = new Set<string>();
    const muted = new Set<string>();
    const words: string[] = [];
    const tags: string[] = [];
    for (const { kind, value } of rows) {
      if (kind === 'blocked') blocked.add(value);
      else if (kind === 'muted') muted.add(value);
      else if (value.startsWith('#')) tags.push(value.slice(1).toLowerCase());
      else words.push(value);
    }
    return { blocked, muted, words, tags, none: false, dropRates: new Map() };
  }

  return { forget: memory.forget, of: memory.get };
}
