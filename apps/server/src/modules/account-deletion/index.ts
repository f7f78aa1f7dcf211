// The account-deletion module's public face (issue 24): deleting one's own account, and the usernames it
// holds back from sign-ups (migration 0021).
export { wireAccountDeletion } from './account-deletion.module.js';
export type { AccountDeletionService, SecondFactorCheck } from './account-deletion.service.js';
