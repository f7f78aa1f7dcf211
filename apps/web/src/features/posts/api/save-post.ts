import type { CreatePostBody, EditPostBody, Picture, Post, PostWriteResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { replaceCachedPost } from './post-cache';
import { postKeys, PREFER_MINIMAL } from './post-keys';
import { editPictureAlt, uploadPicture } from './upload-picture';

/** The picture of a post being written: none (the default), the one it has, or a new file. */
export type DraftPicture =
  | { kind: 'none' }
  | { kind: 'existing'; picture: Picture }
  | { kind: 'new'; file: File; previewUrl: string; width?: number; height?: number };

export interface PostDraft {
  content: string;
  picture: DraftPicture;
  alt: string;
}

export interface SaveProgress {
  stage: 'uploading' | 'saving';
  /** 0…1 while uploading. */
  fraction: number;
}

/** Which step failed: the upload of the picture or the post itself. */
export class SavePostError extends Error {
  readonly step: 'upload' | 'post';
  override readonly cause: unknown;

  constructor(step: 'upload' | 'post', cause: unknown) {
    super(cause instanceof Error ? cause.message : 'Saving the post failed.');
    this.name = 'SavePostError';
    this.step = step;
    this.cause = cause;
  }
}

function postFromResponse(response: PostWriteResponse): Post {
  if (!response.post) throw new Error('The server did not send the post back.');
  return response.post;
}

async function resolveMedia(
  draft: PostDraft,
  original: Post | undefined,
  onProgress: (progress: SaveProgress) => void,
): Promise<string | null | undefined> {
  const { picture } = draft;
  const alt = draft.alt.trim();
  try {
    if (picture.kind === 'new') {
      const uploaded = await uploadPicture(picture.file, alt, {
        onProgress: (fraction) => onProgress({ stage: 'uploading', fraction }),
      });
      return uploaded._id;
    }
    if (picture.kind === 'existing') {
      if (alt !== picture.picture.alt) await editPictureAlt(picture.picture._id, alt);
      // Unchanged picture: leave it out of the edit so the server keeps it.
      return original?.picture?._id === picture.picture._id ? undefined : picture.picture._id;
    }
    return original?.picture ? null : undefined;
  } catch (error) {
    throw new SavePostError('upload', error);
  }
}

/** Creates a post, or edits `original`: uploads a new picture first, then writes the post with its mediaId. */
export async function savePost(
  draft: PostDraft,
  original: Post | undefined,
  onProgress: (progress: SaveProgress) => void,
): Promise<Post> {
  const mediaId = await resolveMedia(draft, original, onProgress);
  onProgress({ stage: 'saving', fraction: 1 });
  const content = draft.content.trim();
  try {
    if (original) {
      const postData: EditPostBody['postData'] = { content };
      if (mediaId !== undefined) postData.mediaId = mediaId;
      const body: EditPostBody = { postData };
      return postFromResponse(
        await apiClient.post<PostWriteResponse>(`/api/posts/edit/${encodeURIComponent(original._id)}`, body, {
          headers: PREFER_MINIMAL,
        }),
      );
    }
    const body: CreatePostBody = mediaId ? { content, mediaId } : { content };
    return postFromResponse(await apiClient.post<PostWriteResponse>('/api/posts', body, { headers: PREFER_MINIMAL }));
  } catch (error) {
    throw new SavePostError('post', error);
  }
}

/** The mutation behind the Post / Edit button; the caller shows the toasts. */
export function useSavePost(original: Post | undefined, onProgress: (progress: SaveProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: PostDraft) => savePost(draft, original, onProgress),
    onSuccess: (post) => {
      if (original) {
        replaceCachedPost(queryClient, post);
      } else {
        queryClient.setQueryData(postKeys.detail(post._id), post);
        // A new post belongs at the top of Home, Explore and its author's profile.
        void queryClient.invalidateQueries({ queryKey: postKeys.lists() });
      }
    },
  });
}
