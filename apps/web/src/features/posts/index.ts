// The posts feature's public face: what other features (the feed, the profile, search, comments, the post
// page) may use.
// Keeps the cards' follow state and Home in step with people's follow toggle, from the first import on.
import './api/follow-sync';

export { usePost } from './api/get-post';
export { applyLiveCounts } from './api/live-counts';
export { updateCachedPostComments } from './api/post-cache';
export { postKeys, type PostListSource } from './api/post-keys';
export { usePinChange, usePinnedQuery } from './api/pin-post';
export { AddPostButton } from './components/add-post-button';
export { NewPostsPill } from './components/new-posts-pill';
export { PostCard } from './components/post-card';
export { PostGrid, PostGridView } from './components/post-grid';
export { PostList } from './components/post-list';
