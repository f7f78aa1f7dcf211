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
  'server-block': 'Server blocked',
  'server-change': 'Server block changed',
  'server-unblock': 'Server unblocked',
};

export const TARGET_LABELS = {
  post: 'Post',
  comment: 'Comment',
  user: 'Person',
  server: 'Server',
  // Issue 42: a thread between two people; its author is the person reported.
  inquiry: 'Inquiry',
} as const;

/** How a server is blocked (the contract's SERVER_BLOCK_SEVERITY_LABELS, kept out of the browser's chunks). */
export const SEVERITY_LABELS: Record<string, { label: string; hint: string }> = {
  suspend: {
    label: 'Suspend',
    hint: 'Refuse everything from it; its people stop following our artists, and nothing is sent to it.',
  },
  silence: { label: 'Silence', hint: 'Keep it out of public places.' },
  reject_media: { label: 'Reject media', hint: 'Accept its posts without their pictures.' },
};

export const REASON_MAX = 500;
