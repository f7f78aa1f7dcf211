import { Type, type Static } from 'typebox';
import { DateString, Id } from './common.js';
import { PageQuery } from './post.js';
import { CollectionRef } from './collections.js';
import { SeriesRef } from './series.js';
import { InquiryRef } from './inquiries.js';
import { PersonSummary } from './user.js';

/** Actors named in a grouped notification ("ana, theo and 3 others liked your post"). */
export const NOTIFICATION_ACTOR_CAP = 3;

export const Notification = Type.Object({
  key: Type.String({ description: 'Identifies the group: pass it to POST /api/notifications/read' }),
  kind: Type.Enum(
    [
      'like',
      'comment',
      'upvote',
      'follow',
      'mention',
      'report-resolved',
      'boost',
      'series-work',
      'collection-work',
      'commissions-open',
      'inquiry',
      'inquiry-message',
      'inquiry-state',
    ],
    {
      description:
        'mention: someone wrote @you in a post (post) or a comment (post and comment); one each, never grouped. report-resolved: a moderator acted on your report (`report` says the outcome; actors is you). boost: someone on another server shared your post with their followers (an ActivityPub Announce, issue 39); grouped per post, as likes are. series-work: an artist added a work to a series you follow (issue 41): `post` is the work, `series` the series; one each. collection-work: someone added your work to their public collection (issue 41): `post` is the work, `collection` the collection; one each. commissions-open: an artist you asked to be told about opened for commissions (issue 42; actors is them, no post); one each, at most one a day per artist. inquiry: someone sent you an inquiry (issue 42); inquiry-message: a new message in an inquiry of yours (the latest one of each inquiry only); inquiry-state: the artist accepted, declined or finished your inquiry; `inquiry` names it',
    },
  ),
  actors: Type.Array(PersonSummary, {
    description: `The newest ${NOTIFICATION_ACTOR_CAP} people, newest first; a follow, like or boost from another server's account has one with \`remote\` (issue 39)`,
  }),
  actorCount: Type.Integer({ description: 'Everyone in the group' }),
  post: Type.Union([Type.Object({ _id: Id, content: Type.String(), postPic: Type.String() }), Type.Null()]),
  comment: Type.Union([Type.Object({ _id: Id, content: Type.String() }), Type.Null()]),
  report: Type.Optional(
    Type.Object(
      {
        _id: Id,
        targetType: Type.Enum(['post', 'comment', 'user', 'inquiry']),
        reason: Type.String(),
        outcome: Type.Enum(['dismiss', 'hide', 'remove', 'mark-sensitive', 'suspend']),
        text: Type.String({ description: 'The outcome in words, to show as it is' }),
      },
      { description: 'report-resolved only: the report and what was done' },
    ),
  ),
  series: Type.Optional(Type.Union([SeriesRef, Type.Null()], { description: 'series-work only: the series' })),
  collection: Type.Optional(
    Type.Union([CollectionRef, Type.Null()], { description: 'collection-work only: the collection' }),
  ),
  inquiry: Type.Optional(
    Type.Union([InquiryRef, Type.Null()], { description: 'inquiry, inquiry-message, inquiry-state only: the inquiry' }),
  ),
  createdAt: DateString,
  read: Type.Boolean(),
});
export type Notification = Static<typeof Notification>;

export const NotificationPage = Type.Object({
  notifications: Type.Array(Notification, {
    description:
      'Newest first; likes of one post, boosts of one post and upvotes of one comment are grouped, comments and follows are one each',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  unreadCount: Type.Integer({ description: 'Unread groups' }),
});
export type NotificationPage = Static<typeof NotificationPage>;

export const UnreadCount = Type.Object({ unreadCount: Type.Integer() });
export type UnreadCount = Static<typeof UnreadCount>;

export const MarkReadBody = Type.Union(
  [
    Type.Object({ key: Type.String({ minLength: 1, maxLength: 200, description: 'The key of one group' }) }),
    Type.Object({ all: Type.Literal(true, { description: 'Mark everything read' }) }),
  ],
  { description: '`{ "key": "…" }` marks one group read, `{ "all": true }` all of them' },
);
export type MarkReadBody = Static<typeof MarkReadBody>;

export const NotificationListQuery = PageQuery;
