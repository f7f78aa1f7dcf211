// The people feature's public face: follow buttons, people lists and the copies of users they read.
export { setCachedProfile, useFollowSync } from './api/follow-sync';
export { getUserByUsername, useUserProfile } from './api/get-user';
export { userKeys } from './api/user-keys';
export { FollowButton } from './components/follow-button';
export { PersonRow } from './components/person-row';
export { SuggestionsPanel } from './components/suggestions-panel';
