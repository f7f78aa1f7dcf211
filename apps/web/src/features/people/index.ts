// The people feature's public face: follow buttons, people lists, the copies of users they read, and the
// one follow toggle (with its pending state) that every Follow button and post menu shares.
export { applyFollowAnswer, setCachedProfile, type FollowSettled } from './api/follow-cache';
export { useFollowShadow } from './api/follow-shadow';
export { getUserByUsername, userPath, useUserProfile } from './api/get-user';
export { onFollowSettled, useToggleFollow } from './api/toggle-follow';
export { userKeys } from './api/user-keys';
export { FollowButton } from './components/follow-button';
export { PersonRow } from './components/person-row';
export { SuggestionsPanel } from './components/suggestions-panel';
