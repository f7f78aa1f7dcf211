// The posts feature's public face: what other features (the feed, the profile, search, comments, the post
// page) may use. The grid of works has its own (grid.ts): the signed-in shell imports this one, and only the
// pages with a grid need the grid.
// Keeps the cards' follow state and Home in step with people's follow toggle, from the first import on.
import './api/follow-sync';

export { usePost } from './api/get-post';
export { applyLiveCounts } from './api/live-counts';
export { updateCachedPostComments } from './api/post-cache';
export { postKeys, type PostListSource } from './api/post-keys';
export { postPagePath } from './api/post-paths';
export { usePinChange, usePinnedQuery } from './api/pin-post';
export { AddPostButton } from './components/add-post-button';
export { NewPostsPill } from './components/new-posts-pill';
export { PostCard } from './components/post-card';
export { PostList } from './components/post-list';
