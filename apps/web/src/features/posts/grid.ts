// The grid of works, the posts feature's second public face: Explore, a tag's page and the profile show it;
// Home and the shell (which import index.ts) do not load it.
// PostGridView: works already loaded, as the same grid (a series' page draws one per chapter).
export { PostGrid, PostGridView } from './components/post-grid';
