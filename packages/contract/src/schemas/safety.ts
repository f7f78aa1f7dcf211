import { Type, type Static } from 'typebox';
import { DateString } from './common.js';
import { PersonSummary } from './user.js';

/** Block and mute (issue 23): limits and messages. */
export const SAFETY_LIMITS = { mutedWordsMax: 200, mutedWordMax: 100 } as const;

export const SAFETY_ERRORS = {
  cannotBlockSelf: 'You cannot block yourself.',
  cannotMuteSelf: 'You cannot mute yourself.',
  /** Any interaction between a blocked pair that is not answered as a missing post or user. */
  blocked: 'You cannot interact with this account.',
  mutedWordEmpty: 'word must not be empty: send a word or a #tag to mute.',
  mutedWordTooLong: `word must be at most ${SAFETY_LIMITS.mutedWordMax} characters long.`,
  mutedWordDuplicate: 'You already mute this word (in any letter case).',
  tooManyMutedWords: `You mute ${SAFETY_LIMITS.mutedWordsMax} words already, the most one can: unmute one before adding another.`,
  mutedWordNotFound: 'You do not mute this word: see GET /api/users/me/muted-words.',
} as const;

export const BlockResponse = Type.Object({ blocked: Type.Boolean() });

/** Someone on another server (issue 39): their id is a follower's or a notification actor's `_id` (with `remote`). */
export const RemotePersonParams = Type.Object({
  id: Type.String({
    format: 'uuid',
    description: 'The `_id` of a person with `remote` (a follower, a notification actor)',
  }),
});
export type BlockResponse = Static<typeof BlockResponse>;

export const MuteResponse = Type.Object({ muted: Type.Boolean() });
export type MuteResponse = Static<typeof MuteResponse>;

/** The people you block or mute, the most recent first. */
export const SafetyUserPage = Type.Object({
  users: Type.Array(PersonSummary, {
    description:
      'Blocked people here and on other servers (issue 39: those with `remote`, unblocked by DELETE /api/remote-people/{id}/block) in one order; muted people are here only',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type SafetyUserPage = Static<typeof SafetyUserPage>;

export const MutedWord = Type.Object({
  word: Type.String({ description: 'As you typed it (trimmed); a # first mutes a tag' }),
  createdAt: DateString,
});
export type MutedWord = Static<typeof MutedWord>;

export const MutedWords = Type.Object({
  words: Type.Array(MutedWord, {
    maxItems: SAFETY_LIMITS.mutedWordsMax,
    description: 'Every word you mute, the most recent first',
  }),
});
export type MutedWords = Static<typeof MutedWords>;

export const MutedWordBody = Type.Object(
  {
    word: Type.String({
      maxLength: 1000,
      description: `A word (or a few words) or a #tag, 1 to ${SAFETY_LIMITS.mutedWordMax} characters; case does not matter`,
    }),
  },
  { additionalProperties: false },
);
export type MutedWordBody = Static<typeof MutedWordBody>;

export const MutedWordParams = Type.Object({ word: Type.String({ maxLength: 1000 }) });
export type MutedWordParams = Static<typeof MutedWordParams>;
