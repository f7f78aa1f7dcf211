// The safety feature's lazy face: what a menu opens (report, block, mute), loaded only when someone chooses
// it. The feed's cards import() it, so it stays out of the feed's first visit.
export { default } from './components/safety-dialog';
export { afterRelationChange, toggleRelation, useRelation } from './api/relations';
export { BlockDialog } from './components/block-dialog';
export { RelationButton } from './components/relation-button';
export { ReportDialog, type ReportDialogProps } from './components/report-dialog';
