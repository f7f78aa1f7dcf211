export { sessionKeys } from './session-keys';
export {
  currentUserQuery,
  endSession,
  sessionEndedByLogout,
  setCurrentUser,
  startSession,
  useCurrentUser,
} from './current-user';
