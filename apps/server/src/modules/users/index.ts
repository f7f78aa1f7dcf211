// The users module's public face: accounts, profiles, follows, people search, and how others show a person.
export { createUsersService, type UsersService } from './users.service.js';
export { usersRoutes } from './users.routes.js';
export { createAccountCheck, type AccountCheck, type AccountStatus } from './accounts.js';
export { photoUrl, toUser, toUserSummary } from './users.presenter.js';
export {
  byId,
  insertUser,
  prefixEnd,
  SEARCH_CANDIDATES,
  selectCredentialsByUsername,
  selectFollowersAmong,
  selectUserWithLists,
  updatePasswordHash,
  usernameExists,
  type PeopleMatch,
  type SummaryRow,
} from './users.sql.js';
