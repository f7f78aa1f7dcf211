import { TOASTS, type EditUserBody, type MediaResponse, type Picture, type User } from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiClient, errorMessage } from '../../../lib/api-client';
import { setCurrentUser } from '../../../lib/session';
import { uploadForm } from '../../../lib/upload';
import { toast } from '../../../ui/toast';
import { setCachedProfile, userKeys } from '../../people';
import { postKeys } from '../../posts';

export interface ProfileInput {
  firstName: string;
  lastName: string;
  email: string;
  bio: string;
  link: string;
}

/** The photo part of an update: unchanged, a new file to upload first, or back to the default photo. */
export type PhotoChange = { kind: 'keep' } | { kind: 'new'; file: File } | { kind: 'remove' };

export type ProfileField = keyof ProfileInput | 'userPhoto';
const FIELDS: readonly ProfileField[] = ['firstName', 'lastName', 'email', 'bio', 'link', 'userPhoto'];

/** A refused update, with the field the server's message is about ("link must …" → link), if any. */
export class ProfileUpdateError extends Error {
  readonly field: ProfileField | undefined;

  constructor(message: string, field: ProfileField | undefined) {
    super(message);
    this.name = 'ProfileUpdateError';
    this.field = field;
  }
}

/** "link must …", "email must …", "userData.firstName must …": the field a 400 names. */
export function fieldOfMessage(message: string): ProfileField | undefined {
  const subject = message.replace(/^(body\.)?userData\./, '').split(/[\s.:]/, 1)[0] ?? '';
  return FIELDS.find((field) => field === subject);
}

/** Uploads a profile photo (POST /api/media, purpose=avatar): the server crops it square. */
export async function uploadAvatar(file: File): Promise<Picture> {
  const form = new FormData();
  form.append('purpose', 'avatar');
  form.append('file', file, file.name);
  return (await uploadForm<MediaResponse>('/api/media', form)).media;
}

// A file already uploaded is not sent again when the save is retried after a refusal (e.g. a bad link).
const uploadedIds = new WeakMap<File, string>();

/** Uploads a new photo if there is one, then saves the profile with it. */
export async function updateProfile(input: ProfileInput, photo: PhotoChange): Promise<User> {
  const userData: EditUserBody['userData'] = { ...input };
  if (photo.kind === 'new') {
    try {
      const id = uploadedIds.get(photo.file) ?? (await uploadAvatar(photo.file))._id;
      uploadedIds.set(photo.file, id);
      userData.userPhoto = id;
    } catch (error) {
      throw new ProfileUpdateError(errorMessage(error), 'userPhoto');
    }
  } else if (photo.kind === 'remove') {
    userData.userPhoto = '';
  }
  try {
    return (await apiClient.post<{ user: User }>('/api/users/edit', { userData })).user;
  } catch (error) {
    const field = error instanceof ApiError && error.status === 400 ? fieldOfMessage(error.message) : undefined;
    throw new ProfileUpdateError(errorMessage(error), field);
  }
}

/**
 * Update Profile: saves, then refreshes everything that shows the person — the session (header photo),
 * their profile, and their post cards everywhere. A refusal about one field is left to the form to show
 * beside that field; any other failure is a toast.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, photo }: { input: ProfileInput; photo: PhotoChange }) => updateProfile(input, photo),
    onSuccess: (user) => {
      setCurrentUser(queryClient, user);
      setCachedProfile(queryClient, user);
      // Their name and photo are on every post card of theirs, in any list and on the post pages.
      void queryClient.invalidateQueries({ queryKey: postKeys.all });
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      toast.success(TOASTS.profileUpdated);
    },
    onError: (error) => {
      if (error instanceof ProfileUpdateError && error.field) return;
      toast.error(errorMessage(error));
    },
  });
}
