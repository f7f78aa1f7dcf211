import { t } from '@lingui/core/macro';
import type { CreatePostBody, EditPostBody, Picture, Post, PostWriteResponse } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, errorMessage } from '../../../lib/api-client';
import { replaceCachedPost } from './post-cache';
import { postKeys, PREFER_MINIMAL } from './post-keys';
import { editPictureAlt } from './upload-picture';

/** One picture of a post being saved: uploaded already (the composer waits for that), with its alt text as typed. */
export interface PostDraftPicture {
  media: Picture;
  alt: string;
}

/** The rights and warning a post is saved with (the composer's "More options"). */
export type PostRightsDraft = Pick<
  Post,
  'contentWarning' | 'commentPolicy' | 'licence' | 'aiGenerated' | 'downloadable'
>;

export interface PostDraft {
  content: string;
  /** Absent: a new post takes the defaults, an edit leaves them as they are. */
  rights?: PostRightsDraft;
  /** In the author's order; the first is the cover. */
  pictures: readonly PostDraftPicture[];
  /** The work's process pictures in order (issue 41); absent leaves them as they are. */
  process?: readonly PostDraftPicture[];
  /** The language of its text (issue 43); null: not said; absent: a new post says none, an edit leaves it. */
  language?: string | null;
}

/** The pictures a post has, in order: `media`, or its one `picture` from a server that sends no list. */
export function savedPictures(post: Post | undefined): Picture[] {
  if (!post) return [];
  // A server of before several pictures per post sends `picture` only.
  const media = (post as Partial<Pick<Post, 'media'>>).media;
  return media ?? (post.picture ? [post.picture] : []);
}

function postFromResponse(response: PostWriteResponse): Post {
  if (!response.post) throw new Error(t`The server did not send the post back.`);
  return response.post;
}

/**
 * Saves the alt texts changed since their upload (the upload sent the alt typed by then): one request per
 * changed picture, all at once. A failure names the picture, so the person knows which text to look at.
 */
async function saveAltTexts(pictures: readonly PostDraftPicture[], process = false): Promise<void> {
  await Promise.all(
    pictures.map(async ({ media, alt }, index) => {
      const text = alt.trim();
      if (text === media.alt) return;
      try {
        await editPictureAlt(media._id, text);
      } catch (error) {
        const number = index + 1;
        const problem = errorMessage(error);
        throw new Error(
          process
            ? t`The alt text of process picture ${number} was not saved: ${problem}`
            : t`The alt text of picture ${number} was not saved: ${problem}`,
          { cause: error },
        );
      }
    }),
  );
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/** The alt texts typed that differ from the pictures' own: what an edit sends in `alts`. */
export function changedAlts(pictures: readonly PostDraftPicture[]): { mediaId: string; alt: string }[] {
  return pictures.flatMap(({ media, alt }) =>
    alt.trim() === media.alt ? [] : [{ mediaId: media._id, alt: alt.trim() }],
  );
}

/**
 * Creates a post, or edits `original`. A new post: its pictures' alt texts first, then the post with its `mediaIds`
 * in order. An edit sends the changed alt texts inside it (`alts`), so that the edit and its alt texts are one
 * revision of the work's history, and an alt-only change is one too (issue 41).
 */
export async function savePost(draft: PostDraft, original: Post | undefined): Promise<Post> {
  const content = draft.content.trim();
  const mediaIds = draft.pictures.map(({ media }) => media._id);
  const processMediaIds = draft.process?.map(({ media }) => media._id);
  if (original) {
    const postData: EditPostBody['postData'] = { content, ...draft.rights };
    // Only when it changed: an answer cached before posts had a language has none (undefined), which is none.
    if (draft.language !== undefined && draft.language !== (original.language ?? null)) {
      postData.language = draft.language;
    }
    const alts = [...changedAlts(draft.pictures), ...changedAlts(draft.process ?? [])];
    if (alts.length > 0) postData.alts = alts;
    // The whole new list, only when it changed (added, removed or moved): otherwise the server keeps them.
    const savedIds = savedPictures(original).map((picture) => picture._id);
    if (!sameList(mediaIds, savedIds)) postData.mediaIds = mediaIds;
    // The process pictures likewise (issue 41); `process` may be missing from an answer cached before it was sent.
    const savedProcess = ((original as Partial<Pick<Post, 'process'>>).process ?? []).map((picture) => picture._id);
    if (processMediaIds && !sameList(processMediaIds, savedProcess)) postData.processMediaIds = processMediaIds;
    const body: EditPostBody = { postData };
    return postFromResponse(
      await apiClient.post<PostWriteResponse>(`/api/posts/edit/${encodeURIComponent(original._id)}`, body, {
        headers: PREFER_MINIMAL,
      }),
    );
  }
  await saveAltTexts(draft.pictures);
  if (draft.process) await saveAltTexts(draft.process, true);
  const body: CreatePostBody = {
    content,
    ...(mediaIds.length > 0 ? { mediaIds } : {}),
    ...(processMediaIds && processMediaIds.length > 0 ? { processMediaIds } : {}),
    ...(draft.language ? { language: draft.language } : {}),
    ...draft.rights,
  };
  return postFromResponse(await apiClient.post<PostWriteResponse>('/api/posts', body, { headers: PREFER_MINIMAL }));
}

/** The mutation behind the Post / Edit button; the caller shows the toasts. */
export function useSavePost(original: Post | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: PostDraft) => savePost(draft, original),
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
