// The safety module's public face (issue 23): blocks, mutes, muted words, their routes, and the conditions
// the other modules' reads add with them.
export { wireSafety, type SafetyModule } from './safety.module.js';
export { blockedError, type RemoteBlockChanged, type SafetyService } from './safety.service.js';
export { createRelationsCache, NO_RELATIONS, type Relations, type RelationsCache } from './relations.js';
export {
  blockedBetween,
  blockedFromPost,
  blockedViewer,
  carriesNoMutedWord,
  commentShownTo,
  isBlockedPair,
  mutedBy,
  mutedWordOf,
  notBlockedWith,
  selectBlockedAmong,
  shownInListsTo,
} from './safety.sql.js';
