import { t } from '@lingui/core/macro';
import type { Picture, Post } from '@share-arts/contract';
import { ResponsivePicture, StaticPicture, type PictureLoading } from '../../../ui/responsive-picture';

/** The default post picture is 1600 × 1200. */
export const DEFAULT_PICTURE_SIZE = { width: 1600, height: 1200 };

/**
 * A post's pictures in the author's order. `media` is the list; a post from a server that names only its
 * first `picture` still shows that one.
 */
export function postPictures(post: Pick<Post, 'media' | 'picture'>): readonly Picture[] {
  // `media` may be missing from an answer cached before the server listed it.
  if (post.media && post.media.length > 0) return post.media;
  return post.picture ? [post.picture] : [];
}

/** A picture's alt text, or a description of what it is when the author gave none. */
export function pictureAlt(
  picture: Picture | null,
  username: string,
  position?: { index: number; count: number },
): string {
  if (!picture) return t`Default picture of a post by @${username}`;
  const alt = picture.alt.trim();
  if (alt) return alt;
  if (!position || position.count <= 1) return t`Picture by @${username}`;
  const number = position.index + 1;
  const count = position.count;
  return t`Picture ${number} of ${count} by @${username}`;
}

interface PostPictureProps {
  picture: Picture | null;
  /** The post's default picture, drawn when it has none of its own. */
  fallbackUrl: string;
  alt: string;
  sizes: string;
  priority?: boolean;
  loading?: PictureLoading;
  className?: string;
}

/** One of a post's pictures, or its default picture. */
export function PostPicture({ picture, fallbackUrl, alt, sizes, priority, loading, className }: PostPictureProps) {
  if (picture) {
    return (
      <ResponsivePicture
        picture={picture}
        alt={alt}
        sizes={sizes}
        priority={priority}
        loading={loading}
        className={className}
      />
    );
  }
  return (
    <StaticPicture src={fallbackUrl} alt={alt} {...DEFAULT_PICTURE_SIZE} priority={priority} className={className} />
  );
}
