import { LIMITS, type User } from '@share-arts/contract';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import { TextAreaField, TextField } from '../../../ui/field';
import { useUpdateProfile, type ProfileInput } from '../api/use-update-profile';
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

/** The spec's profile form, prefilled from the current user. */
export function ProfileForm({ user }: { user: User }) {
  const [values, setValues] = useState(() => initialValues(user));
  const update = useUpdateProfile();

  const bind = (field: keyof ProfileInput) => ({
    name: field,
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [field]: event.target.value })),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate({
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
      bio: values.bio.trim(),
      link: values.link.trim(),
    });
  };

  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;

  return (
    <form
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="profile-form-title"
      aria-busy={update.isPending}
    >
      <h2 id="profile-form-title" className={styles.title}>
        Edit profile
      </h2>
      <div className={styles.identity}>
        <Avatar src={user.userPhoto} name={name} size={3.5} decorative />
        <div>
          <p className={styles.identityName}>{name}</p>
          <p className={styles.identityUsername}>@{user.username}</p>
        </div>
      </div>
      <div className={styles.row}>
        <TextField label="First name" autoComplete="given-name" maxLength={LIMITS.nameMax} {...bind('firstName')} />
        <TextField label="Last name" autoComplete="family-name" maxLength={LIMITS.nameMax} {...bind('lastName')} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" maxLength={LIMITS.emailMax} {...bind('email')} />
      <TextAreaField label="Bio" maxLength={LIMITS.bioMax} {...bind('bio')} />
      <TextField
        label="Link"
        type="url"
        autoComplete="url"
        placeholder="https://"
        maxLength={LIMITS.linkMax}
        {...bind('link')}
      />
      <div className={styles.actions}>
        <Button type="submit" disabled={update.isPending}>
          Update Profile
        </Button>
      </div>
    </form>
  );
}
