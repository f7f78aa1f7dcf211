// The safety feature's face for the post page (a lazy page): a muted word's gate, a moderator's notice.
export { ModerationNotice, MutedPostGate } from './components/post-notices';
