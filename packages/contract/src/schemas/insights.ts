import { Type, type Static } from 'typebox';
import { BODY_TEXT, Id } from './common.js';

/**
 * Insights (issue 42), private to the artist. Routes, all under /api (docs/insights.md says more):
 *
 * - `POST /views` `ViewBody` → 204: the web app's beacon when a work's page, the viewer (lightbox) or a profile is
 *   shown. Counted at most once per person (signed in) or visitor (signed out) per work or profile per day; the
 *   artist's own views and bots are not counted. Always 204, counted or not.
 * - `GET /insights/profile?days=7|30|90` → `ProfileInsights` (signed in: one's own).
 * - `GET /insights/posts/{postId}?days=7|30|90` → `PostInsights` (its artist only; anyone else 404).
 */

// The sources, their words and the windows live beside the schemas, not in them (insights-lists.ts): the insights
// page reads them, and a schema module's constants are bundled with the signed-in shell that every page loads.
export {
  BEACON_SOURCES,
  INSIGHTS_WINDOWS,
  VIEW_SOURCE_LABELS,
  VIEW_SOURCES,
  type ViewSource,
} from '../insights-lists.js';
import { BEACON_SOURCES, INSIGHTS_WINDOWS, VIEW_SOURCES, type ViewSource } from '../insights-lists.js';

export const ViewBody = Type.Object(
  {
    postId: Type.Optional(
      Type.String({
        maxLength: 64,
        pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
        patternMessage: 'must be the id of a work (a UUID)',
        description: 'The work shown (its page or the viewer)',
      }),
    ),
    username: Type.Optional(Type.String({ maxLength: 320, ...BODY_TEXT, description: 'The profile shown' })),
    source: Type.Unsafe<Exclude<ViewSource, 'federated'>>({
      type: 'string',
      enum: BEACON_SOURCES,
      description: 'Where the viewer came from: the app page before, or external (another site: send host)',
    }),
    host: Type.Optional(
      Type.String({
        maxLength: 253,
        pattern: '^[A-Za-z0-9.:\\[\\]-]*$',
        patternMessage: 'must be a host name only (letters, digits, dots and dashes)',
        description: "The referring site's host name only (no path), for source external on a visit's first page",
      }),
    ),
  },
  { description: 'The beacon: a work or a profile shown, and where the viewer came from' },
);
export type ViewBody = Static<typeof ViewBody>;

export const InsightsQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({
      enum: [...INSIGHTS_WINDOWS],
      default: 30,
      description: 'The window: the last 7, 30 or 90 days (UTC), today included',
    }),
  ),
});

const Count = Type.Integer({ minimum: 0 });
const Day = Type.String({ description: 'YYYY-MM-DD (UTC)', examples: ['2026-12-07'] });

export const InsightsTotals = Type.Object({
  views: Count,
  likes: Type.Integer({ minimum: 0, description: 'New likes in the window (here and from other servers) still there' }),
  saves: Type.Integer({ minimum: 0, description: 'Saves (bookmarks) made in the window still there' }),
  collections: Type.Integer({
    minimum: 0,
    description: "Times the work was added to someone else's collection in the window, still in it",
  }),
});

export const InsightsDay = Type.Object({
  day: Day,
  ...InsightsTotals.properties,
  workViews: Type.Optional(Type.Integer({ minimum: 0, description: "The profile's only: views of all its works" })),
});

export const InsightsSource = Type.Object({
  source: Type.Unsafe<ViewSource>({ type: 'string', enum: [...VIEW_SOURCES] }),
  host: Type.Union([Type.String(), Type.Null()], { description: 'The site, for external and federated; else null' }),
  views: Count,
});

const InsightsCommon = {
  days: Type.Integer({ description: 'The window in days' }),
  from: Day,
  to: Day,
  totals: InsightsTotals,
  daily: Type.Array(InsightsDay, {
    maxItems: 90,
    description: 'Every day of the window, oldest first, zeros included',
  }),
  sources: Type.Array(InsightsSource, {
    // Each source once without a site, and the 10 sites of external and of federated that sent the most.
    maxItems: VIEW_SOURCES.length + 20,
    description: 'Where the views came from, the most first (sites: the 10 of each kind that sent the most)',
  }),
};

export const InsightsWork = Type.Object({
  _id: Id,
  content: Type.String({ description: 'The start of its text' }),
  thumbnail: Type.Union([Type.String(), Type.Null()], { description: "Its first picture's smallest rendition" }),
  views: Count,
  likes: Count,
  saves: Count,
  collections: Count,
});

export const PostInsights = Type.Object({ postId: Id, ...InsightsCommon });
export type PostInsights = Static<typeof PostInsights>;

export const ProfileInsights = Type.Object({
  ...InsightsCommon,
  workViews: Type.Integer({ minimum: 0, description: "Views of all the artist's works in the window" }),
  works: Type.Array(InsightsWork, { maxItems: 10, description: 'The works seen most in the window (up to 10)' }),
});
export type ProfileInsights = Static<typeof ProfileInsights>;
export type InsightsDay = Static<typeof InsightsDay>;
export type InsightsSource = Static<typeof InsightsSource>;
