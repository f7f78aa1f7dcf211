import { Type, type Static } from 'typebox';
import { DateString, Id } from './common.js';
import { PageQuery } from './post.js';
import { UserSummary } from './user.js';

/**
 * What may be reported and acted on. For a person, targetId is their username (or id). An inquiry (issue 42) is
 * reported by one of its two people: the reported person is the other one.
 */
export const REPORT_TARGET_TYPES = ['post', 'comment', 'user', 'inquiry'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASONS = [
  'spam',
  'harassment',
  'hate',
  'minors',
  'stolen-art',
  'undisclosed-ai',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What a report's reason means, in words (the report form and the queue). */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  hate: 'Hate',
  minors: 'Sexual content involving minors',
  'stolen-art': 'Stolen art',
  'undisclosed-ai': 'AI work passed as human',
  other: 'Other',
};

export const MODERATION_ACTIONS = ['dismiss', 'hide', 'remove', 'mark-sensitive', 'suspend'] as const;
export type ModerationActionKind = (typeof MODERATION_ACTIONS)[number];

export const ROLES = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const MODERATION_LIMITS = { noteMax: 1000, reasonMax: 500 } as const;

/** Targets on a page of the queue (each carries its reports and histories: a page stays under 640 KB). */
export const MODERATION_QUEUE_PAGE = 10;

/** The moderation messages of the API (the web app shows them as they are). */
export const MODERATION_MESSAGES = {
  referenceNotFound:
    'There is no such reference picture, or its inquiry has no open report: moderators see an inquiry’s pictures only while it is reported.',
  reportThanks: 'Thank you for your report. A moderator will review it; you will be notified of the outcome.',
  alreadyReported:
    'You have already reported this, and your report is still open: a moderator will review it. You will be notified of the outcome.',
  reportYourself: 'You cannot report yourself or your own content.',
  reportTargetNotFound: (type: ReportTargetType) =>
    type === 'user'
      ? 'There is no such person to report: check the username.'
      : `There is no such ${type} to report: it may have been deleted.`,
  targetNotFound: (type: ReportTargetType) => `There is no such ${type}: check targetType and targetId.`,
  moderatorsOnly: 'Only moderators and admins can do this. Ask an admin if you should be one.',
  adminsOnly: 'Only admins can do this.',
  ownRole: 'You cannot change your own role: ask another admin.',
  remoteRole: 'Roles are for accounts here: someone on another server cannot be a moderator or an admin.',
  adminRole:
    'An admin cannot be demoted through the API: use `npm run admin -- grant <username> <role>` on the server.',
  untilOnlyForSuspend: 'until is only for suspend: leave it out for the other actions.',
  untilInPast:
    'until must be in the future (an ISO date, e.g. 2030-01-31T00:00:00Z); leave it out to suspend for good.',
  actionNotForTarget: (action: ModerationActionKind, type: ReportTargetType) =>
    `${action} does not apply to a ${type}: ${
      type === 'user'
        ? 'a person can be suspended or their reports dismissed'
        : type === 'inquiry'
          ? 'an inquiry can have its reports dismissed, or the person reported in it suspended'
          : 'suspend acts on a person (targetType user)'
    }.`,
  suspendModerator: 'Moderators and admins cannot be suspended: an admin must change their role first.',
  suspendedUntil: (until: string) => `This account is suspended until ${until}.`,
  suspended: 'This account is suspended.',
  /** What the reporter is told, per outcome. */
  outcome: {
    dismiss: 'We reviewed your report and found nothing against our rules; no action was taken.',
    hide: 'We reviewed your report and hid the content you reported.',
    remove: 'We reviewed your report and removed the content you reported.',
    'mark-sensitive': 'We reviewed your report and marked the content you reported as sensitive.',
    suspend: 'We reviewed your report and suspended the account.',
  } satisfies Record<ModerationActionKind, string>,
} as const;

const TargetType = Type.Enum([...REPORT_TARGET_TYPES]);

export const CreateReportBody = Type.Object(
  {
    targetType: TargetType,
    targetId: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "The post's, comment's or inquiry's _id; for a person, their username",
    }),
    reason: Type.Enum([...REPORT_REASONS], {
      description: 'minors: sexual content involving minors; undisclosed-ai: AI work passed as human',
    }),
    note: Type.Optional(
      Type.String({
        maxLength: MODERATION_LIMITS.noteMax,
        errorMessage: `note must be at most ${MODERATION_LIMITS.noteMax} characters`,
        description: 'What the moderator should know',
      }),
    ),
    forward: Type.Optional(
      Type.Boolean({
        description:
          "Also send the report to the server of the work's, comment's or person's author when they are on another " +
          'server (an anonymous `Flag` from this server, with the reason and note; issue 39). Nothing for anything of ours',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateReportBody = Static<typeof CreateReportBody>;

export const Report = Type.Object({
  _id: Id,
  targetType: TargetType,
  targetId: Type.String({ description: 'As sent: an id, or the username for a person' }),
  reason: Type.Enum([...REPORT_REASONS]),
  note: Type.String(),
  status: Type.Enum(['open', 'resolved']),
  createdAt: DateString,
  forwardTo: Type.Optional(
    Type.String({ description: 'The server the report is sent to as well (`forward`): present only then' }),
  ),
});
export type Report = Static<typeof Report>;

export const CreatedReport = Type.Object({ report: Report, message: Type.String() });
export type CreatedReport = Static<typeof CreatedReport>;

/** What the audit log says of a server block (issue 39): added, changed, lifted. */
export const SERVER_BLOCK_ACTIONS = ['server-block', 'server-change', 'server-unblock'] as const;

/** One entry of the audit log. */
export const AuditEntry = Type.Object({
  _id: Id,
  actor: Type.Object({ _id: Id, username: Type.String() }, { description: 'The moderator or admin who acted' }),
  action: Type.Enum([...MODERATION_ACTIONS, 'role', ...SERVER_BLOCK_ACTIONS], {
    description: 'role: an admin changed a role; server-block, server-change, server-unblock: a blocked server',
  }),
  targetType: Type.Enum([...REPORT_TARGET_TYPES, 'server'], {
    description: 'server: a server block (targetId its _id; the reason names the domain)',
  }),
  targetId: Id,
  targetUserId: Type.Union([Id, Type.Null()], { description: 'The author of the target (the person for a user)' }),
  reason: Type.String(),
  until: Type.Union([DateString, Type.Null()], {
    description: 'suspend: when it ends; null for good (and for the other actions)',
  }),
  createdAt: DateString,
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type AuditPage = Static<typeof AuditPage>;

export const ModerationTarget = Type.Object({
  targetType: TargetType,
  targetId: Id,
  content: Type.Union(
    [
      Type.Object({
        text: Type.String({ description: "The post's or comment's words; a person's bio" }),
        postId: Type.Union([Id, Type.Null()], { description: 'The post (of a comment: the post it is on)' }),
        pictures: Type.Array(Type.String(), { description: "The post's picture URLs (none for a comment or person)" }),
        processPictures: Type.Array(Type.String(), {
          description:
            "A post's process pictures (sketch, lines, flats…: issue 41), URLs in the artist's order; [] for the rest",
        }),
        references: Type.Array(Type.String(), {
          description:
            "An inquiry's reference pictures (issue 42), private to its two people: each the moderators' URL GET /api/moderation/inquiries/{id}/references/{referenceId}, read with the token while the inquiry has an open report; [] for the rest",
        }),
        moderation: Type.Union([Type.Enum(['hidden', 'removed']), Type.Null()]),
        contentWarning: Type.Union([Type.String(), Type.Null()]),
        createdAt: DateString,
      }),
      Type.Null(),
    ],
    { description: 'A snapshot as it is now; null when its author deleted it' },
  ),
  author: Type.Union([
    Type.Object({
      ...UserSummary.properties,
      role: Type.Enum([...ROLES]),
      joinedAt: DateString,
      accountAgeDays: Type.Integer(),
      postCount: Type.Integer(),
      suspendedUntil: Type.Union([DateString, Type.Literal('forever'), Type.Null()]),
      history: Type.Array(AuditEntry, { description: 'The newest 10 actions against this person or their content' }),
    }),
    Type.Null(),
  ]),
  reports: Type.Array(
    Type.Object({
      _id: Id,
      reason: Type.Enum([...REPORT_REASONS]),
      note: Type.String(),
      reporter: Type.Union([UserSummary, Type.Null()], {
        description: "The person who reported it; null for a remote server's report (then `server`)",
      }),
      server: Type.Union([Type.String(), Type.Null()], {
        description: "A report from another server's moderators (an ActivityPub Flag): that server's domain",
      }),
      createdAt: DateString,
    }),
    { description: 'Its oldest 10 open reports, oldest first (reportCount is the total)' },
  ),
  reportCount: Type.Integer({ description: 'Open reports of this target' }),
  firstReportedAt: DateString,
  actions: Type.Array(AuditEntry, { description: 'Earlier actions on this target, the newest 10, newest first' }),
});
export type ModerationTarget = Static<typeof ModerationTarget>;

export const ModerationQueue = Type.Object({
  targets: Type.Array(ModerationTarget, {
    description: `Targets with open reports, the longest waiting first, ${MODERATION_QUEUE_PAGE} a page`,
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type ModerationQueue = Static<typeof ModerationQueue>;

export const ModerationQueueQuery = Type.Object({ cursor: PageQuery.properties.cursor });
export type ModerationQueueQuery = Static<typeof ModerationQueueQuery>;

export const ModerationActionBody = Type.Object(
  {
    targetType: TargetType,
    targetId: Type.String({ minLength: 1, maxLength: 64, description: 'An _id; for a person, the username or _id' }),
    action: Type.Enum([...MODERATION_ACTIONS]),
    reason: Type.String({
      minLength: 1,
      maxLength: MODERATION_LIMITS.reasonMax,
      errorMessage: `reason is required: 1 to ${MODERATION_LIMITS.reasonMax} characters (the author sees it when content is hidden)`,
    }),
    until: Type.Optional(
      Type.String({
        format: 'date-time',
        errorMessage: 'until must be an ISO date and time, e.g. 2030-01-31T00:00:00Z',
        description: 'suspend only: when the suspension ends; leave it out to suspend for good',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ModerationActionBody = Static<typeof ModerationActionBody>;

export const ModerationActionResult = Type.Object({
  entry: AuditEntry,
  resolvedReports: Type.Integer({ description: 'Open reports of the target this resolved (each reporter is told)' }),
});
export type ModerationActionResult = Static<typeof ModerationActionResult>;

export const RoleBody = Type.Object(
  { role: Type.Enum(['user', 'moderator'], { description: 'Admins are named with `npm run admin` on the server' }) },
  { additionalProperties: false },
);
export type RoleBody = Static<typeof RoleBody>;

export const RoleResult = Type.Object({ username: Type.String(), role: Type.Enum([...ROLES]) });
export type RoleResult = Static<typeof RoleResult>;

export const ModerationQueryAudit = PageQuery;

/** One kind of background job (issue 37): how many wait, run and failed, and the oldest one's wait. */
export const JobKindCounts = Type.Object({
  kind: Type.String({ description: 'mail.confirm-address, mail.password-reset, media.sweep-unattached, …' }),
  queued: Type.Integer({ minimum: 0, description: 'waiting to run, retries included' }),
  running: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0, description: 'out of tries, kept 14 days' }),
  oldestWaitingSeconds: Type.Number({ minimum: 0, description: 'how long the oldest job ready to run has waited' }),
});

/** A background job that ran out of tries. */
export const FailedJob = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.String(),
  attempts: Type.Integer({ minimum: 1 }),
  failedAt: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
  error: Type.String({ description: "the last try's error" }),
});

/** GET /api/admin/jobs. */
export const JobsOverview = Type.Object({
  kinds: Type.Array(JobKindCounts, { maxItems: 100, description: 'every kind of job the server defines' }),
  failed: Type.Array(FailedJob, { maxItems: 50, description: 'the 50 newest failed jobs' }),
});
export type JobsOverview = Static<typeof JobsOverview>;

export const JobParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** POST /api/admin/jobs/{id}/retry. */
export const JobRetried = Type.Object({ message: Type.String() });

export const JOB_MESSAGES = {
  retried: 'The job is queued again for one more try.',
  notFailed: 'There is no failed job with this id: it may have run again already, or been deleted after 14 days.',
} as const;

// ── Blocked servers (issue 39) ──────────────────────────────────────────────────────────────────────

/**
 * How a server is blocked: `suspend` refuses everything from it (and delivers nothing to it), `silence` keeps it
 * out of public places, `reject_media` takes its posts without their pictures.
 */
export const SERVER_BLOCK_SEVERITIES = ['suspend', 'silence', 'reject_media'] as const;
export type ServerBlockSeverity = (typeof SERVER_BLOCK_SEVERITIES)[number];

export const SERVER_BLOCK_SEVERITY_LABELS: Record<ServerBlockSeverity, string> = {
  suspend: 'Suspend: refuse everything',
  silence: 'Silence: keep out of public places',
  reject_media: 'Reject media: accept posts without their pictures',
};

export const SERVER_BLOCK_LIMITS = { domainMax: 253, reasonMax: 500, listMax: 1000 } as const;

export const SERVER_BLOCK_MESSAGES = {
  badDomain:
    'domain must be a server name like mastodon.example (no https://, no path, no @user): its subdomains are covered too.',
  exists: 'This server is already blocked: change its block instead.',
  notFound: 'There is no such server block: it may have been lifted already.',
  removed: 'The server is no longer blocked.',
} as const;

const Severity = Type.Enum([...SERVER_BLOCK_SEVERITIES], {
  description:
    'suspend: everything from it refused (its inbox POSTs answer 403), its follows ended, nothing delivered to it; ' +
    'silence: kept out of public places; reject_media: its posts taken without their pictures',
});

export const ServerBlock = Type.Object({
  _id: Id,
  domain: Type.String({ description: 'Lower case, an IDN as punycode; covers its subdomains' }),
  severity: Severity,
  reason: Type.String(),
  createdBy: Type.String({ description: 'The username of the moderator or admin who blocked it' }),
  createdAt: DateString,
  updatedAt: DateString,
});
export type ServerBlock = Static<typeof ServerBlock>;

export const ServerBlockList = Type.Object({
  blocks: Type.Array(ServerBlock, {
    maxItems: SERVER_BLOCK_LIMITS.listMax,
    description: `Every blocked server (at most ${SERVER_BLOCK_LIMITS.listMax}), by domain`,
  }),
});
export type ServerBlockList = Static<typeof ServerBlockList>;

const BlockReason = Type.String({
  maxLength: SERVER_BLOCK_LIMITS.reasonMax,
  errorMessage: `reason must be at most ${SERVER_BLOCK_LIMITS.reasonMax} characters`,
});

export const CreateServerBlockBody = Type.Object(
  {
    domain: Type.String({
      minLength: 1,
      maxLength: SERVER_BLOCK_LIMITS.domainMax,
      errorMessage: SERVER_BLOCK_MESSAGES.badDomain,
      description: 'The server, e.g. spam.example or bücher.example (an IDN is kept as punycode)',
    }),
    severity: Severity,
    reason: Type.Optional(BlockReason),
  },
  { additionalProperties: false },
);
export type CreateServerBlockBody = Static<typeof CreateServerBlockBody>;

export const UpdateServerBlockBody = Type.Object(
  { severity: Type.Optional(Severity), reason: Type.Optional(BlockReason) },
  { additionalProperties: false },
);
export type UpdateServerBlockBody = Static<typeof UpdateServerBlockBody>;

export const ServerBlockParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export type ServerBlockParams = Static<typeof ServerBlockParams>;

export const ServerBlockResult = Type.Object({
  block: ServerBlock,
  endedFollows: Type.Integer({ minimum: 0, description: 'suspend: the follows of our artists by its people it ended' }),
});
export type ServerBlockResult = Static<typeof ServerBlockResult>;

export const ServerBlockRemoved = Type.Object({ message: Type.String() });
