// Words for the queue (the contract's schema module stays out of the browser's chunks).

export const REASON_LABELS: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  hate: 'Hate',
  minors: 'Sexual content involving minors',
  'stolen-art': 'Stolen art',
  'undisclosed-ai': 'AI work passed as human',
  other: 'Other',
};

export const ACTION_LABELS: Record<string, string> = {
  dismiss: 'Dismissed',
  hide: 'Hidden',
  remove: 'Removed',
  'mark-sensitive': 'Marked sensitive',
  suspend: 'Suspended',
  role: 'Role changed',
};

export const TARGET_LABELS = { post: 'Post', comment: 'Comment', user: 'Person' } as const;

export const REASON_MAX = 500;
