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
      'If you did not ask for this, you can ignore this mail: your password stays as it is.',
    ],
  );
}
