import { Type, type Static } from 'typebox';
import { LIMITS, USERNAME_PATTERN } from '../constants.js';
import { BODY_TEXT, DateString, Id, NAME_TEXT } from './common.js';
import { UserSettings, UserSettingsInput } from './rights.js';

/** The caps on lists embedded in a user object; `followerCount` etc. carry the totals. */
export const USER_LIST_CAP = 20;
/** The cap on `followers` and `following` of a user in a list of users (a page carries up to 50 of them). */
export const USER_CARD_LIST_CAP = 5;

export const UserSummary = Type.Object({
  _id: Id,
  username: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  userPhoto: Type.String(),
});
export type UserSummary = Static<typeof UserSummary>;

/**
 * Someone on another server of the fediverse (issue 39): a Mastodon or Pixelfed account that follows an artist
 * here. They have no profile on this site: link out to `url`.
 */
export const RemotePerson = Type.Object(
  {
    handle: Type.String({ description: '`user@host`, without the leading @ (shown as `@bob@mastodon.example`)' }),
    url: Type.String({
      description: 'Their profile on their own server (always http or https): an external link, not a page here',
    }),
  },
  { description: 'Present only for someone on another server' },
);
export type RemotePerson = Static<typeof RemotePerson>;

/**
 * A person who did something (a notification's actors, a followers list): an account here, or (with `remote`)
 * someone on another server, whose `username` is then their handle (`bob@mastodon.example`, not a username
 * here: nothing at `/{username}`), `firstName` their display name, `lastName` empty, and `userPhoto` the
 * default photo (the pages' Content-Security-Policy loads pictures from this site only).
 */
export const PersonSummary = Type.Object({
  ...UserSummary.properties,
  remote: Type.Optional(RemotePerson),
});
export type PersonSummary = Static<typeof PersonSummary>;

