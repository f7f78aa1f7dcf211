// The posts feature's public face: what other features (the feed, the profile, search, people) may use.
export { applyLiveCounts } from './api/live-counts';
export { updateCachedPostComments } from './api/post-cache';
export { postKeys, type PostListSource } from './api/post-keys';
export { AddPostButton } from './components/add-post-button';
export { NewPostsPill } from './components/new-posts-pill';
export { PostCard } from './components/post-card';
export { PostList } from './components/post-list';
export { useFollowShadow } from './api/post-shadow';
export { onFollowSettled, useToggleFollow, type FollowSettled } from './api/toggle-follow';
