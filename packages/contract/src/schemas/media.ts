import { Type, type Static } from 'typebox';
import { LIMITS } from '../constants.js';
import { Id } from './common.js';

/** What `POST /api/media` accepts; anything else is refused with a message that names these limits. */
export const MEDIA_LIMITS = {
  /** Bytes of the uploaded file (20 MB). */
  maxBytes: 20 * 1024 * 1024,
  /** Width × height of the picture, read from its header before anything is decoded (40 megapixels). */
  maxPixels: 40_000_000,
  altMax: LIMITS.altTextMax,
  /** Detected from the file's content, never from its name or the Content-Type a client sends. */
  formats: ['JPEG', 'PNG', 'WebP', 'AVIF', 'GIF'],
  mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'],
  /** Widths of the re-encoded variants of a post picture (never wider than the original). */
  postWidths: [320, 640, 1080, 2048],
  /** Sides of the square crops of an avatar (never larger than the original's shorter side). */
  avatarSizes: [96, 192, 400],
  /** Frames of an animated GIF or WebP; a longer animation is refused (413). */
  maxFrames: 300,
  /**
   * Width × height × frames of an animated GIF or WebP (60 megapixels, about 300 frames of 480 × 400):
   * every frame is decoded and encoded again, so an animation costs its total pixels.
   */
  maxAnimationPixels: 60_000_000,
  /** The widest animated variant: animations are shown at feed size, their first frame larger. */
  animatedMaxWidth: 1080,
  /**
   * Pixel art: a post picture whose longer side is under this and whose colours are flat (at least
   * half its pixels equal to their left neighbour) is scaled with nearest-neighbour, only to whole
   * multiples of its size (never down, at most 1080 px on its longer side), and shown with
   * `image-rendering: pixelated`. A small photograph or painting is scaled as any other picture.
   */
  pixelArtMaxSide: 512,
} as const;

export const MEDIA_PURPOSES = ['post', 'avatar'] as const;
export type MediaPurpose = (typeof MEDIA_PURPOSES)[number];

export const PictureSource = Type.Object({
  type: Type.Union([Type.Literal('image/avif'), Type.Literal('image/jpeg'), Type.Literal('image/webp')]),
  srcset: Type.String({ description: 'For <source srcset>: `<url> 320w, <url> 640w, …`' }),
  media: Type.Optional(
    Type.String({
      description:
        'For <source media>: `(color-gamut: p3)` on the Display P3 variants of a wide-gamut picture, ' +
        '`(prefers-reduced-motion: no-preference)` on the animated variants of an animation; absent on the sRGB stills every screen can show',
    }),
  ),
});
export type PictureSource = Static<typeof PictureSource>;

export const Picture = Type.Object(
  {
    _id: Id,
    url: Type.String({
      description: 'A JPEG variant for <img src>: the 1080 px wide one, or the largest below it',
    }),
    width: Type.Integer({
      description:
        'Intrinsic width, after EXIF orientation (for an avatar: the side of its largest square crop); with height, the aspect ratio',
    }),
    height: Type.Integer({ description: 'Intrinsic height, after EXIF orientation' }),
    placeholder: Type.String({ description: 'A ThumbHash (base64) to show while the picture loads' }),
    alt: Type.String({ description: 'Alt text, editable by the owner' }),
    originalUrl: Type.String({
      description:
        'The file as it was uploaded, byte for byte less its personal metadata (EXIF but the orientation, ' +
        'XMP, IPTC, comments), its colour profile kept ("view original"); served with ' +
        '`Content-Disposition: inline` naming `originalName`, or `attachment` with `?download`',
    }),
    sources: Type.Array(PictureSource, {
      description:
        'For <picture>, in order (the browser takes the first that fits): animated variants, P3 variants, then sRGB AVIF and the JPEG fallback; no variant carries metadata beyond its colour profile',
    }),
    pixelated: Type.Boolean({
      description:
        'Pixel art: a small picture whose variants were scaled with nearest-neighbour; show it with `image-rendering: pixelated`',
    }),
    animated: Type.Boolean({
      description: 'An animated GIF or WebP: `url` and the unmarked sources are its first frame',
    }),
    federated: Type.Optional(
      Type.Object(
        {
          url: Type.String(),
          type: Type.Union([Type.Literal('image/png'), Type.Literal('image/gif')]),
          width: Type.Integer(),
          height: Type.Integer(),
        },
        {
          description:
            'The file other servers (ActivityPub) are sent instead of a JPEG: pixel art as a lossless PNG, an ' +
            'animation as an animated GIF; not for our pages. Absent for other pictures, for pictures uploaded ' +
            'before it was written, and for an animation whose GIF would weigh too much',
        },
      ),
    ),
    blurhash: Type.Optional(
      Type.String({
        description:
          'A BlurHash (4x3 components) for the Mastodon client API; absent for pictures uploaded before it was computed',
      }),
    ),
    focus: Type.Optional(
      Type.Object(
        { x: Type.Number({ minimum: -1, maximum: 1 }), y: Type.Number({ minimum: -1, maximum: 1 }) },
        { description: "Mastodon's focal point (x left to right, y bottom to top, -1 to 1); absent: the centre" },
      ),
    ),
    originalType: Type.String({ description: 'The MIME type of the original file' }),
    originalBytes: Type.Integer({ description: 'The size of the original file' }),
    originalName: Type.String({ description: 'The uploaded file name (what Download saves it as)' }),
  },
  { description: 'An uploaded picture as it leaves the server' },
);
export type Picture = Static<typeof Picture>;

export const MediaResponse = Type.Object({ media: Picture });
export type MediaResponse = Static<typeof MediaResponse>;

/** The multipart/form-data fields of `POST /api/media` (documentation; the server checks them itself). */
export const UploadMediaFields = Type.Object({
  file: Type.String({
    format: 'binary',
    description:
      `One image: ${MEDIA_LIMITS.formats.join(', ')} (GIF and WebP may be animated: at most ` +
      `${MEDIA_LIMITS.maxFrames} frames and ${MEDIA_LIMITS.maxAnimationPixels / 1e6} megapixels in all), at most 20 MB and 40 megapixels`,
  }),
  alt: Type.Optional(Type.String({ maxLength: MEDIA_LIMITS.altMax, description: 'Alt text' })),
  purpose: Type.Optional(
    Type.Union([Type.Literal('post'), Type.Literal('avatar')], {
      default: 'post',
      description: 'post: variants 320–2048 px wide; avatar: square crops of 96, 192 and 400 px',
    }),
  ),
});
export type UploadMediaFields = Static<typeof UploadMediaFields>;

export const EditAltBody = Type.Object({
  alt: Type.String({ maxLength: MEDIA_LIMITS.altMax, description: 'The new alt text; empty removes it' }),
});
export type EditAltBody = Static<typeof EditAltBody>;

// No length or format limit here: a malformed id is a 404 (from the service), never a 400.
export const MediaIdParams = Type.Object({ id: Type.String({ description: 'The picture id (a UUID)' }) });
export type MediaIdParams = Static<typeof MediaIdParams>;
