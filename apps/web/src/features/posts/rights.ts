// A post's licence and who may comment on it, the posts feature's third public face: the post page and its
// comments show them; the cards in every feed (the shell, which imports index.ts) do not.
export { PostLicence, useCommentPermission } from './components/post-rights';
