import {
  type EditUserBody,
  type MediaResponse,
  type Picture,
  type SecurityMessage,
  type User,
} from '@share-arts/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiClient, errorMessage } from '../../../lib/api-client';
import { setCurrentUser } from '../../../lib/session';
import { uploadForm } from '../../../lib/upload';
import { toast } from '../../../ui/toast';
import { changeEmail, isReauthCancelled, type Confirmed } from '../../account/reauth';
import { setCachedProfile, userKeys } from '../../people';
import { postKeys } from '../../posts';
import { toastText } from '../../../lib/spec-toasts';

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

/** Said beside the email field when the person closed "Confirm it's you": nothing was saved. */
export const EMAIL_NOT_CONFIRMED =
  "Nothing was saved: a new email address needs you to confirm it's you. Update again to confirm, or put your current address back.";

/**
 * A refused update, with the field the server's message is about ("link must …" → link), if any, and the
 * server's sentence about the new address when that step had already succeeded.
 */
export class ProfileUpdateError extends Error {
  readonly field: ProfileField | undefined;
  readonly emailChanged: string | undefined;

  constructor(message: string, field: ProfileField | undefined, emailChanged?: string) {
    super(message);
    this.name = 'ProfileUpdateError';
    this.field = field;
    this.emailChanged = emailChanged;
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

/** The address as it is now, and how to change it (POST /api/account/email, "Confirm it's you" when asked). */
export interface EmailStep {
  current: string | undefined;
  change: (email: string) => Promise<SecurityMessage>;
}

/** The saved profile, and the server's sentence about a new address when it was changed. */
export interface ProfileUpdate {
  user: User;
  emailChanged?: string;
}

/**
 * A new address first (issue 38: users/edit no longer changes it): if that is refused or not confirmed, nothing
 * else is saved. Then a new photo is uploaded if there is one, and the rest of the profile saved with it.
 */
export async function updateProfile(input: ProfileInput, photo: PhotoChange, email: EmailStep): Promise<ProfileUpdate> {
  let emailChanged: string | undefined;
  if (input.email !== (email.current ?? '')) {
    try {
      emailChanged = (await email.change(input.email)).message;
    } catch (error) {
      throw new ProfileUpdateError(isReauthCancelled(error) ? EMAIL_NOT_CONFIRMED : errorMessage(error), 'email');
    }
  }
  const { email: _address, ...rest } = input;
  const userData: EditUserBody['userData'] = rest;
  if (photo.kind === 'new') {
    try {
      const id = uploadedIds.get(photo.file) ?? (await uploadAvatar(photo.file))._id;
      uploadedIds.set(photo.file, id);
      userData.userPhoto = id;
    } catch (error) {
      throw new ProfileUpdateError(errorMessage(error), 'userPhoto', emailChanged);
    }
  } else if (photo.kind === 'remove') {
    userData.userPhoto = '';
  }
  try {
    const { user } = await apiClient.post<{ user: User }>('/api/users/edit', { userData });
    return { user, emailChanged };
  } catch (error) {
    // Which field, from the server's English (the message shown may be translated: issue 43).
    const field = error instanceof ApiError && error.status === 400 ? fieldOfMessage(error.source) : undefined;
    throw new ProfileUpdateError(errorMessage(error), field, emailChanged);
  }
}

/**
 * Update Profile: saves, then refreshes everything that shows the person — the session (header photo),
 * their profile, and their post cards everywhere. A refusal about one field is left to the form to show
 * beside that field; any other failure is a toast. A new address goes through `confirmed`.
 */
export function useUpdateProfile(confirmed: Confirmed) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      input,
      photo,
      currentEmail,
    }: {
      input: ProfileInput;
      photo: PhotoChange;
      currentEmail: string | undefined;
    }) =>
      updateProfile(input, photo, {
        current: currentEmail,
        change: (email) => confirmed(() => changeEmail(queryClient, email)),
      }),
    onSuccess: ({ user }) => {
      setCurrentUser(queryClient, user);
      setCachedProfile(queryClient, user);
      // Their name and photo are on every post card of theirs, in any list and on the post pages.
      void queryClient.invalidateQueries({ queryKey: postKeys.all });
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      toast.success(toastText('profileUpdated'));
    },
    onError: (error) => {
      if (error instanceof ProfileUpdateError && error.field) return;
      toast.error(errorMessage(error));
    },
  });
}
