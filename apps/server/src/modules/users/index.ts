// The users module's public face: accounts, profiles, follows, people search, and how others show a person.
export { wireUsers, type UsersModule } from './users.module.js';
export { createUsersService, type UsersService } from './users.service.js';
export { createAccountCheck, type AccountCheck, type AccountStatus } from './accounts.js';
export { photoUrl, toPersonSummary, toUser, toUserSummary } from './users.presenter.js';
export {
  byId,
  insertUser,
  personJson,
  prefixEnd,
  restoreEmail,
  SEARCH_CANDIDATES,
  selectCredentialsByUsername,
  selectFollowersAmong,
  selectUserWithLists,
  updateEmail,
  updatePasswordHash,
  usernameExists,
  type PeopleMatch,
  type PersonRow,
  type SummaryRow,
} from './users.sql.js';
