// The search feature's public face: the header's search box (the results page is a lazy route).
export { SearchBox } from './components/search-box';
