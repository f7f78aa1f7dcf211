import { Type, type Static } from 'typebox';
import { DateString, Id } from './common.js';
import { PageQuery } from './post.js';
import { UserSummary } from './user.js';

/**
 * Inquiries (issue 42): a signed-in person (the client) asks an artist for a commission. One request per thread; the
 * two write messages within it; the artist accepts, declines with a reason or marks it done. Routes, all under /api
 * (docs/inquiries.md says more):
 *
 * - `GET /inquiries?as=artist|client&cursor&limit` → `InquiryPage`: the viewer's inbox (as the artist) or the
 *   inquiries they sent (as the client), the latest activity first.
 * - `POST /inquiries` `CreateInquiryBody` → 201 `InquiryResponse`.
 * - `GET /inquiries/{id}` → `InquiryResponse` (only its two people; anyone else 404).
 * - `GET /inquiries/{id}/messages?cursor&limit` → `InquiryMessagePage`, oldest first.
 * - `POST /inquiries/{id}/messages` `InquiryMessageBody` → 201 `InquiryMessageResponse`.
 * - `POST /inquiries/{id}/state` `InquiryStateBody` → `InquiryResponse` (the artist).
 * - `DELETE /inquiries/{id}` → 204: deleted for the viewer only.
 * - `POST /inquiries/{id}/references` (multipart, one `file`) → 201 `InquiryReferenceResponse` (the client).
 * - `GET /inquiries/{id}/references/{referenceId}` → the picture (image/jpeg), to the two people only.
 * - `GET /inquiries/to/{username}` → `InquiryPolicy`: whether the viewer may send this artist an inquiry.
 * - `GET /inquiries/settings`, `PUT /inquiries/settings` `InquirySettingsBody` → `InquirySettingsResponse`.
 */
export const INQUIRY_LIMITS = {
  /** Characters of the request. */
  bodyMax: 5000,
  /** Characters of the request a list shows (GET /inquiries/{id} shows all of it). */
  listBodyMax: 280,
  /** Characters of a message. */
  messageMax: 2000,
  /** Characters of a decline's reason. */
  reasonMax: 1000,
  /** Reference pictures of one inquiry. */
  referencesMax: 5,
  /** The longer side of a stored reference picture, in pixels (larger ones are scaled down). */
  referenceSide: 2048,
  /** New inquiries one person may send in a day (the app's rate limiter). */
  perSenderPerDay: 5,
  /** The largest budget amount, in whole units of its currency. */
  budgetMax: 100_000_000,
} as const;

export const INQUIRY_STATES = ['open', 'accepted', 'declined', 'done'] as const;
export type InquiryState = (typeof INQUIRY_STATES)[number];

export const INQUIRY_ACCEPTING = ['everyone', 'followers', 'closed'] as const;
export type InquiryAccepting = (typeof INQUIRY_ACCEPTING)[number];

/** The inquiries' refusals, each saying what to do instead. */
export const INQUIRY_ERRORS = {
  notFound: 'There is no such inquiry: it may have been deleted.',
  artistNotFound: 'There is no such artist to ask: check the username.',
  yourself: 'You cannot send an inquiry to yourself.',
  closed: 'This artist does not take inquiries at the moment.',
  followersOnly: 'This artist takes inquiries from their followers only: follow them first.',
  remoteArtist: 'This artist is on another server: ask them there.',
  bodyBlank: 'Say what you would like: the request must not be empty or only spaces.',
  messageBlank: 'The message must not be empty or only spaces.',
  artistOnly: 'Only the artist of this inquiry can change its state.',
  clientOnly: 'Only the person who sent this inquiry can add reference pictures.',
  reasonRequired: 'Say why you decline (reason): the client sees it.',
  reasonOnlyForDecline: 'reason is only for declined: leave it out for the other states.',
  badTransition: (from: InquiryState, to: InquiryState) =>
    from === to
      ? `This inquiry is already ${from}.`
      : `An inquiry that is ${from} cannot become ${to}: an open one can be accepted, declined or done, an accepted one declined or done.`,
  otherLeft: 'The other person deleted this inquiry: it takes no more messages or changes.',
  tooManyReferences: `An inquiry holds at most ${INQUIRY_LIMITS.referencesMax} reference pictures.`,
  deadlinePast: 'deadline must be today or later (YYYY-MM-DD).',
  badDeadline: 'deadline must be a date written YYYY-MM-DD, such as 2027-03-31.',
  notPicture: 'Send a JPEG, PNG, WebP, AVIF or GIF picture in a field named "file".',
} as const;

export const InquiryBudget = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: INQUIRY_LIMITS.budgetMax, description: 'Whole units of the currency' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code: EUR, USD, JPY…' }),
  },
  { additionalProperties: false },
);
export type InquiryBudget = Static<typeof InquiryBudget>;

export const InquiryReference = Type.Object({
  _id: Id,
  url: Type.String({
    description:
      'GET /api/inquiries/{id}/references/{referenceId}: answered only to the two people of the inquiry (with their token, or the session cookie of the web app); never a public /media/ address',
  }),
  width: Type.Integer(),
  height: Type.Integer(),
  bytes: Type.Integer(),
});
export type InquiryReference = Static<typeof InquiryReference>;

