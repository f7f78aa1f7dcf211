import { ACCOUNT_EMAIL_LIMITS, APP_NAME } from '@share-arts/contract';
import type { Mail } from './mailer.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A mail of a few paragraphs and one link, as plain text and as simple HTML (the same words: the link
 * written out in full in both, for mail programs that show no buttons).
 */
function compose(
  to: string,
  subject: string,
  paragraphs: string[],
  link: { label: string; url: string },
  after: string[],
): Mail {
  const text = [...paragraphs, `${link.label}:\n${link.url}`, ...after, `— ${APP_NAME}`].join('\n\n');
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a><br>${escapeHtml(link.url)}</p>`,
    ...after.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p>— ${escapeHtml(APP_NAME)}</p>`,
  ].join('\n');
  return { to, subject, text, html: `<!doctype html>\n<html><body>\n${html}\n</body></html>` };
}

/** "Please confirm your email address": sent on sign-up, on a change of address and on "Resend". */
export function verificationMail(to: string, username: string, url: string): Mail {
  return compose(
    to,
    `Confirm your email address for ${APP_NAME}`,
    [`Hello ${username},`, `please confirm that this address belongs to your ${APP_NAME} account.`],
    { label: 'Confirm my email address', url },
    [
      `The link works for ${ACCOUNT_EMAIL_LIMITS.verifyLinkHours} hours, once. Until you confirm, this address cannot receive password reset links.`,
      `If you did not create an account or change your address on ${APP_NAME}, you can ignore this mail.`,
    ],
  );
}

/** "Choose a new password": sent on "Forgot password?" to a confirmed address. */
export function resetMail(to: string, username: string, url: string): Mail {
  return compose(
    to,
    `Choose a new password for ${APP_NAME}`,
    [`Hello ${username},`, `someone (we hope you) asked to choose a new password for your ${APP_NAME} account.`],
    { label: 'Choose a new password', url },
    [
      `The link works for ${ACCOUNT_EMAIL_LIMITS.resetLinkMinutes / 60} hour, once. Choosing a new password signs your account out everywhere.`,
      'Your authenticator app and passkeys stay as they are: when two-factor sign-in is on, signing in still asks for a code (or one of your recovery codes). After the reset, look at your passkeys in Settings → Account and remove any you do not know.',
      'If you did not ask for this, you can ignore this mail: your password stays as it is.',
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
export function securityNoticeMail(to: string, username: string, change: SecurityChange, settingsUrl: string): Mail {
  const when = `${change.at.slice(0, 10)} at ${change.at.slice(11, 16)} UTC`;
  const from = change.device ? ` from ${change.device}${change.place ? ` (${change.place})` : ''}` : '';
  return compose(
    to,
    `${change.title} on your ${APP_NAME} account`,
    [
      `Hello ${username},`,
      `${change.title}${change.detail ? `: ${change.detail}` : ''}. This was done on ${when}${from}.`,
      'If this was you, there is nothing more to do.',
    ],
    { label: 'Review your account security', url: settingsUrl },
    [
      'If it was not you, someone else may be using your account: choose a new password ("Forgot password?" on the log-in page), end the sessions you do not know and remove passkeys you did not add.',
    ],
  );
}

/** To the old address of an email change (issue 38): what changed, and the link that puts it back. */
export function emailChangedMail(
  to: string,
  username: string,
  newAddress: string,
  undoUrl: string,
  days: number,
): Mail {
  return compose(
    to,
    `The email address of your ${APP_NAME} account was changed`,
    [
      `Hello ${username},`,
      `the email address of your ${APP_NAME} account was changed from this one to ${newAddress}. Mails about your account, and password reset links, now go there.`,
      'If this was you, there is nothing more to do.',
    ],
    { label: 'This was not me: put my address back', url: undoUrl },
    [
      `The link works for ${days} days, once. It puts this address back, confirmed, and signs your account out everywhere; then choose a new password on the "Forgot password?" page.`,
    ],
  );
}
