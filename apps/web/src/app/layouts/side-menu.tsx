import {
  ChartColumn,
  CircleAlert,
  Compass,
  Ellipsis,
  House,
  Inbox,
  Settings,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { canModerate } from '../../features/moderation';
import { BellIcon, notificationsLabel, useUnreadCount } from '../../features/notifications';
import { useCurrentUser } from '../../lib/session';
import styles from './side-menu.module.css';

const ITEMS: { to: string; label: MessageDescriptor; icon: LucideIcon }[] = [
  { to: '/', label: msg`Home`, icon: House },
  { to: '/explore', label: msg`Explore`, icon: Compass },
  // Under an icon in the phone's bar, a fifth of 375 px: one short word where the language has one ("ملفي").
  {
    to: '/profile',
    label: msg({ message: 'Profile', context: 'menu item: your own profile, in a narrow bar' }),
    icon: UserRound,
  },
  { to: '/settings', label: msg`Settings`, icon: Settings },
];

function NavItem({ to, label, icon: Icon, className }: (typeof ITEMS)[number] & { className?: string }) {
  const { _ } = useLinguiRuntime();
  return (
    <li className={className}>
      <NavLink to={to} end={to === '/'} className={styles.link}>
        <Icon className={styles.icon} aria-hidden="true" size="1.35em" />
        <span>{_(label)}</span>
      </NavLink>
    </li>
  );
}

/** The bottom bar's Notifications, with the unread count (only this item re-renders when it changes). */
function NotificationsItem() {
  const unread = useUnreadCount();
  return (
    <li className={styles.barOnly}>
      <NavLink to="/notifications" className={styles.link} aria-label={notificationsLabel(unread)}>
        <BellIcon unread={unread} size="1.35em" className={styles.icon} />
        <span>
          <Trans>Notifications</Trans>
        </span>
      </NavLink>
    </li>
  );
}

/** What the wide menu lists after Settings, and the phone's More sheet holds (the bar has room for five). */
function extraItems(moderator: boolean): (typeof ITEMS)[number][] {
  return [
    // Your insights and your inquiries (issue 42).
    { to: '/insights', label: msg`Insights`, icon: ChartColumn },
    { to: '/inquiries', label: msg`Inquiries`, icon: Inbox },
    // Moderators and admins: the queue of reports.
    ...(moderator ? [{ to: '/moderation', label: msg`Moderation`, icon: CircleAlert }] : []),
  ];
}

/**
 * The bottom bar's fifth place on phones (issue 42): More, a sheet above the bar with Insights, Inquiries, Settings
 * (and Moderation), each two taps from anywhere. A disclosure of links (not an ARIA menu): Escape, a tap outside, a
 * link taken or another page close it; focus goes to its first link when it opens and back to More on Escape.
 */
function MoreItem({ items }: { items: (typeof ITEMS)[number][] }) {
  const { t } = useLingui();
  const { _ } = useLinguiRuntime();
  const { pathname } = useLocation();
  // Open on the page it was opened on: another page (a link taken, Back) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null);
  const sheetId = useId();
  const rootRef = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const here = items.some((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));

  useEffect(() => {
    if (!open) return;
    rootRef.current?.querySelector<HTMLElement>('[data-more-link]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <li ref={rootRef} className={styles.barOnly}>
      <button
        ref={buttonRef}
        type="button"
        className={`${styles.link} ${styles.moreButton}`}
        aria-expanded={open}
        aria-controls={sheetId}
        data-current={here || undefined}
        onClick={() => setOpen(!open)}
      >
        <Ellipsis className={styles.icon} aria-hidden="true" size="1.35em" />
        <span>
          <Trans>More</Trans>
        </span>
      </button>
      <ul id={sheetId} className={styles.sheet} hidden={!open} aria-label={t`More`}>
        {items.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <NavLink to={to} className={styles.sheetLink} data-more-link onClick={() => setOpen(false)}>
              <Icon className={styles.icon} aria-hidden="true" size="1.35em" />
              <span>{_(label)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * Home, Explore, Profile, Settings, Insights, Inquiries (and Moderation): a side menu on wide screens. On phones a
 * bottom bar of five: Home, Explore, Notifications (wider screens reach it from the bell in the header), Profile and
 * More, whose sheet holds Insights, Inquiries, Settings (also the header's photo) and Moderation.
 */
export function SideMenu() {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  const extras = extraItems(canModerate(me));
  const settings = ITEMS[3]!;
  return (
    <nav aria-label={t`Main`} className={styles.nav}>
      <ul className={styles.list}>
        {ITEMS.slice(0, 2).map((item) => (
          <NavItem key={item.to} {...item} />
        ))}
        <NotificationsItem />
        <NavItem {...ITEMS[2]!} />
        <NavItem {...settings} className={styles.wideOnly} />
        {extras.map((item) => (
          <NavItem key={item.to} {...item} className={styles.wideOnly} />
        ))}
        <MoreItem items={[...extras.slice(0, 2), settings, ...extras.slice(2)]} />
      </ul>
    </nav>
  );
}
