// The live stream (WebSocket /api/live): the posts on screen it watches, and the posts it announced. What
// the frames do to the caches is decided in app/live. The connection itself (./live-connection) is imported
// by app/live when the browser is idle after the first paint, so it is not part of any page's first load.
export { forgetNewPosts, recordNewPost, useNewPosts, type NewPost } from './new-posts';
export { useWatchPost } from './use-watch-post';
export { watchedPosts, watchPost } from './watch-registry';
