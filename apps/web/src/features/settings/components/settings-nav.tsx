import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useLingui as useLinguiMacro } from '@lingui/react/macro';
import { NavLink } from 'react-router';
import styles from './settings-nav.module.css';

/** The parts of Settings, each its own address: a mail or a notice can link straight to one. */
export const SETTINGS_SECTIONS = [
  {
    path: '',
    label: msg`Profile`,
    description: msg`Edit how other artists see you.`,
  },
  {
    path: 'privacy',
    label: msg`Privacy and safety`,
    description: msg`Choose who sees your works and what you see, and keep people away.`,
  },
  {
    path: 'account',
    label: msg`Account`,
    description: msg`Your address, password, second factor and devices; bring your work, take your data, or leave.`,
  },
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** Links styled as the app's tabs: each part of Settings is a page of its own, so this is navigation. */
export function SettingsNav() {
  const { _ } = useLingui();
  const { t } = useLinguiMacro();
  return (
    <nav aria-label={t`Settings`} className={styles.nav}>
      {SETTINGS_SECTIONS.map((section) => (
        <NavLink
          key={section.path}
          to={section.path ? `/settings/${section.path}` : '/settings'}
          end
          className={styles.link}
        >
          {_(section.label)}
        </NavLink>
      ))}
    </nav>
  );
}
