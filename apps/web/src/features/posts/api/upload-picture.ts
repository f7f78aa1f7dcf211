import type { MediaResponse, Picture } from '@share-arts/contract';
import { apiClient } from '../../../lib/api-client';
import { uploadForm, type UploadOptions } from '../../../lib/upload';

/** Uploads a post picture (POST /api/media) with its alt text, if any; the server makes its variants and placeholder. */
export async function uploadPicture(file: File, alt: string, options?: UploadOptions): Promise<Picture> {
  const form = new FormData();
  form.append('purpose', 'post');
  if (alt) form.append('alt', alt);
  // A pasted picture may come without a name; the server keeps the name for Download.
  form.append('file', file, file.name || 'pasted-picture');
  return (await uploadForm<MediaResponse>('/api/media', form, options)).media;
}

/** Changes the alt text of an uploaded picture (POST /api/media/{id}/alt). */
export async function editPictureAlt(mediaId: string, alt: string): Promise<Picture> {
  return (await apiClient.post<MediaResponse>(`/api/media/${encodeURIComponent(mediaId)}/alt`, { alt })).media;
}
