// The pages of the links in the account's mails (issue 24: confirm an address; issue 38: undo a change of it):
// one chunk for both. The web build names its files with six characters of hash (vite.config.ts), which the
// bundler allows for 64 chunks at most; a chunk more for a page this seldom seen would break the build.
export { default as VerifyEmailPage } from './verify-email-page';
export { default as UndoEmailPage } from './undo-email-page';
