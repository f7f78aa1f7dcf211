export { sessionKeys } from './session-keys';
export { currentUserQuery, endSession, setCurrentUser, startSession, useCurrentUser } from './current-user';
