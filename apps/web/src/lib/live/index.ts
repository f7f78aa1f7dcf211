// The live stream (WebSocket /api/live): the connection, the posts on screen it watches, and the posts it
// announced. What the frames do to the caches is decided in app/live.
export { retryDelay, startLive, type LiveOptions } from './live-connection';
export { forgetNewPosts, recordNewPost, useNewPosts, type NewPost } from './new-posts';
export { useWatchPost } from './use-watch-post';
export { watchedPosts, watchPost } from './watch-registry';
