// The comments feature's public face: the post page shows a post's comments with it.
export { CommentSection } from './components/comment-section';
