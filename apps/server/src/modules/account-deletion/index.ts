// The account-deletion module's public face (issue 24): deleting one's own account, and the usernames it
// holds back from sign-ups (migration 0021).
export {
  createAccountDeletionService,
  type AccountDeletionService,
  type SecondFactorCheck,
} from './account-deletion.service.js';
export { accountDeletionRoutes } from './account-deletion.routes.js';
