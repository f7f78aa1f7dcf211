// The grid of works, the posts feature's second public face: Explore, a tag's page and the profile show it;
// Home and the shell (which import index.ts) do not load it.
export { PostGrid } from './components/post-grid';
