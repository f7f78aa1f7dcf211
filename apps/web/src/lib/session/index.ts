export { sessionKeys } from './session-keys';
export {
  currentUserQuery,
  endSession,
  expireSession,
  sessionEndedByLogout,
  setCurrentUser,
  startSession,
  useCurrentUser,
} from './current-user';
export { safeNextPath, signInPath, useSignInFirst } from './sign-in-first';
