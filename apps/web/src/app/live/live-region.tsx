import { useLingui } from '@lingui/react/macro';
import { useAnnouncements } from './announcer';

/**
 * The app shell's one polite live region: new notifications ("theo liked your post") are read out
 * after whatever the screen reader is saying. A log: each new line is announced, earlier ones are not
 * read again.
 */
export function LiveRegion() {
  const { t } = useLingui();
  const announcements = useAnnouncements();
  return (
    <div role="log" aria-live="polite" aria-label={t`Live updates`} className="visually-hidden">
      {announcements.map((announcement) => (
        <p key={announcement.id}>{announcement.text}</p>
      ))}
    </div>
  );
}
