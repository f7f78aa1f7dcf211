// The moderation queue's page, one step removed: the signed-in layout imports this small module, whose
// chunk carries the list of the page's chunks, so that list stays out of every signed-in page's first load.
export const loadModerationPage = () => import('./moderation-page');
