import { Type, type Static } from 'typebox';
import { LIMITS, USERNAME_PATTERN } from '../constants.js';
import { BODY_TEXT, DateString, Id, NAME_TEXT } from './common.js';

/** The caps on lists embedded in a user object; `followerCount` etc. carry the totals. */
export const USER_LIST_CAP = 20;

export const UserSummary = Type.Object({
  _id: Id,
  username: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  userPhoto: Type.String(),
});
export type UserSummary = Static<typeof UserSummary>;

export const User = Type.Object({
  _id: Id,
  username: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.Optional(Type.String({ description: 'Shown to its owner only' })),
  bio: Type.String(),
  link: Type.String(),
  userPhoto: Type.String({ description: 'URL of the profile photo' }),
  createdAt: DateString,
  updatedAt: DateString,
  followers: Type.Array(UserSummary, {
    description: `The newest ${USER_LIST_CAP} followers; followerCount is the total`,
  }),
  following: Type.Array(UserSummary, {
    description: `The newest ${USER_LIST_CAP} followed users; followingCount is the total`,
  }),
  bookmarks: Type.Array(Type.Object({ _id: Id }), {
    description: `Ids of the newest ${USER_LIST_CAP} bookmarked posts; bookmarkCount is the total`,
  }),
  followerCount: Type.Integer(),
  followingCount: Type.Integer(),
  bookmarkCount: Type.Integer(),
  postCount: Type.Integer(),
  viewer: Type.Object(
    {
      follows: Type.Boolean({ description: 'The signed-in viewer follows this user' }),
      followsYou: Type.Boolean({ description: 'This user follows the signed-in viewer' }),
    },
    { description: 'All false when signed out or for yourself' },
  ),
});
export type User = Static<typeof User>;

/** A user in a list (GET /api/users, suggestions, search): no embedded lists. */
export const UserCard = Type.Object({
  ...UserSummary.properties,
  bio: Type.String(),
  followerCount: Type.Integer(),
  followingCount: Type.Integer(),
  postCount: Type.Integer(),
  viewer: Type.Object({ follows: Type.Boolean(), followsYou: Type.Boolean() }),
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
  username: Type.String({ minLength: 1, maxLength: 200 }),
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
    userPhoto: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          'An avatar uploaded with POST /api/media (purpose=avatar): its _id or URL; empty for the default photo',
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