/** A page of an account's followers, here and on other servers, newest follow first. */
export const FollowerPage = Type.Object({
  followers: Type.Array(PersonSummary, {
    description:
      'Newest follow first, accounts here and people on other servers (`remote`) in one order; never anyone in a blocked pair with the viewer',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type FollowerPage = Static<typeof FollowerPage>;

/** A user's newest followers, capped; the viewer's own follow is never the one left out. */
const followersList = (cap: number) =>
  Type.Array(UserSummary, {
    description: `The newest ${cap} followers with an account here, the signed-in viewer first whenever they follow this user; followerCount is the total, with the followers on other servers (issue 39): GET /api/users/{userId}/followers lists them all`,
  });
/** The newest people a user follows, capped; "follows you" is never the one left out. */
const followingList = (cap: number, extra = '') =>
  Type.Array(UserSummary, {
    description: `The newest ${cap} people this user follows, the signed-in viewer first whenever this user follows them${extra}; followingCount is the total`,
  });

export const User = Type.Object({
  _id: Id,
  username: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.Optional(Type.String({ description: 'Shown to its owner only' })),
  emailVerified: Type.Optional(
    Type.Boolean({
      description: 'Shown to its owner only: the address was confirmed by the link mailed to it (issue 24)',
    }),
  ),
  bio: Type.String(),
  link: Type.String(),
  userPhoto: Type.String({ description: 'URL of the profile photo' }),
  createdAt: DateString,
  updatedAt: DateString,
  followers: followersList(USER_LIST_CAP),
  following: followingList(USER_LIST_CAP),
  bookmarks: Type.Optional(
    Type.Array(Type.Object({ _id: Id }), {
      description: `Shown to its owner only: ids of the newest ${USER_LIST_CAP} bookmarked posts; bookmarkCount is the total`,
    }),
  ),
  followerCount: Type.Integer(),
  followingCount: Type.Integer(),
  bookmarkCount: Type.Optional(Type.Integer({ description: 'Shown to its owner only' })),
  postCount: Type.Integer(),
  worksSignedInOnly: Type.Boolean({
    description:
      'This user shows their works to signed-in people only: without a token their posts are in no list, search, tag page or feed, and each one answers 404',
  }),
  settings: Type.Optional(UserSettings),
  role: Type.Optional(
    Type.Enum(['user', 'moderator', 'admin'], {
      description: 'Shown to its owner only: moderators and admins see the moderation queue, admins name moderators',
    }),
  ),
  viewer: Type.Object(
    {
      follows: Type.Boolean({ description: 'The signed-in viewer follows this user' }),
      followsYou: Type.Boolean({ description: 'This user follows the signed-in viewer' }),
      blocked: Type.Boolean({ description: 'The signed-in viewer blocked this user (their own choice)' }),
      muted: Type.Boolean({ description: 'The signed-in viewer muted this user (their own choice)' }),
      requested: Type.Optional(
        Type.Boolean({
          description:
            'Someone on another server only: the signed-in viewer asked to follow them and their server has not accepted yet',
        }),
      ),
    },
    { description: 'All false when signed out or for yourself' },
  ),
  remote: Type.Optional(
    Type.Object(RemotePerson.properties, {
      description:
        'Present exactly for someone on another server whose works come here (following out, issue 39): `username` is their handle',
    }),
  ),
  movedTo: Type.Optional(
    Type.Object(PersonSummary.properties, {
      description:
        'Present when this account moved to another (issue 40): an account here, or (with `remote`) one on another server',
    }),
  ),
  openForCommissions: Type.Optional(
    Type.Boolean({
      description: 'true when they are open for commissions (issue 42): GET /api/users/{username}/commissions',
    }),
  ),
});
export type User = Static<typeof User>;

/** A user in a list (GET /api/users, suggestions, search): shorter embedded lists than a single user's. */
export const UserCard = Type.Object({
  ...UserSummary.properties,
  bio: Type.String(),
  followers: followersList(USER_CARD_LIST_CAP),
  following: followingList(USER_CARD_LIST_CAP, ' (on your own entry, also everyone on the same page you follow)'),
  followerCount: Type.Integer(),
  followingCount: Type.Integer(),
  postCount: Type.Integer(),
  viewer: Type.Object({ follows: Type.Boolean(), followsYou: Type.Boolean() }),
  remote: Type.Optional(RemotePerson),
  openForCommissions: Type.Optional(
    Type.Boolean({ description: 'true when they are open for commissions (issue 42); absent otherwise' }),
  ),
});
export type UserCard = Static<typeof UserCard>;

export const UserPage = Type.Object({
  users: Type.Array(UserCard),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type UserPage = Static<typeof UserPage>;

export const FollowResponse = Type.Object({
  user: User,
  followUser: User,
});
export type FollowResponse = Static<typeof FollowResponse>;

const username = Type.String({
  minLength: LIMITS.usernameMin,
  maxLength: LIMITS.usernameMax,
  pattern: USERNAME_PATTERN,
  errorMessage: `username must be ${LIMITS.usernameMin} to ${LIMITS.usernameMax} characters: letters, digits, _ and . (starting with a letter or digit)`,
});
const name = Type.String({ maxLength: LIMITS.nameMax, ...NAME_TEXT });

export const SignupBody = Type.Object({
  fullname: Type.Optional(Type.String({ maxLength: LIMITS.nameMax * 2 + 1, ...NAME_TEXT })),
  firstName: Type.Optional(name),
  lastName: Type.Optional(name),
  email: Type.String({
    format: 'email',
    maxLength: LIMITS.emailMax,
    errorMessage: 'email must be a valid address, like ana@example.com',
  }),
  username,
  password: Type.String({
    minLength: LIMITS.passwordMin,
    maxLength: LIMITS.passwordMax,
    errorMessage: `password must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters long`,
  }),
});
export type SignupBody = Static<typeof SignupBody>;

export const LoginBody = Type.Object({
  // ASCII only: a letter such as İ folds differently in JavaScript and in the database, and every
  // username is ASCII anyway.
  username: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^\\s*[A-Za-z0-9_.]+\\s*$',
    errorMessage: 'username has only the letters A to Z, digits, _ and . (no accents or letters of other alphabets)',
  }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const VerifyBody = Type.Object({
  encodedToken: Type.String({ minLength: 1, maxLength: 4096 }),
});
export type VerifyBody = Static<typeof VerifyBody>;

export const LoginResponse = Type.Object({ encodedToken: Type.String(), foundUser: User });
export type LoginResponse = Static<typeof LoginResponse>;

export const SignupResponse = Type.Object({ encodedToken: Type.String(), createdUser: User });
export type SignupResponse = Static<typeof SignupResponse>;

export const VerifyResponse = Type.Object({ user: User });
export type VerifyResponse = Static<typeof VerifyResponse>;

/** Only these fields can change; anything else sent in userData is ignored. */
export const EditableUserFields = Type.Object(
  {
    firstName: Type.Optional(name),
    lastName: Type.Optional(name),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: LIMITS.emailMax,
        errorMessage: 'email must be a valid address, like ana@example.com',
      }),
    ),
    bio: Type.Optional(Type.String({ maxLength: LIMITS.bioMax, ...BODY_TEXT })),
    link: Type.Optional(
      Type.String({
        maxLength: LIMITS.linkMax,
        description: 'An http(s) URL, or empty to remove it',
      }),
    ),
    worksSignedInOnly: Type.Optional(
      Type.Boolean({ description: 'Show my works to signed-in people only (true), or to everyone (false)' }),
    ),
    settings: Type.Optional(UserSettingsInput),
    userPhoto: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          "An avatar uploaded with POST /api/media (purpose=avatar): its _id or URL; empty, or the default photo's URL as it was handed out (/media/defaults/default-avatar.png), for the default photo. Any other URL is refused",
      }),
    ),
  },
  { additionalProperties: false },
);
export type EditableUserFields = Static<typeof EditableUserFields>;

export const EditUserBody = Type.Object({ userData: EditableUserFields });
export type EditUserBody = Static<typeof EditUserBody>;

export const UserResponse = Type.Object({ user: User });
export type UserResponse = Static<typeof UserResponse>;
