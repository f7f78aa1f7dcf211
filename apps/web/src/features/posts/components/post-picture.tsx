import type { Post } from '@share-arts/contract';
import { ResponsivePicture, StaticPicture } from '../../../ui/responsive-picture';

/** The default post picture is 1600 × 1200. */
export const DEFAULT_PICTURE_SIZE = { width: 1600, height: 1200 };

/** The picture's alt text, or a description of what it is when the author gave none. */
export function pictureAlt(post: Pick<Post, 'picture' | 'username'>): string {
  if (!post.picture) return `Default picture of a post by @${post.username}`;
  return post.picture.alt.trim() || `Picture by @${post.username}`;
}

interface PostPictureProps {
  post: Post;
  sizes: string;
  priority?: boolean;
  className?: string;
}

export function PostPicture({ post, sizes, priority, className }: PostPictureProps) {
  if (post.picture) {
    return (
      <ResponsivePicture
        picture={post.picture}
        alt={pictureAlt(post)}
        sizes={sizes}
        priority={priority}
        className={className}
      />
    );
  }
  return (
    <StaticPicture
      src={post.postPic}
      alt={pictureAlt(post)}
      {...DEFAULT_PICTURE_SIZE}
      priority={priority}
      className={className}
    />
  );
}
