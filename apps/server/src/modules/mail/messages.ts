import { ACCOUNT_EMAIL_LIMITS, APP_NAME } from '@share-arts/contract';
import { format, translateSentence, type Locale } from '../../lib/i18n.js';
import type { Mail } from './mailer.js';

/**
 * The mails' words (issue 43), as ICU messages: each mail is written in its reader's language (the one they chose,
 * else English), from apps/server/locales/<code>.po. `{app}` is the site's name.
 */
export const MAIL_MESSAGES = {
  hello: 'Hello {username},',
  signature: '— {app}',
  verifySubject: 'Confirm your email address for {app}',
  verifyIntro: 'please confirm that this address belongs to your {app} account.',
  verifyLink: 'Confirm my email address',
  verifyLasts:
    'The link works for {hours} hours, once. Until you confirm, this address cannot receive password reset links.',
  verifyIgnore: 'If you did not create an account or change your address on {app}, you can ignore this mail.',
  resetSubject: 'Choose a new password for {app}',
  resetIntro: 'someone (we hope you) asked to choose a new password for your {app} account.',
  resetLink: 'Choose a new password',
  resetLasts:
    '{hours, plural, one {The link works for # hour, once.} other {The link works for # hours, once.}} Choosing a new password signs your account out everywhere.',
  resetFactors:
    'Your authenticator app and passkeys stay as they are: when two-factor sign-in is on, signing in still asks for a code (or one of your recovery codes). After the reset, look at your passkeys in Settings → Account and remove any you do not know.',
  resetIgnore: 'If you did not ask for this, you can ignore this mail: your password stays as it is.',
  securitySubject: '{title} on your {app} account',
  securityWhen: 'This was done on {date} at {time} UTC.',
  securityWhenFrom: 'This was done on {date} at {time} UTC from {device}.',
  securityWhenFromPlace: 'This was done on {date} at {time} UTC from {device} ({place}).',
  securityYou: 'If this was you, there is nothing more to do.',
  securityLink: 'Review your account security',
  securityNotYou:
    'If it was not you, someone else may be using your account: choose a new password ("Forgot password?" on the log-in page), end the sessions you do not know and remove passkeys you did not add.',
  emailChangedSubject: 'The email address of your {app} account was changed',
  emailChangedWhat:
    'the email address of your {app} account was changed from this one to {address}. Mails about your account, and password reset links, now go there.',
  emailChangedLink: 'This was not me: put my address back',
  emailChangedLasts:
    'The link works for {days} days, once. It puts this address back, confirmed, and signs your account out everywhere; then choose a new password on the "Forgot password?" page.',
  inquirySubject: '{client} sent you an inquiry on {app}',
  inquiryIntro: '{client} sent you an inquiry:',
  inquiryLink: 'Read and answer it',
  inquiryWhy: 'You receive this mail because you chose to be mailed new inquiries (Settings, Inquiries).',
} as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A mail of a few paragraphs and one link, as plain text and as simple HTML (the same words: the link
 * written out in full in both, for mail programs that show no buttons), in `locale`.
 */
export function composeMail(
  locale: Locale,
  to: string,
  subject: string,
  paragraphs: string[],
  link: { label: string; url: string },
  after: string[],
): Mail {
  const signature = format(locale, MAIL_MESSAGES.signature, { app: APP_NAME });
  const text = [...paragraphs, `${link.label}:\n${link.url}`, ...after, signature].join('\n\n');
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a><br>${escapeHtml(link.url)}</p>`,
    ...after.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p>${escapeHtml(signature)}</p>`,
  ].join('\n');
  const dir = locale === 'ar' ? ' dir="rtl"' : '';
  return { to, subject, text, html: `<!doctype html>\n<html lang="${locale}"${dir}><body>\n${html}\n</body></html>` };
}

const app = APP_NAME;

