import { Trans, useLingui } from '@lingui/react/macro';
import type { User } from '@share-arts/contract';
import { Bell, BellOff, CircleAlert, MoreHorizontal, Undo2, UserX } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useSignInFirst } from '../../../lib/session';
import { Button } from '../../../ui/button';
import { Menu, type MenuItem } from '../../../ui/menu';
import { safetyOf } from '../api/safety-of';
import styles from './profile-safety.module.css';

const load = () => import('../dialogs');
const BlockDialog = lazy(() => load().then((module) => ({ default: module.BlockDialog })));
const ReportDialog = lazy(() => load().then((module) => ({ default: module.ReportDialog })));
const RelationButton = lazy(() => load().then((module) => ({ default: module.RelationButton })));

/** A profile's "More" menu: Mute / Unmute, Block / Unblock (Block asks first), Report. */
export function ProfileSafetyMenu({ user, className }: { user: User; className?: string }) {
  const { t } = useLingui();
  const { blocked, muted } = safetyOf(user);
  const [open, setOpen] = useState<'block' | 'report' | 'unblock' | 'mute' | 'unmute' | null>(null);
  const signInFirst = useSignInFirst();
  const choose = (dialog: NonNullable<typeof open>) => () => signInFirst() && setOpen(dialog);
  const name = `@${user.username}`;

  const items: MenuItem[] = [
    muted
      ? { label: t`Unmute`, icon: <Bell aria-hidden="true" size="1.1em" />, onSelect: choose('unmute') }
      : { label: t`Mute`, icon: <BellOff aria-hidden="true" size="1.1em" />, onSelect: choose('mute') },
    blocked
      ? { label: t`Unblock`, icon: <Undo2 aria-hidden="true" size="1.1em" />, onSelect: choose('unblock') }
      : { label: t`Block`, icon: <UserX aria-hidden="true" size="1.1em" />, tone: 'danger', onSelect: choose('block') },
    { label: t`Report`, icon: <CircleAlert aria-hidden="true" size="1.1em" />, onSelect: choose('report') },
  ];
  const close = () => setOpen(null);

  return (
    <>
      <Menu
        label={t`More options for ${name}`}
        trigger={<MoreHorizontal aria-hidden="true" size="1.35em" />}
        items={items}
        className={className}
      />
      <Suspense fallback={null}>
        {open === 'block' && <BlockDialog username={user.username} onClose={close} />}
        {open === 'report' && (
          <ReportDialog
            targetType="user"
            targetId={user.username}
            what={name}
            remoteHost={user.remote ? user.username.split('@')[1] : undefined}
            onClose={close}
          />
        )}
        {(open === 'unblock' || open === 'mute' || open === 'unmute') && (
          <RelationButton
            relation={open === 'unblock' ? 'block' : 'mute'}
            username={user.username}
            on={open === 'mute'}
            immediate
            onDone={close}
          />
        )}
      </Suspense>
    </>
  );
}

/** A blocked profile: "You blocked @name", with Unblock, instead of the works. */
export function BlockedProfile({ username }: { username: string }) {
  return (
    <section className={styles.blocked} aria-labelledby="blocked-title">
      <UserX aria-hidden="true" size="2rem" className={styles.icon} />
      <h2 id="blocked-title" className={styles.title}>
        <Trans>You blocked @{username}</Trans>
      </h2>
      <p className={styles.text}>
        <Trans>They don&apos;t see your works and cannot interact with you. Their works are hidden.</Trans>
      </p>
      <Suspense
        fallback={
          <Button variant="secondary">
            <Trans>Unblock</Trans>
          </Button>
        }
      >
        <RelationButton relation="block" username={username} on={false} />
      </Suspense>
    </section>
  );
}
