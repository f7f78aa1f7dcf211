import { Type, type Static } from 'typebox';
import { LOCALES } from '../locales.js';

/** The artist's rights and content warnings (issue 23): a post's licence, warning and comment policy. */

export const LICENCES = ['all-rights-reserved', 'cc-by', 'cc-by-sa', 'cc-by-nc', 'cc-by-nc-nd', 'cc0'] as const;
export type LicenceId = (typeof LICENCES)[number];

/** Each licence's name and the URL of its text (all rights reserved has none). */
export const LICENCE_INFO: Record<LicenceId, { name: string; url: string | null }> = {
  'all-rights-reserved': { name: 'All rights reserved', url: null },
  'cc-by': { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
  'cc-by-sa': { name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' },
  'cc-by-nc': { name: 'CC BY-NC 4.0', url: 'https://creativecommons.org/licenses/by-nc/4.0/' },
  'cc-by-nc-nd': { name: 'CC BY-NC-ND 4.0', url: 'https://creativecommons.org/licenses/by-nc-nd/4.0/' },
  cc0: { name: 'CC0 1.0 (public domain)', url: 'https://creativecommons.org/publicdomain/zero/1.0/' },
};

/** Whether anyone may download a post's original pictures: a Creative Commons licence, or the author allows it. */
export const mayDownload = (post: { licence: LicenceId; downloadable: boolean }): boolean =>
  post.downloadable || post.licence !== 'all-rights-reserved';

/** The warnings a composer offers; any other text (1 to 100 characters) is the author's own words. */
export const CONTENT_WARNINGS = ['nudity', 'blood', 'flashing'] as const;
export const CONTENT_WARNING_MAX = 100;

export const COMMENT_POLICIES = ['everyone', 'following', 'nobody'] as const;
export type CommentPolicyId = (typeof COMMENT_POLICIES)[number];

export const SENSITIVE_MEDIA = ['show', 'blur', 'hide'] as const;
export type SensitiveMediaId = (typeof SENSITIVE_MEDIA)[number];

export const RIGHTS_ERRORS = {
  commentsOff: 'The author has turned off comments on this post.',
  commentsFollowing: 'Only people the author follows can comment on this post.',
  downloadRefused:
    'The author has not allowed downloads of this work: it is not under a Creative Commons licence and downloads are off.',
  contentWarningEmpty: 'contentWarning must not be empty: send null for no warning, or a word such as "nudity".',
} as const;

export const ContentWarning = Type.Union(
  [
    Type.String({
      minLength: 1,
      maxLength: CONTENT_WARNING_MAX,
      errorMessage: `contentWarning must be null (not sensitive), "nudity", "blood", "flashing" or your own words, 1 to ${CONTENT_WARNING_MAX} characters`,
    }),
    Type.Null(),
  ],
  {
    description: `null = not sensitive; otherwise "nudity", "blood", "flashing" or the author's own words (at most ${CONTENT_WARNING_MAX} characters): the pictures are covered until the viewer asks to see them`,
  },
);

export const CommentPolicy = Type.Enum([...COMMENT_POLICIES], {
  description:
    'Who may comment: everyone (default), following (only people the author follows, and the author), nobody. Existing comments stay visible',
  errorMessage: 'commentPolicy must be one of: everyone, following, nobody',
});

export const Licence = Type.Enum([...LICENCES], {
  description:
    'all-rights-reserved (default) or a Creative Commons licence (4.0; cc0 = public domain dedication). A CC licence lets anyone download the originals',
  errorMessage: `licence must be one of: ${LICENCES.join(', ')}`,
});

/** What a post's author sets about its rights and warnings; all of them on the post itself. */
export const PostRightsFields = {
  contentWarning: ContentWarning,
  commentPolicy: CommentPolicy,
  licence: Licence,
  aiGenerated: Type.Boolean({ description: 'The author labels the work as AI-generated' }),
  downloadable: Type.Boolean({
    description: 'The author lets anyone download the original pictures (a CC licence allows it anyway)',
  }),
};

/** The same fields in a create or edit body, each optional (an edit leaves out what it does not change). */
export const PostRightsInput = {
  contentWarning: Type.Optional(ContentWarning),
  commentPolicy: Type.Optional(CommentPolicy),
  licence: Type.Optional(Licence),
  aiGenerated: Type.Optional(
    Type.Boolean({ description: 'Label the work as AI-generated', errorMessage: 'aiGenerated must be true or false' }),
  ),
  downloadable: Type.Optional(
    Type.Boolean({
      description: 'Let anyone download the original pictures',
      errorMessage: 'downloadable must be true or false',
    }),
  ),
};

export const UserSettings = Type.Object(
  {
    aiTrainingOptOut: Type.Boolean({
      description:
        'Ask AI crawlers not to train on my work (default true): my pages carry <meta name="robots" content="noai, noimageai"> and my pictures X-Robots-Tag: noai, noimageai',
    }),
    sensitiveMedia: Type.Enum([...SENSITIVE_MEDIA], {
      description: 'How posts with a content warning are shown to me: show, blur (default, until I ask) or hide',
    }),
    hideAiGenerated: Type.Boolean({
      description: 'Leave AI-generated works out of my lists (Home, Explore, tags, search)',
    }),
    allowCollecting: Type.Boolean({
      description:
        "Let others add my works to their collections (issue 41, default true); off, adding one is refused (400) and my works already in others' collections stay until I take them out",
    }),
    language: Type.Union([Type.Enum([...LOCALES]), Type.Null()], {
      description:
        "The language I chose for the app, its mails and the server's messages to me (issue 43); null: my browser's",
    }),
  },
  { description: "The viewer's own settings: shown to their owner only" },
);
export type UserSettings = Static<typeof UserSettings>;

/** A settings change through the profile update: only the settings sent change. */
export const UserSettingsInput = Type.Object(
  {
    aiTrainingOptOut: Type.Optional(
      Type.Boolean({
        description: 'Ask AI crawlers not to train on my work',
        errorMessage: 'aiTrainingOptOut must be true or false',
      }),
    ),
    sensitiveMedia: Type.Optional(
      Type.Enum([...SENSITIVE_MEDIA], {
        description: 'How posts with a content warning are shown to me: show, blur or hide',
        errorMessage: 'sensitiveMedia must be one of: show, blur, hide',
      }),
    ),
    hideAiGenerated: Type.Optional(
      Type.Boolean({
        description: 'Leave AI-generated works out of my lists',
        errorMessage: 'hideAiGenerated must be true or false',
      }),
    ),
    allowCollecting: Type.Optional(
      Type.Boolean({
        description: 'Let others add my works to their collections',
        errorMessage: 'allowCollecting must be true or false',
      }),
    ),
    language: Type.Optional(
      Type.Union(
        [
          Type.Enum([...LOCALES], {
            errorMessage: `language must be one of: ${LOCALES.join(', ')} (or null to follow the browser's)`,
          }),
          Type.Null(),
        ],
        { description: "The app's language for me (issue 43), or null to follow my browser's" },
      ),
    ),
  },
  { additionalProperties: false, description: 'Only the settings sent change' },
);
export type UserSettingsInput = Static<typeof UserSettingsInput>;
