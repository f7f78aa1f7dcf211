// The collections feature's lazy face for the profile's Collections tab (issue 41), loaded when the tab is opened.
export { default } from './components/profile-collections';
