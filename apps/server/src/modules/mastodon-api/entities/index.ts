// The Mastodon entities (issue 45): our JSON (the contract's Post, User, Picture, Comment) as Mastodon's shapes.
// The other files of the mastodon-api module (and its notifications, search, … routes) import them from here.
export { toAccount, toCredentialAccount, isoDate, DEFAULT_HEADER } from './account.js';
export type { AccountExtras, AccountSource, MastoAccount, MastoCredentialAccount } from './account.js';
export { toStatus, commentToStatus } from './status.js';
export type { MastoMention, MastoStatus, StatusExtras } from './status.js';
export { toMediaAttachment } from './media-attachment.js';
export type { MastoMediaAttachment } from './media-attachment.js';
export { toRelationship } from './relationship.js';
export type { MastoRelationship, RelationFacts } from './relationship.js';
export { toTag, tagUrl } from './tag.js';
export type { MastoStatusTag, MastoTag } from './tag.js';
export { toContext } from './context.js';
export type { MastoContext } from './context.js';
export { absolute, escapeHtml, textHtml } from './html.js';