/** "Please confirm your email address": sent on sign-up, on a change of address and on "Resend". */
export function verificationMail(locale: Locale, to: string, username: string, url: string): Mail {
  return composeMail(
    locale,
    to,
    format(locale, MAIL_MESSAGES.verifySubject, { app }),
    [format(locale, MAIL_MESSAGES.hello, { username }), format(locale, MAIL_MESSAGES.verifyIntro, { app })],
    { label: format(locale, MAIL_MESSAGES.verifyLink), url },
    [
      format(locale, MAIL_MESSAGES.verifyLasts, { hours: ACCOUNT_EMAIL_LIMITS.verifyLinkHours }),
      format(locale, MAIL_MESSAGES.verifyIgnore, { app }),
    ],
  );
}

/** "Choose a new password": sent on "Forgot password?" to a confirmed address. */
export function resetMail(locale: Locale, to: string, username: string, url: string): Mail {
  return composeMail(
    locale,
    to,
    format(locale, MAIL_MESSAGES.resetSubject, { app }),
    [format(locale, MAIL_MESSAGES.hello, { username }), format(locale, MAIL_MESSAGES.resetIntro, { app })],
    { label: format(locale, MAIL_MESSAGES.resetLink), url },
    [
      format(locale, MAIL_MESSAGES.resetLasts, { hours: ACCOUNT_EMAIL_LIMITS.resetLinkMinutes / 60 }),
      format(locale, MAIL_MESSAGES.resetFactors),
      format(locale, MAIL_MESSAGES.resetIgnore),
    ],
  );
}

/** What a security notice says of the change: when, and from which device and network. */
export interface SecurityChange {
  title: string;
  detail: string;
  /** YYYY-MM-DDTHH:mm:ss.sssZ */
  at: string;
  device: string;
  place: string;
}

/** "Your password was changed" and the like (issue 38): every change of what protects the account. */
export function securityNoticeMail(
  locale: Locale,
  to: string,
  username: string,
  change: SecurityChange,
  settingsUrl: string,
): Mail {
  const title = translateSentence(locale, change.title);
  const detail = change.detail ? translateSentence(locale, change.detail) : '';
  const when = {
    date: change.at.slice(0, 10),
    time: change.at.slice(11, 16),
    device: change.device,
    place: change.place,
  };
  const whenText = format(
    locale,
    !change.device
      ? MAIL_MESSAGES.securityWhen
      : change.place
        ? MAIL_MESSAGES.securityWhenFromPlace
        : MAIL_MESSAGES.securityWhenFrom,
    when,
  );
  return composeMail(
    locale,
    to,
    format(locale, MAIL_MESSAGES.securitySubject, { title, app }),
    [
      format(locale, MAIL_MESSAGES.hello, { username }),
      `${title}${detail ? `: ${detail}` : ''}. ${whenText}`,
      format(locale, MAIL_MESSAGES.securityYou),
    ],
    { label: format(locale, MAIL_MESSAGES.securityLink), url: settingsUrl },
    [format(locale, MAIL_MESSAGES.securityNotYou)],
  );
}

/** To the old address of an email change (issue 38): what changed, and the link that puts it back. */
export function emailChangedMail(
  locale: Locale,
  to: string,
  username: string,
  newAddress: string,
  undoUrl: string,
  days: number,
): Mail {
  return composeMail(
    locale,
    to,
    format(locale, MAIL_MESSAGES.emailChangedSubject, { app }),
    [
      format(locale, MAIL_MESSAGES.hello, { username }),
      format(locale, MAIL_MESSAGES.emailChangedWhat, { app, address: newAddress }),
      format(locale, MAIL_MESSAGES.securityYou),
    ],
    { label: format(locale, MAIL_MESSAGES.emailChangedLink), url: undoUrl },
    [format(locale, MAIL_MESSAGES.emailChangedLasts, { days })],
  );
}

/** A new inquiry, to the artist who chose to be mailed them (issue 42). */
export function inquiryMail(
  locale: Locale,
  to: string,
  artist: string,
  client: string,
  excerpt: string,
  url: string,
): Mail {
  return composeMail(
    locale,
    to,
    format(locale, MAIL_MESSAGES.inquirySubject, { client, app }),
    [
      format(locale, MAIL_MESSAGES.hello, { username: artist }),
      format(locale, MAIL_MESSAGES.inquiryIntro, { client }),
      excerpt,
    ],
    { label: format(locale, MAIL_MESSAGES.inquiryLink), url },
    [format(locale, MAIL_MESSAGES.inquiryWhy)],
  );
}
