/**
 * The pages a visit seldom opens first: the developer console, settings, search results, and the links a mail
 * brings. The router imports each through this small chunk, so the lists of files they need travel here, not in
 * the entry every first visit downloads (/landing's budget of 100 KB is tight). On a first load of one of them
 * the boot script asks for this chunk beside the page's own (boot/route-modules.ts).
 */
export const loadMockmanPage = () => import('../features/mockman/pages/mockman-page');
export const loadSettingsPage = () => import('../features/settings/pages/settings-page');
export const loadSearchPage = () => import('../features/search/pages/search-page');
/** Drafts and scheduled posts (issue 41). */
export const loadDraftsPage = () => import('../features/posts/pages/drafts-page');
const mailedLinkPages = () => import('../features/account/pages/mailed-links');
export const loadVerifyEmailPage = () => mailedLinkPages().then((pages) => ({ default: pages.VerifyEmailPage }));
export const loadUndoEmailPage = () => mailedLinkPages().then((pages) => ({ default: pages.UndoEmailPage }));
export const loadForgotPasswordPage = () => import('../features/auth/pages/forgot-password-page');
export const loadResetPasswordPage = () => import('../features/auth/pages/reset-password-page');
/** The page a Mastodon app sends a person to, to be authorized (issue 45). */
export const loadAuthorizePage = () => import('../features/oauth/pages/authorize-page');
