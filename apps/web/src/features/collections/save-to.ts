// The collections feature's lazy face for a post's "Save to…" (issue 41): the feed's cards import() it when chosen,
// so it stays out of the feed's first visit.
export { default, type SaveToDialogProps } from './components/save-to-dialog';
