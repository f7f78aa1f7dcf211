// The account feature's face for calls that may need "Confirm it's you" (issue 38): what a cancelled
// confirmation looks like, and changing the address. The dialog itself is in security.ts.
export { changeEmail } from './api/use-change-email';
export { ReauthCancelledError, isReauthCancelled, problemOf, type Confirmed } from './lib/reauth';