export const Inquiry = Type.Object({
  _id: Id,
  artist: UserSummary,
  client: UserSummary,
  body: Type.String({
    description: `What the client wants; in a list (GET /api/inquiries), its first ${INQUIRY_LIMITS.listBodyMax} characters at most (the start, ending in … when cut): GET /api/inquiries/{id} has all of it`,
  }),
  budget: Type.Union([InquiryBudget, Type.Null()]),
  deadline: Type.Union([Type.String({ description: 'YYYY-MM-DD' }), Type.Null()]),
  state: Type.Enum([...INQUIRY_STATES], {
    description: 'open: waiting for the artist; accepted; declined (declineReason says why); done',
  }),
  declineReason: Type.Union([Type.String(), Type.Null()]),
  references: Type.Array(InquiryReference, { description: 'The reference pictures, oldest first' }),
  messageCount: Type.Integer({ description: 'Messages in the thread (the request itself not counted)' }),
  createdAt: DateString,
  updatedAt: DateString,
  viewer: Type.Object({
    role: Type.Enum(['artist', 'client'], { description: "The viewer's part in it" }),
    otherLeft: Type.Boolean({
      description: 'The other person deleted the inquiry for themselves: no more messages or changes',
    }),
  }),
});
export type Inquiry = Static<typeof Inquiry>;

export const InquiryResponse = Type.Object({ inquiry: Inquiry });
export type InquiryResponse = Static<typeof InquiryResponse>;

export const InquiryPage = Type.Object({
  inquiries: Type.Array(Inquiry, { description: 'The latest activity first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type InquiryPage = Static<typeof InquiryPage>;

export const InquiryListQuery = Type.Object({
  ...PageQuery.properties,
  as: Type.Optional(
    Type.Enum(['artist', 'client'], {
      description: 'artist (the default): the inquiries you received (your inbox); client: those you sent',
    }),
  ),
});
export type InquiryListQuery = Static<typeof InquiryListQuery>;

export const CreateInquiryBody = Type.Object(
  {
    artist: Type.String({ minLength: 1, maxLength: 64, description: "The artist's username" }),
    body: Type.String({
      minLength: 1,
      maxLength: INQUIRY_LIMITS.bodyMax,
      errorMessage: `body must be 1 to ${INQUIRY_LIMITS.bodyMax} characters: say what you would like`,
      description: 'What you would like',
    }),
    budget: Type.Optional(InquiryBudget),
    deadline: Type.Optional(
      Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, today or later' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateInquiryBody = Static<typeof CreateInquiryBody>;

export const InquiryIdParams = Type.Object({ id: Id });
export const InquiryReferenceParams = Type.Object({ id: Id, referenceId: Id });
export const InquiryArtistParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }) });

export const InquiryMessage = Type.Object({
  _id: Id,
  author: UserSummary,
  body: Type.String(),
  createdAt: DateString,
});
export type InquiryMessage = Static<typeof InquiryMessage>;

export const InquiryMessagePage = Type.Object({
  messages: Type.Array(InquiryMessage, { description: 'Oldest first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type InquiryMessagePage = Static<typeof InquiryMessagePage>;

export const InquiryMessageBody = Type.Object(
  {
    body: Type.String({
      minLength: 1,
      maxLength: INQUIRY_LIMITS.messageMax,
      errorMessage: `body must be 1 to ${INQUIRY_LIMITS.messageMax} characters`,
    }),
  },
  { additionalProperties: false },
);
export type InquiryMessageBody = Static<typeof InquiryMessageBody>;

export const InquiryMessageResponse = Type.Object({ message: InquiryMessage });
export type InquiryMessageResponse = Static<typeof InquiryMessageResponse>;

export const InquiryStateBody = Type.Object(
  {
    state: Type.Enum(['accepted', 'declined', 'done']),
    reason: Type.Optional(
      Type.String({
        maxLength: INQUIRY_LIMITS.reasonMax,
        errorMessage: `reason must be at most ${INQUIRY_LIMITS.reasonMax} characters`,
        description: 'declined only (and then required): why, shown to the client',
      }),
    ),
  },
  { additionalProperties: false },
);
export type InquiryStateBody = Static<typeof InquiryStateBody>;

export const InquiryReferenceResponse = Type.Object({ reference: InquiryReference });
export type InquiryReferenceResponse = Static<typeof InquiryReferenceResponse>;

export const InquirySettings = Type.Object({
  accepting: Type.Enum([...INQUIRY_ACCEPTING], {
    description: 'Who may send you an inquiry: everyone signed in, your followers, or nobody (closed)',
  }),
  mail: Type.Boolean({ description: 'A new inquiry is also mailed to you' }),
});
export type InquirySettings = Static<typeof InquirySettings>;

export const InquirySettingsResponse = Type.Object({ settings: InquirySettings });
export type InquirySettingsResponse = Static<typeof InquirySettingsResponse>;

export const InquirySettingsBody = Type.Object(
  {
    accepting: Type.Optional(Type.Enum([...INQUIRY_ACCEPTING])),
    mail: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type InquirySettingsBody = Static<typeof InquirySettingsBody>;

export const InquiryPolicy = Type.Object({
  accepting: Type.Enum([...INQUIRY_ACCEPTING]),
  canSend: Type.Boolean({ description: 'The viewer may send this artist an inquiry now' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why not, in words; null when canSend' }),
});
export type InquiryPolicy = Static<typeof InquiryPolicy>;

/** What a notification of kind inquiry, inquiry-message or inquiry-state names. */
export const InquiryRef = Type.Object({
  _id: Id,
  state: Type.Enum([...INQUIRY_STATES]),
});
export type InquiryRef = Static<typeof InquiryRef>;
