import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { PUSH_KINDS, type PushKind } from '@share-arts/contract';
import { BellRing } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { currentPushSubscription, pushSupported } from '../../../lib/pwa/push-device';
import { Button } from '../../../ui/button';
import { usePushKinds, usePushState, useTurnOffPush, useTurnOnPush } from '../api/push';
import styles from './push-card.module.css';

const KIND_LABELS: Record<PushKind, MessageDescriptor> = {
  follows: msg`New followers`,
  likes: msg`Likes`,
  comments: msg`Comments`,
  mentions: msg`Mentions`,
  inquiries: msg`Inquiries and their messages`,
};

/**
 * "Get notified on this device" (issue 44): Web Push opt-in on the notifications page, per kind. Not shown where the
 * browser cannot be pushed (no service worker or Push API); says so plainly when notifications are blocked.
 */
export function PushCard() {
  const { t, i18n } = useLingui();
  const [supported] = useState(pushSupported);
  const state = usePushState();
  const turnOn = useTurnOnPush();
  const turnOff = useTurnOffPush();
  const kinds = usePushKinds();
  const [permission, setPermission] = useState<NotificationPermission | undefined>(() =>
    supported ? Notification.permission : undefined,
  );
  const [browserSubscribed, setBrowserSubscribed] = useState<boolean | undefined>(undefined);

  useEffect(() => {
    if (!supported) return;
    let live = true;
    void currentPushSubscription().then((subscription) => live && setBrowserSubscribed(subscription !== null));
    return () => {
      live = false;
    };
  }, [supported, state.data?.subscribed]);

  if (!supported || !state.data) return null;
  // On for this device: the server has this session's subscription and the browser still has one.
  const on = state.data.subscribed && browserSubscribed !== false && permission === 'granted';
  const busy = turnOn.isPending || turnOff.isPending || kinds.isPending;
  const problem = turnOn.error ?? turnOff.error ?? kinds.error;

  const enable = () =>
    turnOn.mutate(state.data.kinds.length > 0 ? state.data.kinds : [...PUSH_KINDS], {
      onSettled: () => setPermission(Notification.permission),
    });

  const toggle = (kind: PushKind, checked: boolean) => {
    const next = PUSH_KINDS.filter((k) => (k === kind ? checked : state.data.kinds.includes(k)));
    kinds.mutate(next);
  };

  return (
    <section className={styles.card} aria-labelledby="push-card-title">
      <div className={styles.head}>
        <BellRing aria-hidden="true" size="1.4em" className={styles.icon} />
        <div>
          <h2 id="push-card-title" className={styles.title}>
            <Trans>Get notified on this device</Trans>
          </h2>
          <p className={styles.text}>
            {on
              ? t`This device gets a notification when the app is closed. Several likes of one work come as one.`
              : t`Hear about likes, comments and new followers even when Share Arts is closed.`}
          </p>
        </div>
      </div>
      {permission === 'denied' && !on ? (
        <p className={styles.blocked} role="note">
          <Trans>
            Notifications are blocked for this site in your browser. To get them, allow notifications in the site’s
            settings (the icon beside the address), then come back here.
          </Trans>
        </p>
      ) : on ? (
        <>
          <fieldset className={styles.kinds} disabled={busy}>
            <legend className={styles.legend}>
              <Trans>Notify me about</Trans>
            </legend>
            {PUSH_KINDS.map((kind) => (
              <label key={kind} className={styles.kind}>
                <input
                  type="checkbox"
                  checked={state.data.kinds.includes(kind)}
                  onChange={(event) => toggle(kind, event.currentTarget.checked)}
                />
                {i18n._(KIND_LABELS[kind])}
              </label>
            ))}
          </fieldset>
          <Button variant="secondary" onClick={() => turnOff.mutate()} aria-disabled={busy || undefined}>
            <Trans>Turn off on this device</Trans>
          </Button>
        </>
      ) : (
        <Button onClick={enable} aria-disabled={busy || undefined}>
          {turnOn.isPending ? t`Turning on…` : t`Turn on notifications`}
        </Button>
      )}
      {problem && (
        <p className={styles.error} role="alert">
          {errorMessage(problem)}
        </p>
      )}
    </section>
  );
}
