import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS, type User } from '@share-arts/contract';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { withWebScheme } from '../../../lib/safe-url';
import { fullName } from '../../../lib/user-name';
import { Button } from '../../../ui/button';
import { TextAreaField, TextField } from '../../../ui/field';
import { useConfirmedAction } from '../../account/security';
import {
  ProfileUpdateError,
  useUpdateProfile,
  type PhotoChange,
  type ProfileField,
  type ProfileInput,
} from '../api/use-update-profile';
import { PhotoField } from './photo-field';
import styles from './profile-form.module.css';

function initialValues(user: User): ProfileInput {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email ?? '',
    bio: user.bio,
    link: user.link,
  };
}

/** The spec's profile form, prefilled from the current user, with the profile photo. */
export function ProfileForm({ user }: { user: User }) {
  const { t } = useLingui();
  const [values, setValues] = useState(() => initialValues(user));
  const [photo, setPhoto] = useState<PhotoChange>({ kind: 'keep' });
  const [fieldError, setFieldError] = useState<{ field: ProfileField; message: string }>();
  // The server's sentence about a new address: saved unconfirmed, a link mailed to it (issue 38).
  const [emailNotice, setEmailNotice] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);
  const { confirmed, dialog } = useConfirmedAction();
  const update = useUpdateProfile(confirmed);
  // Take the person to the field a refusal is about.
  useEffect(() => {
    if (fieldError) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [fieldError]);
  const errorOf = (field: ProfileField) => (fieldError?.field === field ? fieldError.message : undefined);

  const bind = (field: keyof ProfileInput) => ({
    name: field,
    value: values[field],
    error: errorOf(field),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setValues((current) => ({ ...current, [field]: event.target.value }));
      if (fieldError?.field === field) setFieldError(undefined);
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFieldError(undefined);
    setEmailNotice(undefined);
    const input: ProfileInput = {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
      bio: values.bio.trim(),
      // People type `nova.example.com/portfolio`; the server takes full http(s) addresses only.
      link: withWebScheme(values.link),
    };
    setValues((current) => ({ ...current, link: input.link }));
    update.mutate(
      // The address compared with the one saved now: a new one is changed first, with "Confirm it's you".
      { input, photo, currentEmail: user.email },
      {
        onSuccess: ({ emailChanged }) => {
          setPhoto({ kind: 'keep' });
          setEmailNotice(emailChanged);
        },
        onError: (error) => {
          if (!(error instanceof ProfileUpdateError)) return;
          setEmailNotice(error.emailChanged);
          if (error.field) setFieldError({ field: error.field, message: error.message });
        },
      },
    );
  };

  const name = fullName(user);

  return (
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="profile-form-title"
      aria-busy={update.isPending}
    >
      <div className={styles.heading}>
        <h2 id="profile-form-title" className={styles.title}>
          <Trans>Edit profile</Trans>
        </h2>
        <p className={styles.identityUsername}>
          {name} · @{user.username}
        </p>
      </div>
      <PhotoField
        current={user.userPhoto}
        name={name}
        change={photo}
        onChange={(next) => {
          setPhoto(next);
          if (fieldError?.field === 'userPhoto') setFieldError(undefined);
        }}
        disabled={update.isPending}
        error={errorOf('userPhoto')}
      />
      <div className={styles.row}>
        <TextField label={t`First name`} autoComplete="given-name" maxLength={LIMITS.nameMax} {...bind('firstName')} />
        <TextField label={t`Last name`} autoComplete="family-name" maxLength={LIMITS.nameMax} {...bind('lastName')} />
      </div>
      <div className={styles.email}>
        <TextField label={t`Email`} type="email" autoComplete="email" maxLength={LIMITS.emailMax} {...bind('email')} />
        {emailNotice && (
          <p role="status" className={styles.notice}>
            {emailNotice}
          </p>
        )}
      </div>
      <TextAreaField label={t`Bio`} maxLength={LIMITS.bioMax} {...bind('bio')} />
      <TextField
        label={t`Link`}
        type="url"
        autoComplete="url"
        placeholder="https://"
        maxLength={LIMITS.linkMax}
        {...bind('link')}
      />
      <div className={styles.actions}>
        <Button type="submit" disabled={update.isPending}>
          <Trans>Update Profile</Trans>
        </Button>
      </div>
      {dialog}
    </form>
  );
}
