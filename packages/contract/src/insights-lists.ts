// Insights (issue 42): where views come from, their words, and the windows shown. Kept out of schemas/ (see
// schemas/insights.ts).

/** Where a view came from: the page the viewer was on, or the site that linked to it. */
export const VIEW_SOURCES = [
  'home',
  'explore',
  'tag',
  'search',
  'profile',
  'series',
  'post',
  'notifications',
  'external',
  'federated',
  'direct',
  'other',
] as const;
export type ViewSource = (typeof VIEW_SOURCES)[number];

/** What the beacon may say; `federated` is the server's to decide (an external host it knows as a fediverse server). */
export const BEACON_SOURCES = /* @__PURE__ */ VIEW_SOURCES.filter(
  (source): source is Exclude<ViewSource, 'federated'> => source !== 'federated',
);

/** The words each source is shown with. */
export const VIEW_SOURCE_LABELS: Record<ViewSource, string> = {
  home: 'Home',
  explore: 'Explore',
  tag: 'Tag pages',
  search: 'Search',
  profile: 'Your profile',
  series: 'Series',
  post: 'Other works',
  notifications: 'Notifications',
  external: 'Other sites',
  federated: 'The fediverse',
  direct: 'Direct or unknown',
  other: 'Elsewhere in the app',
};

/** The windows insights are shown over, in days. */
export const INSIGHTS_WINDOWS = [7, 30, 90] as const;
